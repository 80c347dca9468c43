import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose embedded database is made and migrated, with its administrator: each server starts on a copy. */
    e2eDataTemplate: string | undefined;
    /** The same with the demo data set (SEED_DEMO=1, its people's password E2E_DEMO_PASSWORD) loaded. */
    e2eDemoDataTemplate: string | undefined;
  }
}

const root = path.resolve(import.meta.dirname, '..');
/** The e2e administrator's password (harness.ts re-exports it; kept here so that this file loads no browser code). */
export const E2E_ADMIN_PASSWORD = 'E2e-Chief-Passw0rd';
/** The demo people's password in every e2e file (their data is loaded once, into the demo template). */
export const E2E_DEMO_PASSWORD = 'Demo-Passw0rd-e2e';

/**
 * Vitest global setup of the e2e files: a first start's work (initdb, every migration, the administrator's
 * password hash; the demo data set) done once per run in DATA_DIRs of their own, which each file's server
 * copies instead of doing it again. E2E_DATA_TEMPLATE=0: every server starts on an empty DATA_DIR, as
 * `npm start` does.
 */
export async function setup(project: TestProject) {
  project.provide('e2eDataTemplate', undefined);
  project.provide('e2eDemoDataTemplate', undefined);
  // The servers run the server's build, as `npm start` does.
  const { buildServer, serverBundleIsStale } = await import('../scripts/build-server.mjs');
  if (serverBundleIsStale()) await buildServer();
  if (process.env.E2E_DATA_TEMPLATE === '0') return;
  const { loadConfig } = await import('../apps/server/src/platform/config.ts');
  const { createContext } = await import('../apps/server/src/platform/start.ts');
  fs.mkdirSync(path.join(root, 'e2e/.tmp'), { recursive: true });
  const made: string[] = [];
  /** A DATA_DIR started once (a copy of `from` when given) and stopped. */
  const template = async (name: string, env: Record<string, string>, from?: string) => {
    const dataDir = fs.mkdtempSync(path.join(root, `e2e/.tmp/${name}-`));
    made.push(dataDir);
    if (from) fs.cpSync(from, dataDir, { recursive: true });
    const { ctx } = await createContext(
      loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, LOG_LEVEL: 'silent', ...env }),
    );
    await ctx.close();
    return dataDir;
  };
  const plain = await template('template', {});
  // The demo data set's media are made with ffmpeg and its 21 people's passwords hashed: seconds of a loaded
  // two-core machine that 25 files' servers would each spend again.
  const demo = await template('demo-template', { SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD }, plain);
  project.provide('e2eDataTemplate', plain);
  project.provide('e2eDemoDataTemplate', demo);
  return () => {
    for (const dataDir of made) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

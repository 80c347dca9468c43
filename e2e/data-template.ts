import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose embedded database is made and migrated, with its administrator: each server starts on a copy. */
    e2eDataTemplate: string | undefined;
  }
}

const root = path.resolve(import.meta.dirname, '..');
/** The e2e administrator's password (harness.ts re-exports it; kept here so that this file loads no browser code). */
export const E2E_ADMIN_PASSWORD = 'E2e-Chief-Passw0rd';

/**
 * Vitest global setup of the e2e files: a first start's work (initdb, every migration, the administrator's
 * password hash) done once per run in a DATA_DIR of its own, which each file's server copies instead of
 * doing it again. E2E_DATA_TEMPLATE=0: every server starts on an empty DATA_DIR, as `npm start` does.
 */
export async function setup(project: TestProject) {
  project.provide('e2eDataTemplate', undefined);
  if (process.env.E2E_DATA_TEMPLATE === '0') return;
  const { loadConfig } = await import('../apps/server/src/platform/config.ts');
  const { createContext } = await import('../apps/server/src/platform/start.ts');
  fs.mkdirSync(path.join(root, 'e2e/.tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(root, 'e2e/.tmp/template-'));
  const { ctx } = await createContext(
    loadConfig({ DATA_DIR: dataDir, ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, LOG_LEVEL: 'silent' }),
  );
  await ctx.close();
  project.provide('e2eDataTemplate', dataDir);
  return () => fs.rmSync(dataDir, { recursive: true, force: true });
}

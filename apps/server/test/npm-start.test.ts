import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/** Whether any process of the group still runs (signal 0 checks without sending anything). */
const groupAlive = (groupId: number) => {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `npm start` as a process manager or a container runs it: a SIGTERM or SIGINT to npm stops the server
 * and every process under it (issue 18 item 7: a shell between npm and the start script died alone).
 * On the embedded database only: the start script is the same for both.
 */
describe.skipIf(testDriver() !== 'pglite')('npm start and signals', () => {
  const dataDirs: string[] = [];
  const groups: number[] = [];
  afterAll(() => {
    for (const group of groups) if (groupAlive(group)) process.kill(-group, 'SIGKILL');
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const startNpm = async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-npm-start-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD: ADMIN_TEST_PASSWORD,
      LOCAL_EDGE: '0',
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(import.meta.dirname, 'fixtures', 'web'),
    };
    delete env.DATABASE_URL;
    // Its own process group, as a terminal or a service manager gives it, so that the test can tell
    // whether anything of it is left.
    const npm: ChildProcess = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: 'ignore' });
    const group = npm.pid as number;
    groups.push(group);
    const url = `http://127.0.0.1:${port}/api/passwordRules`;
    await eventually(async () => (await fetch(url).catch(() => undefined))?.ok, 120_000);
    return { npm, group, url };
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the server and everything under npm on a ${signal} to npm`, async () => {
      const started = await startNpm();
      started.npm.kill(signal);
      await eventually(() => !groupAlive(started.group), 30_000);
      await expect(fetch(started.url)).rejects.toThrow();
    }, 200_000);
  }
});

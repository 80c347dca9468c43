import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';
import { crashTestServers, signIn } from './spawned-server.ts';

/** The server processes the first process started (node:cluster forks are its children; tsx's esbuild is not). */
const serverProcessesOf = (pid: number) => {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', 'server.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};

describe('WEB_CONCURRENCY', () => {
  it('is refused on the embedded database, which belongs to one process', () => {
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      'WEB_CONCURRENCY above 1 needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process',
    );
    expect(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://db/media' }).webConcurrency).toBe(2);
    expect(() => loadConfig({ WEB_CONCURRENCY: '0' })).toThrow('WEB_CONCURRENCY');
  });

  // Several processes share one PostgreSQL database, as several instances do.
  const servers = crashTestServers('web-concurrency');
  it.skipIf(testDriver() !== 'postgres')(
    'serves from several processes that share the sessions, and starts a stopped one again',
    async () => {
      const server = await servers.start(await servers.env({ WEB_CONCURRENCY: '2', LOG_LEVEL: 'warn' }));
      const pid = server.child.pid as number;
      await eventually(async () => serverProcessesOf(pid).length === 2, 60_000);
      const { cookie } = await signIn(server.base, 'admin', ADMIN_TEST_PASSWORD);
      // A new connection each time: the processes take turns, and each knows the session.
      const me = () =>
        fetch(`${server.base}/api/me`, { headers: { cookie, connection: 'close' } }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: 12 }, me));
      expect(statuses).toEqual(Array(12).fill(200));

      // After the processes have served a while, one that stops is started again.
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const [stopped] = serverProcessesOf(pid);
      process.kill(stopped as number, 'SIGKILL');
      await eventually(async () => {
        const now = serverProcessesOf(pid);
        return now.length === 2 && !now.includes(stopped as number);
      }, 60_000);
      expect(await Promise.all(Array.from({ length: 6 }, me))).toEqual(Array(6).fill(200));

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(serverProcessesOf(pid)).toEqual([]);
    },
    120_000,
  );
});

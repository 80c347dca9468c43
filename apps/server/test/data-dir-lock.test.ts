import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extraDataStoredKey } from '@media/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { DataDirInUseError, lockDataDir } from '../src/platform/db/data-dir-lock.ts';
import { createContext } from '../src/platform/start.ts';
import { freePort } from './free-port.ts';
import { ADMIN_TEST_PASSWORD, testDriver } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../../..');

type Server = { child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> };

/** Runs the server as `npm start` does (node --import tsx server.ts), on the embedded database of dataDir. */
const spawnServer = async (dataDir: string): Promise<Server> => {
  const port = await freePort();
  let output = '';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: ADMIN_TEST_PASSWORD,
    LOCAL_EDGE: '0',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
};

/** Waits until the server answers HTTP, or until it exits. */
const serving = async (server: Server): Promise<'serving' | 'exited'> => {
  for (const until = Date.now() + 90_000; ; ) {
    if (server.child.exitCode !== null) return 'exited';
    const ready = await fetch(`${server.url}/config/apiVersions.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return 'serving';
    if (Date.now() > until) throw new Error(`server did not start in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const untilServing = async (server: Server) => {
  if ((await serving(server)) === 'exited')
    throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
};

/** A signed-in admin over real HTTP: keeps the cookies and sends the anti-forgery header on writes. */
const signInAdmin = async (url: string) => {
  const cookies = new Map<string, string>();
  const call = async (method: string, route: string, body?: unknown) => {
    const headers: Record<string, string> = {
      cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const csrf = cookies.get('csrftoken');
    if (method !== 'GET' && csrf) headers['X-CSRFToken'] = csrf;
    const response = await fetch(`${url}${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = (pair as string).indexOf('=');
      cookies.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
    return { status: response.status, body: (await response.json().catch(() => undefined)) as unknown };
  };
  await call('GET', '/config/apiVersions.json');
  await call('GET', '/api/passwordRules');
  const login = await call('POST', '/api/login', { username: 'admin', password: ADMIN_TEST_PASSWORD });
  expect(login.body).toMatchObject({ results: { status: 'valid' } });
  return call;
};

describe('one process per embedded data directory', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-lock-'));
  const running: Server[] = [];
  afterAll(async () => {
    for (const server of running) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await Promise.all(running.map((server) => server.exited));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second open of a held directory, in this process too, and frees it on release', async () => {
    const dir = path.join(dataDir, 'unit');
    const held = await lockDataDir(dir);
    const second = lockDataDir(dir);
    await expect(second).rejects.toThrow(DataDirInUseError);
    await expect(second).rejects.toThrow(`The data directory ${dir} is in use by process ${process.pid}`);
    await held.release();
    await (await lockDataDir(dir)).release();
  });

  it('is not stopped by a lock file that names a live process which holds no lock (a process id reused after a crash)', async () => {
    const dir = path.join(dataDir, 'reused');
    const crashed = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', '--input-type=module', '-e'],
        `import { lockDataDir } from ${JSON.stringify(path.join(root, 'apps/server/src/platform/db/data-dir-lock.ts'))};
         await lockDataDir(${JSON.stringify(dir)});
         console.log('held');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => crashed.stdout?.once('data', resolve));
    await expect(lockDataDir(dir)).rejects.toThrow(`is in use by process ${crashed.pid}`);
    crashed.kill('SIGKILL');
    await new Promise((resolve) => crashed.once('exit', resolve));
    // What the crash left names a process id that a live, unrelated process now has.
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lockPath = `${dir}.lock`;
      const recorded = fs.statSync(lockPath).isDirectory() ? path.join(lockPath, 'owner.json') : lockPath;
      fs.writeFileSync(
        recorded,
        fs.readFileSync(recorded, 'utf8').replace(`"pid":${crashed.pid}`, `"pid":${unrelated.pid}`),
      );
      expect(fs.readFileSync(recorded, 'utf8')).toContain(`"pid":${unrelated.pid}`);
      const held = await lockDataDir(dir);
      expect(JSON.parse(fs.readFileSync(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
      await held.release();
    } finally {
      unrelated.kill('SIGKILL');
    }
  }, 60_000);

  it.skipIf(testDriver() === 'postgres')(
    'frees the directory when its start is refused (an ADMIN_PASSWORD that breaks the rules), so the next start opens it',
    async () => {
      const dir = path.join(dataDir, 'refused');
      const env = { DATA_DIR: dir, LOCAL_EDGE: '0', LOG_LEVEL: 'silent' };
      await expect(createContext(loadConfig({ ...env, ADMIN_PASSWORD: 'short' }))).rejects.toThrow(
        /ADMIN_PASSWORD does not follow the password rules/,
      );
      const { ctx } = await createContext(loadConfig({ ...env, ADMIN_PASSWORD: ADMIN_TEST_PASSWORD }));
      await ctx.close();
    },
    120_000,
  );

  // The spawned servers always run the embedded database; on the PostgreSQL run this would only repeat it.
  it.skipIf(testDriver() === 'postgres')(
    'a second server on the same DATA_DIR stops with a message naming the directory and the running process; after a kill -9 the next start takes over and every confirmed write is there',
    async () => {
      const first = await spawnServer(dataDir);
      running.push(first);
      // The second one boots while the first one prepares its database; it must find the lock taken.
      const lockFile = path.join(dataDir, 'db.lock');
      const lockNames = (pid: number | undefined) =>
        fs.existsSync(lockFile) && fs.readFileSync(lockFile, 'utf8').includes(`"pid":${pid}`);
      for (const until = Date.now() + 90_000; !lockNames(first.child.pid) && Date.now() < until; )
        await new Promise((resolve) => setTimeout(resolve, 50));
      const second = await spawnServer(dataDir);
      await running.push(second);
      await untilServing(first);
      expect(await serving(second)).toBe('exited');
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`The data directory ${path.join(dataDir, 'db')} is in use`);
      expect(second.output()).toContain(`process ${first.child.pid}`);
      expect(second.output()).not.toMatch(/^\s+at /m);
      // The first one still serves.
      const call = await signInAdmin(first.url);
      const me = (await call('GET', '/api/me')) as { body: { results: { id: number } } };
      const extraData = `/api/users/${me.body.results.id}/extraData`;
      for (let i = 0; i < 30; i++)
        expect((await call('POST', extraData, { [extraDataStoredKey(`kept${i}`)]: `row ${i}` })).status).toBe(
          200,
        );

      first.child.kill('SIGKILL');
      await first.exited;
      // The lock file still names the killed process, whose id a live, unrelated process may have by the next
      // start: the kernel's lock, not that id, decides.
      const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
      fs.writeFileSync(
        lockFile,
        fs.readFileSync(lockFile, 'utf8').replace(`"pid":${first.child.pid}`, `"pid":${unrelated.pid}`),
      );
      const third = await spawnServer(dataDir).finally(() => unrelated.kill('SIGKILL'));
      running.push(third);
      await untilServing(third);
      const again = await signInAdmin(third.url);
      const stored = (await again('GET', extraData)) as { body: { results: Record<string, string> } };
      const kept = Object.keys(stored.body.results).filter((key) => key.includes('kept'));
      expect(kept).toHaveLength(30);
      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
      // A clean stop frees the directory, and its lock file names nobody.
      expect(fs.readFileSync(lockFile, 'utf8')).toBe('');
      await (await lockDataDir(path.join(dataDir, 'db'))).release();
    },
    240_000,
  );
});

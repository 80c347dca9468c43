import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect } from 'vitest';
import { freePort } from './free-port.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';

/** Servers run as `npm start` runs them, in their own process, for tests of crashes (kill -9) and restarts. */

export const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** `npm start`'s server as its own process, on the given DATA_DIR (and DATABASE_URL). */
export const startServer = async (env: Record<string, string>) => {
  const port = await freePort();
  const output: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await eventually(
      () =>
        child.exitCode === null
          ? fetch(`${base}/config/apiVersions.json`).then(
              (r) => r.ok,
              () => false,
            )
          : Promise.reject(new Error(`the server exited: ${output.join('')}`)),
      120_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { child, base, exited, output };
};

/** Signs in as a browser does: the anti-forgery cookie first, then the login. */
export const signIn = async (base: string, username: string, password: string) => {
  const cookiesOf = (response: Response) =>
    new Map(
      response.headers.getSetCookie().map((line) => {
        const pair = line.split(';')[0] ?? '';
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)] as const;
      }),
    );
  const first = await fetch(`${base}/api/passwordRules`);
  await first.text();
  const csrf = cookiesOf(first).get('csrftoken') ?? '';
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username, password }),
  });
  expect(((await login.json()) as { results: { status: string } }).results.status).toBe('valid');
  const cookies = cookiesOf(login);
  const token = cookies.get('csrftoken') ?? csrf;
  return { cookie: `sessionid=${cookies.get('sessionid')}; csrftoken=${token}`, csrf: token };
};

/**
 * The servers one crash test spawns: a DATA_DIR and, on the PostgreSQL run, a scratch database of their
 * own; `env` is what every start gets, `start` runs one; all are killed and removed after the tests.
 */
export const crashTestServers = (name: string) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `media-${name}-`));
  const children: ChildProcess[] = [];
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    env: async (extra: Record<string, string> = {}) => {
      if (testDriver() === 'postgres' && !scratch)
        scratch = await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'test');
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url ?? '',
        ADMIN_PASSWORD: ADMIN_TEST_PASSWORD,
        LOG_LEVEL: 'info',
        LOCAL_EDGE: '0',
        RATE_LIMIT_PER_MINUTE: '100000',
        ...extra,
      };
    },
    start: async (env: Record<string, string>) => {
      const server = await startServer(env);
      children.push(server.child);
      return server;
    },
  };
};

export { freePort };

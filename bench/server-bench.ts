import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { createContext } from '../apps/server/src/platform/start.ts';
import { createScratchPostgresDatabase } from '../apps/server/test/scratch-postgres.ts';
import { BenchmarkFailure } from './failure.ts';

/** The password of `admin` in every benchmark's fresh database. */
export const BENCH_PASSWORD = 'Bench-Passw0rd!';

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Signs in through inject (as admin unless told) and answers the Cookie header of the session. */
export const signInAs = async (app: FastifyInstance, username = 'admin', password = BENCH_PASSWORD) => {
  const first = await app.inject({ method: 'GET', url: '/api/passwordRules' });
  const csrf = first.cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    payload: { username, password },
  });
  if (login.json<{ results: { status: string } }>().results.status !== 'valid')
    throw new BenchmarkFailure(`sign-in failed: ${login.body}`);
  return login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
};

/**
 * A fresh server for one benchmark on one driver: PGlite in a temporary folder, or a scratch database on
 * DATABASE_URL's server. `run` seeds through `ctx`, then `start()` builds the app and signs in as admin;
 * everything is closed and removed afterwards, whatever happens.
 */
export const withBenchServer = async <T>(
  driver: 'pglite' | 'postgres',
  name: string,
  run: (bench: {
    ctx: AppContext;
    start: () => Promise<{ app: FastifyInstance; cookie: string }>;
  }) => Promise<T>,
  options: {
    /**
     * 'as-run': the log as a server runs by default (LOG_LEVEL=info, a line per request), written at once as
     * to stdout, into /dev/null so that the output stays readable; for a benchmark of requests per second.
     * Otherwise warnings only, on stderr.
     */
    log?: 'as-run';
  } = {},
): Promise<T> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `media-bench-${name}-`));
  const postgres =
    driver === 'postgres'
      ? await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'bench')
      : undefined;
  let ctx: AppContext | undefined;
  let app: FastifyInstance | undefined;
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: BENCH_PASSWORD,
      LOG_LEVEL: options.log === 'as-run' ? 'info' : 'warn',
      LOCAL_EDGE: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    });
    const logStream =
      options.log === 'as-run' ? pino.destination({ dest: '/dev/null', sync: true }) : process.stderr;
    ({ ctx } = await createContext(config, { logStream }));
    const context = ctx;
    return await run({
      ctx: context,
      start: async () => {
        app = await buildApp(context);
        await app.ready();
        return { app, cookie: await signInAs(app) };
      },
    });
  } finally {
    await app?.close();
    await ctx?.close();
    // BENCH_KEEP_DB=1 keeps the scratch PostgreSQL database, to look at its plans afterwards.
    if (postgres && process.env.BENCH_KEEP_DB === '1') console.log(`kept the database: ${postgres.url}`);
    else await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import { createContext } from '../apps/server/src/platform/start.ts';

const PASSWORD = 'Bench-Passw0rd!';
const CONNECTIONS = 100;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** DESIGN.md: a read route keeps at least 40% of the bare route's throughput. */
const BUDGET = 0.4;

type Row = { route: string; requests: number; p50: number; p99: number; failures: number };

const load = async (title: string, url: string, headers: Record<string, string>): Promise<Row> => {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    route: title,
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  };
};

const cookiesOf = (response: Response) =>
  Object.fromEntries(
    response.headers.getSetCookie().map((c) => (c.split(';')[0] ?? '').split('=') as [string, string]),
  );

export const runApiReadBenchmark = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    LOCAL_EDGE: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const { ctx } = await createContext(config, { logStream: silent });
  const app = await buildApp(ctx);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  // Sign in as a browser does: fetch the anti-forgery cookie, then post the password with it.
  const first = await fetch(`${base}/api/passwordRules`);
  const csrf = cookiesOf(first).csrftoken ?? '';
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const session = cookiesOf(login);
  const cookie = `sessionid=${session.sessionid}; csrftoken=${session.csrftoken}`;
  const listBody = await (await fetch(`${base}/api/roles`, { headers: { cookie } })).json();
  const meBody = (await (await fetch(`${base}/api/me`, { headers: { cookie } })).json()) as {
    results?: unknown;
  };
  if (!meBody.results) throw new Error(`sign-in for the benchmark failed: ${JSON.stringify(meBody)}`);

  const bare = Fastify();
  bare.get('/bare', () => listBody);
  const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

  const rows: Row[] = [];
  rows.push(await load('bare Fastify, same JSON from memory', `${bareBase}/bare`, {}));
  rows.push(await load('GET /api/me', `${base}/api/me`, { cookie }));
  rows.push(await load('GET /api/roles (list)', `${base}/api/roles`, { cookie }));

  await bare.close();
  await app.close();
  await ctx.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const [baseline, me, list] = rows as [Row, Row, Row];
  console.log(`${CONNECTIONS} connections, ${DURATION} s each, PGlite (embedded)\n`);
  console.log(
    'route'.padEnd(38),
    'req/s'.padStart(9),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'failed'.padStart(7),
  );
  for (const row of rows) {
    console.log(
      row.route.padEnd(38),
      row.requests.toFixed(0).padStart(9),
      String(row.p50).padStart(8),
      String(row.p99).padStart(8),
      String(row.failures).padStart(7),
    );
  }
  const ratio = (row: Row) => row.requests / baseline.requests;
  const verdict = (row: Row) => (ratio(row) >= BUDGET ? 'PASS' : 'BELOW');
  console.log(
    `\nratio list route / bare route: ${(ratio(list) * 100).toFixed(1)}% (budget >= ${BUDGET * 100}%: ${verdict(list)})`,
  );
  console.log(
    `ratio /api/me / bare route:    ${(ratio(me) * 100).toFixed(1)}% (budget >= ${BUDGET * 100}%: ${verdict(me)})`,
  );
  const failed = rows.filter((row) => row.failures > 0);
  if (failed.length > 0) {
    throw new Error(`requests failed: ${failed.map((row) => `${row.route}: ${row.failures}`).join(', ')}`);
  }
};

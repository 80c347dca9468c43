import { deepStrictEqual } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config.ts';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { createContext } from '../apps/server/src/platform/start.ts';
import { BenchmarkFailure } from './failure.ts';

const PASSWORD = 'Bench-Passw0rd!';
const CONNECTIONS = 100;
/** DESIGN.md: a read route keeps at least 40% of the bare route's throughput. */
const BUDGET = 0.4;
const WARM_UP_SECONDS = 1;

const durationSeconds = () => {
  const raw = process.env.BENCH_DURATION ?? '10';
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new BenchmarkFailure(`BENCH_DURATION must be a whole number of seconds (at least 1), not "${raw}"`);
  }
  return seconds;
};

type Target = { label: string; url: string; headers: Record<string, string> };
type Row = {
  label: string;
  perSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** Connection errors (time-outs included) plus answers outside 2xx. */
  failures: number;
  /** Status codes other than 2xx and how often each came, e.g. "401×12". */
  unexpected: string;
};

/**
 * Loads one URL. The client runs in a worker thread, so that it does not take the event loop of
 * the server under test (which shares this process) and the ratio is not flattened by client work.
 */
const load = async (target: Target, duration: number): Promise<Row> => {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    duration,
    workers: 1,
  });
  const unexpected = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, stats]) => `${code}×${stats.count ?? 0}`)
    .join(' ');
  return {
    label: target.label,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: result.errors + result.non2xx,
    unexpected,
  };
};

/** name → value of the cookies a response sets. */
const cookiesOf = (response: Response) =>
  new Map(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] as const;
    }),
  );

const expectOk = async (response: Response, what: string) => {
  if (!response.ok) {
    throw new BenchmarkFailure(`${what} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as unknown;
};

/** Signs in as a browser does: fetch the anti-forgery cookie, then post the password with it. */
const signIn = async (base: string) => {
  const first = await fetch(`${base}/api/passwordRules`);
  await expectOk(first, 'GET /api/passwordRules');
  const csrf = cookiesOf(first).get('csrftoken');
  if (!csrf) throw new BenchmarkFailure('GET /api/passwordRules set no csrftoken cookie');
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const body = (await expectOk(login, 'POST /api/login')) as { results?: { status?: string } };
  if (body.results?.status !== 'valid') {
    throw new BenchmarkFailure(`sign-in as admin failed: ${JSON.stringify(body)}`);
  }
  const cookies = cookiesOf(login);
  const session = cookies.get('sessionid');
  const rotated = cookies.get('csrftoken');
  if (!session || !rotated) {
    throw new BenchmarkFailure(`sign-in set no sessionid or csrftoken cookie: ${[...cookies.keys()]}`);
  }
  return `sessionid=${session}; csrftoken=${rotated}`;
};

const isCollection = (body: unknown): body is { results: unknown[]; total: number; channel: string } => {
  const b = body as { results?: unknown; total?: unknown; channel?: unknown } | null;
  return (
    b !== null && Array.isArray(b.results) && typeof b.total === 'number' && typeof b.channel === 'string'
  );
};

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

const printTable = (rows: Row[], baseline: Row) => {
  const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors/non-2xx', 'of bare', 'budget'];
  const lines = rows.map((row) => {
    const ratio = row.perSecond / baseline.perSecond;
    const isBaseline = row === baseline;
    return [
      row.label,
      row.perSecond.toFixed(0),
      String(row.p50),
      String(row.p99),
      String(row.total),
      row.failures === 0 ? '0' : `${row.failures} ${row.unexpected}`.trim(),
      isBaseline ? 'baseline' : percent(ratio),
      isBaseline ? '' : ratio >= BUDGET ? 'PASS' : 'BELOW',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => (line[i] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
};

/**
 * DESIGN.md, performance budgets: a read route at 100 connections keeps at least 40% of the
 * throughput of a bare Fastify route answering the same JSON from memory.
 */
export const runApiReadBenchmark = async () => {
  const duration = durationSeconds();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-bench-'));
  let ctx: AppContext | undefined;
  let app: FastifyInstance | undefined;
  let bare: FastifyInstance | undefined;
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      LOCAL_EDGE: '0',
      RATE_LIMIT_PER_MINUTE: '100000000',
    });
    ({ ctx } = await createContext(config, { logStream: process.stderr }));
    app = await buildApp(ctx);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = await signIn(base);

    const me = await expectOk(await fetch(`${base}/api/me`, { headers: { cookie } }), 'GET /api/me');
    if (!(me as { results?: unknown }).results) {
      throw new BenchmarkFailure(`GET /api/me gave no user: ${JSON.stringify(me)}`);
    }
    const list = await expectOk(await fetch(`${base}/api/roles`, { headers: { cookie } }), 'GET /api/roles');
    if (!isCollection(list)) {
      throw new BenchmarkFailure(`GET /api/roles is not a {results, total, channel} collection`);
    }

    bare = Fastify();
    bare.get('/bare', () => list);
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    deepStrictEqual(
      await (await fetch(`${bareBase}/bare`)).json(),
      list,
      'the bare route answers other JSON',
    );

    const targets: Target[] = [
      { label: 'GET /api/me', url: `${base}/api/me`, headers: { cookie } },
      {
        label: `GET /api/roles (${list.results.length} of ${list.total})`,
        url: `${base}/api/roles`,
        headers: { cookie },
      },
      { label: 'bare Fastify, same JSON from memory', url: `${bareBase}/bare`, headers: {} },
    ];
    for (const target of targets) await load(target, WARM_UP_SECONDS);
    const rows: Row[] = [];
    for (const target of targets) rows.push(await load(target, duration));

    const baseline = rows[2] as Row;
    console.log(`${CONNECTIONS} connections, ${duration} s per route after a ${WARM_UP_SECONDS} s warm-up;`);
    console.log(`server and PGlite on the main thread, autocannon in a worker; ${os.cpus().length} CPUs\n`);
    printTable(rows, baseline);
    console.log(`\nbudget: a read route keeps >= ${percent(BUDGET)} of the bare route's requests per second`);

    const failed = rows.filter((row) => row.failures > 0 || row.total === 0);
    if (failed.length > 0) {
      throw new BenchmarkFailure(
        `not every request was answered 2xx: ${failed
          .map((row) => `${row.label}: ${row.failures} failed ${row.unexpected}`.trim())
          .join('; ')}`,
      );
    }
  } finally {
    await bare?.close();
    await app?.close();
    await ctx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

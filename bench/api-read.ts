import { deepStrictEqual } from 'node:assert';
import os from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { BenchmarkFailure } from './failure.ts';
import { runLoadMixOn } from './load-mix.ts';
import { withBenchServer } from './server-bench.ts';

const CONNECTIONS = 100;
/** DESIGN.md: a read route keeps at least 40% of the bare route's throughput. */
const BUDGET = 0.4;
const WARM_UP_SECONDS = 1;
/** Issue 17: and a p99 latency at most this at 100 connections. */
const P99_BUDGET_MS = 50;
/** Issue 17: the lists' p99 under the mixed load (long-polls plus lists). */
const MIXED_P99_BUDGET_MS = 100;

const durationSeconds = () => {
  const raw = process.env.BENCH_DURATION ?? '10';
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new BenchmarkFailure(`BENCH_DURATION must be a whole number of seconds (at least 1), not "${raw}"`);
  }
  return seconds;
};

type Target = {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** Each request's `[<id>]` in the URL becomes a new id (autocannon's idReplacement). */
  newIdEachRequest?: boolean;
};
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
    idReplacement: target.newIdEachRequest ?? false,
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

/** The measuring time in turns of about three seconds (at least one turn). */
const ROUND_SECONDS = 3;
const roundsOf = (duration: number) => {
  const count = Math.max(1, Math.round(duration / ROUND_SECONDS));
  return Array.from({ length: count }, (_, i) =>
    i < count - 1 ? Math.floor(duration / count) : duration - Math.floor(duration / count) * (count - 1),
  );
};

/** Turns of one target as one row: requests per second over all of them, the median p50, the worst p99. */
const combined = (rounds: Row[]): Row => {
  const first = rounds[0] as Row;
  const p50s = rounds.map((round) => round.p50).sort((a, b) => a - b);
  return {
    label: first.label,
    perSecond: rounds.reduce((sum, round) => sum + round.perSecond, 0) / rounds.length,
    p50: p50s[Math.floor(p50s.length / 2)] as number,
    p99: Math.max(...rounds.map((round) => round.p99)),
    total: rounds.reduce((sum, round) => sum + round.total, 0),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    unexpected: rounds
      .map((round) => round.unexpected)
      .filter(Boolean)
      .join(' '),
  };
};

const expectOk = async (response: Response, what: string) => {
  if (!response.ok) {
    throw new BenchmarkFailure(`${what} answered ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as unknown;
};

const isCollection = (body: unknown): body is { results: unknown[]; total: number; channel: string } => {
  const b = body as { results?: unknown; total?: unknown; channel?: unknown } | null;
  return (
    b !== null && Array.isArray(b.results) && typeof b.total === 'number' && typeof b.channel === 'string'
  );
};

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/**
 * A route measured with two bare twins answering the same JSON from memory: `bare` returns the object
 * (Fastify serializes it each time: the baseline, which the budget is against), `bareText` sends the
 * text serialized once (as the cached routes keep theirs), the strictest comparison, shown beside it.
 */
type Measured = { route: Row; bare: Row; bareText: Row };

const printTable = (measured: Measured[]) => {
  const header = [
    'route',
    'req/s',
    'p50 ms',
    'p99 ms',
    'requests',
    'errors/non-2xx',
    'bare req/s',
    'of bare',
    'bare text req/s',
    'of bare text',
    'budget',
  ];
  const lines = measured.map(({ route, bare, bareText }) => {
    const ratio = route.perSecond / bare.perSecond;
    return [
      route.label,
      route.perSecond.toFixed(0),
      String(route.p50),
      String(route.p99),
      String(route.total),
      route.failures === 0 ? '0' : `${route.failures} ${route.unexpected}`.trim(),
      bare.perSecond.toFixed(0),
      percent(ratio),
      bareText.perSecond.toFixed(0),
      percent(route.perSecond / bareText.perSecond),
      ratio >= BUDGET && route.p99 <= P99_BUDGET_MS ? 'PASS' : 'BELOW',
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

/** Accounts seeded for the list route: its search matches about one in nine of them, a page of 50 shown. */
const SEEDED_ACCOUNTS = 2_000;

const seedAccounts = (ctx: AppContext) =>
  ctx.db.execute(sql`
    with reseller as (insert into resellers (name) values ('Bench reseller') returning id),
         grp as (insert into site_groups (name, reseller_id) select 'Bench group', id from reseller returning id),
         site as (insert into sites (name, site_group_id) select 'Bench site', id from grp returning id)
    insert into accounts (name, site_id, production_name)
    select 'bench-account-' || n, (select id from site), 'Production ' || n
    from generate_series(1, ${SEEDED_ACCOUNTS}) n`);

/** The routes measured on one database driver, each against the bare route on the same machine and moment. */
const runOn = (driver: 'pglite' | 'postgres', duration: number) =>
  withBenchServer(
    driver,
    'api-read',
    async ({ ctx, start }) => {
      await seedAccounts(ctx);
      const { app, cookie } = await start();
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      let bare: FastifyInstance | undefined;
      try {
        const me = await expectOk(await fetch(`${base}/api/me`, { headers: { cookie } }), 'GET /api/me');
        if (!(me as { results?: unknown }).results) {
          throw new BenchmarkFailure(`GET /api/me gave no user: ${JSON.stringify(me)}`);
        }
        const list = await expectOk(
          await fetch(`${base}/api/roles`, { headers: { cookie } }),
          'GET /api/roles',
        );
        if (!isCollection(list)) {
          throw new BenchmarkFailure(`GET /api/roles is not a {results, total, channel} collection`);
        }
        const searchUrl = `${base}/api/accounts?limit=50&offset=0&sort=name&searchText=account-1`;
        const searched = await expectOk(await fetch(searchUrl, { headers: { cookie } }), 'GET /api/accounts');
        if (!isCollection(searched) || searched.results.length === 0) {
          throw new BenchmarkFailure(
            `GET /api/accounts?searchText found nothing: ${JSON.stringify(searched)}`,
          );
        }

        const nothingUrl = `${base}/api/accounts?limit=50&offset=0&sort=name&searchText=[<id>]`;
        const nothing = await expectOk(
          await fetch(nothingUrl.replace('[<id>]', 'no-such-account'), { headers: { cookie } }),
          'GET /api/accounts',
        );
        const routes: (Target & { body: unknown })[] = [
          { label: 'GET /api/me', url: `${base}/api/me`, headers: { cookie }, body: me },
          {
            label: `GET /api/roles (${list.results.length} of ${list.total})`,
            url: `${base}/api/roles`,
            headers: { cookie },
            body: list,
          },
          {
            label: `GET /api/accounts?searchText (page of 50 of ${searched.total})`,
            url: searchUrl,
            headers: { cookie },
            body: searched,
          },
          {
            // A new search each request: never answered from the cache, so this row is the database path.
            label: 'GET /api/accounts?searchText, a new search each time (no match)',
            url: nothingUrl,
            headers: { cookie },
            newIdEachRequest: true,
            body: nothing,
          },
        ];
        // BENCH_ONLY: measure only the routes whose label contains it, e.g. to profile one.
        const only = process.env.BENCH_ONLY;
        const chosen = only ? routes.filter((route) => route.label.includes(only)) : routes;

        // Each route's bare twins answer the same JSON from memory, so a ratio compares the work around it.
        bare = Fastify();
        for (const [i, route] of chosen.entries()) {
          const text = JSON.stringify(route.body);
          bare.get(`/bare/${i}`, () => route.body);
          bare.get(`/bare-text/${i}`, (_request, reply) =>
            reply.type('application/json; charset=utf-8').send(text),
          );
        }
        const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
        const measured: Measured[] = [];
        for (const [i, route] of chosen.entries()) {
          const twin: Target = { label: 'bare', url: `${bareBase}/bare/${i}`, headers: {} };
          const textTwin: Target = { label: 'bare text', url: `${bareBase}/bare-text/${i}`, headers: {} };
          for (const target of [twin, textTwin])
            deepStrictEqual(
              await (await fetch(target.url)).json(),
              route.body,
              'a bare route answers other JSON',
            );
          for (const target of [route, twin, textTwin]) await load(target, WARM_UP_SECONDS);
          // In turns, so that a slow or a fast moment of a shared machine falls on all three alike.
          const rounds: Measured[] = [];
          for (const seconds of roundsOf(duration))
            rounds.push({
              route: await load(route, seconds),
              bare: await load(twin, seconds),
              bareText: await load(textTwin, seconds),
            });
          measured.push({
            route: combined(rounds.map((round) => round.route)),
            bare: combined(rounds.map((round) => round.bare)),
            bareText: combined(rounds.map((round) => round.bareText)),
          });
        }

        const where =
          driver === 'pglite'
            ? 'PGlite in its worker thread'
            : 'PostgreSQL (DATABASE_URL, a scratch database)';
        console.log(
          `\n${driver}: ${CONNECTIONS} connections, ${duration} s per route after a ${WARM_UP_SECONDS} s warm-up;`,
        );
        console.log(`server with ${where}, autocannon in a worker; ${os.cpus().length} CPUs\n`);
        printTable(measured);
        return measured.flatMap((m) => [m.route, m.bare, m.bareText]);
      } finally {
        await bare?.close();
      }
    },
    { log: 'as-run' },
  );

/**
 * DESIGN.md, performance budgets: a read route at 100 connections keeps at least 40% of the
 * throughput of a bare Fastify route answering the same JSON from memory. On PGlite, and on PostgreSQL
 * too when DATABASE_URL is set.
 */
export const runApiReadBenchmark = async () => {
  const duration = durationSeconds();
  // BENCH_DRIVER=postgres (or pglite): one driver only.
  const drivers = (
    process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)
  ).filter((driver) => !process.env.BENCH_DRIVER || driver === process.env.BENCH_DRIVER);
  const failed: string[] = [];
  const mixed: string[] = [];
  for (const driver of drivers) {
    const rows = await runOn(driver, duration);
    for (const row of rows)
      if (row.failures > 0 || row.total === 0)
        failed.push(`${driver} ${row.label}: ${row.failures} failed ${row.unexpected}`.trim());
    // Issue 17: the case where clients waited seconds, long-polling pages plus lists, measured as load-mix does.
    if (process.env.BENCH_MIXED !== '0') {
      const result = await runLoadMixOn(driver, duration);
      mixed.push(
        `${driver.padEnd(8)}  lists p50 ${result.listsP50} ms  p99 ${result.listsP99} ms  (${result.listsPerSecond.toFixed(0)} req/s)  ${result.listsP99 <= MIXED_P99_BUDGET_MS ? 'PASS' : 'BELOW'}`,
      );
    }
  }
  console.log(
    `\nbudget: a read route keeps >= ${percent(BUDGET)} of its bare twin's requests per second (the object one), with p99 <= ${P99_BUDGET_MS} ms`,
  );
  if (mixed.length > 0) {
    console.log(
      `\nmixed load (200 long-polling pages, 50 connections on lists; details above), budget p99 <= ${MIXED_P99_BUDGET_MS} ms:`,
    );
    for (const line of mixed) console.log(line);
  }
  if (failed.length > 0) {
    throw new BenchmarkFailure(`not every request was answered 2xx: ${failed.join('; ')}`);
  }
};

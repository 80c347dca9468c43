import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { CHANNELS } from '@media/contract';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { SessionStore } from '../apps/server/src/platform/auth/sessions.ts';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { grantAccountAccess, makeUser } from '../apps/server/src/seed/factories.ts';
import { BenchmarkFailure } from './failure.ts';
import type { PollerSession, PollersInput, PollersResult } from './load-mix-pollers.ts';
import { quantile, withBenchServer } from './server-bench.ts';

/**
 * Issue 12, item 12: long-polling pages plus concurrent list requests. Prints what clients wait, what the
 * server spends before the route handler (session, anti-forgery, rate limit, parsing), in the handler and
 * after it, the event loop's delay, and which statements the database ran, so the gap has a name.
 * BENCH_POLLERS (200), BENCH_LIST_CONNECTIONS (50), BENCH_DURATION (20 s), BENCH_CHANGE_MS (1000).
 * BENCH_PROFILE=<file.cpuprofile> writes a CPU profile of the server's thread during the measurement only
 * (open it in Chrome DevTools or speedscope).
 */
const POLLERS = Number(process.env.BENCH_POLLERS ?? 200);
const LIST_CONNECTIONS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 20);
const CHANGE_MS = Number(process.env.BENCH_CHANGE_MS ?? 1000);
/** Browser sessions behind the pages; each has POLLERS / SESSIONS pages (tabs) open. */
const SESSIONS = 40;
/** A page is left (its event id deleted) and a new one loaded after this many long-polls. */
const POLLS_PER_PAGE = 10;
const ACCOUNTS = 500;
const USERS = 5_000;

type Timing = { url: string; arrived: number; handlerStart?: number; handlerEnd?: number };
type Done = Timing & { finished: number };

const ms = (n: number | undefined) => (n === undefined ? '-' : n < 10 ? n.toFixed(2) : n.toFixed(0));
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) };
};
const line = (label: string, values: number[]) => {
  const s = summary(values);
  return `${label.padEnd(44)} p50 ${ms(s.p50).padStart(6)} ms   p99 ${ms(s.p99).padStart(6)} ms   max ${ms(s.max).padStart(6)} ms   (n=${s.n})`;
};

const seed = async (ctx: AppContext) => {
  const { db } = ctx;
  await db.execute(sql`insert into resellers (name) values ('Mix reseller')`);
  await db.execute(
    sql`insert into site_groups (name, reseller_id) select 'Mix group', id from resellers where name = 'Mix reseller'`,
  );
  await db.execute(sql`insert into sites (name, site_group_id)
    select 'Mix site ' || n, (select id from site_groups where name = 'Mix group') from generate_series(1, 5) n`);
  await db.execute(sql`insert into accounts (name, site_id, production_name)
    select 'mix-account-' || n, (select min(id) from sites) + (n % 5), 'Production ' || md5(n::text)
    from generate_series(1, ${ACCOUNTS}) n`);
  await db.execute(sql`insert into users (username, fullname, email, company)
    select 'mix.user' || n, 'Mix ' || initcap(substr(md5(n::text), 1, 6)), 'mix' || n || '@example.com', 'Mix'
    from generate_series(1, ${USERS}) n`);
  await db.execute(sql`analyze`);
  const rows = await db.execute<{ id: number }>(
    sql`select id from accounts where name like 'mix-account-%' order by id limit ${SESSIONS}`,
  );
  const accountIds = (rows as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
  const people: { username: string; password: string; userId: number; accountId: number }[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const user = await makeUser(db);
    const accountId = accountIds[i] as number;
    await grantAccountAccess(db, user.id, accountId, 'Editor');
    people.push({ username: user.username, password: user.password as string, userId: user.id, accountId });
  }
  return people;
};

/** Signs in as a browser does and answers the page's cookies and anti-forgery token. */
const signIn = async (base: string, username: string, password: string) => {
  const first = await fetch(`${base}/api/passwordRules`);
  await first.text();
  const cookieOf = (response: Response) =>
    new Map(
      response.headers.getSetCookie().map((l) => {
        const pair = l.split(';')[0] ?? '';
        const at = pair.indexOf('=');
        return [pair.slice(0, at), pair.slice(at + 1)] as const;
      }),
    );
  const csrf = cookieOf(first).get('csrftoken') ?? '';
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrftoken': csrf, cookie: `csrftoken=${csrf}` },
    body: JSON.stringify({ username, password }),
  });
  const body = (await login.json()) as { results?: { status?: string } };
  if (body.results?.status !== 'valid')
    throw new BenchmarkFailure(`sign-in of ${username}: ${JSON.stringify(body)}`);
  const cookies = cookieOf(login);
  const session = cookies.get('sessionid') ?? '';
  const token = cookies.get('csrftoken') ?? '';
  return { cookie: `sessionid=${session}; csrftoken=${token}`, csrf: token };
};

/** Counts and times every statement the driver is given (outside transactions: those count as one). */
const watchDatabase = (ctx: AppContext) => {
  const client = (ctx.db as unknown as { $client: Record<string, unknown> }).$client;
  const statements = new Map<string, { count: number; ms: number }>();
  let calls = 0;
  let busy = 0;
  const wrap = (name: string, label: (args: unknown[]) => string) => {
    const original = client[name];
    if (typeof original !== 'function') return;
    client[name] = async (...args: unknown[]) => {
      const started = performance.now();
      try {
        return await (original as (...a: unknown[]) => Promise<unknown>).apply(client, args);
      } finally {
        const took = performance.now() - started;
        calls += 1;
        busy += took;
        const key = label(args);
        const entry = statements.get(key) ?? { count: 0, ms: 0 };
        entry.count += 1;
        entry.ms += took;
        statements.set(key, entry);
      }
    };
  };
  const text = (args: unknown[]) => {
    const first = args[0];
    const raw = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '');
    return raw.replace(/\s+/g, ' ').slice(0, 90);
  };
  wrap('query', text);
  wrap('transaction', () => '(transaction)');
  wrap('connect', () => '(pooled client for a transaction)');
  return {
    reset: () => {
      statements.clear();
      calls = 0;
      busy = 0;
    },
    report: (seconds: number, served: number) => {
      console.log(
        `\ndatabase: ${(calls / seconds).toFixed(0)} calls/s, mean ${ms(busy / Math.max(1, calls))} ms per call (waiting for the connection included)`,
      );
      const top = [...statements].sort((a, b) => b[1].count - a[1].count).slice(0, 12);
      for (const [statement, entry] of top)
        console.log(
          `  ${String(entry.count).padStart(7)}× ${ms(entry.ms / entry.count).padStart(6)} ms  ${statement}`,
        );
      const count = (pattern: RegExp) =>
        [...statements].filter(([s]) => pattern.test(s)).reduce((n, [, e]) => n + e.count, 0);
      const writes = count(/^\s*(update|insert|delete)/i);
      console.log(
        `  per request served (${served}): ${(calls / Math.max(1, served)).toFixed(2)} statements, ${(writes / Math.max(1, served)).toFixed(2)} writes`,
      );
      console.log(
        `  writes: ${writes}; of them lastSeenAt of sessions: ${count(/^update "?sessions"?\b.*last_seen_at/)}, live_events: ${count(/^update "?live_events"?/)}`,
      );
    },
  };
};

/** Server-side phases of every request, from Node's and Fastify's diagnostics channels (no app changes). */
const watchRequests = () => {
  const timings = new WeakMap<IncomingMessage, Timing>();
  const done: Done[] = [];
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    timings.set(request, { url: request.url ?? '', arrived: performance.now() });
  };
  const onFinish = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    const timing = timings.get(request);
    if (timing) done.push({ ...timing, finished: performance.now() });
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  diagnostics.subscribe('http.server.response.finish', onFinish);
  const handler = diagnostics.tracingChannel('fastify.request.handler');
  const stamp = (field: 'handlerStart' | 'handlerEnd') => (store: unknown) => {
    const raw = (store as { request: { raw: IncomingMessage } }).request.raw;
    const timing = timings.get(raw);
    if (timing && (field === 'handlerStart' || timing.handlerEnd === undefined))
      timing[field] = performance.now();
  };
  const handlers = {
    start: stamp('handlerStart'),
    end: (store: unknown) => {
      if (!(store as { async: boolean }).async) stamp('handlerEnd')(store);
    },
    asyncStart: stamp('handlerEnd'),
    asyncEnd: () => {},
    error: () => {},
  };
  handler.subscribe(handlers);
  // Session resolution is timed by wrapping the store's method (the onRequest hook awaits it).
  const resolve = SessionStore.prototype.resolve;
  const sessionSamples: number[] = [];
  SessionStore.prototype.resolve = async function (this: SessionStore, ...args: Parameters<typeof resolve>) {
    const started = performance.now();
    try {
      return await resolve.apply(this, args);
    } finally {
      sessionSamples.push(performance.now() - started);
    }
  };
  return {
    reset: () => {
      done.length = 0;
      sessionSamples.length = 0;
    },
    done: () => done,
    sessions: () => sessionSamples,
    stop: () => {
      diagnostics.unsubscribe('http.server.request.start', onStart);
      diagnostics.unsubscribe('http.server.response.finish', onFinish);
      handler.unsubscribe(handlers);
      SessionStore.prototype.resolve = resolve;
    },
  };
};

/** What the list clients waited under the mixed load (autocannon's latencies, ms). */
export type MixedLoadResult = { listsP50: number; listsP99: number; listsPerSecond: number };

/** The mixed load on one driver for `durationSeconds`; prints where the wait goes, answers the lists' wait. */
export const runLoadMixOn = (driver: 'pglite' | 'postgres', durationSeconds = DURATION_S) =>
  withBenchServer(
    driver,
    'load-mix',
    async ({ ctx, start }): Promise<MixedLoadResult> => {
      const people = await seed(ctx);
      const requests = watchRequests();
      const { app } = await start();
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const admin = await signIn(base, 'admin', 'Bench-Passw0rd!');
      const sessions: PollerSession[] = [];
      for (const person of people) {
        const signedIn = await signIn(base, person.username, person.password);
        sessions.push({
          ...signedIn,
          channels: [
            CHANNELS.accounts,
            CHANNELS.account(person.accountId),
            CHANNELS.userNotifications(person.userId),
          ],
        });
      }
      const database = watchDatabase(ctx);
      const loop = monitorEventLoopDelay({ resolution: 5 });

      const input: PollersInput = { base, sessions, pages: POLLERS, pollsPerPage: POLLS_PER_PAGE };
      // Node 20 does not pass tsx's loader on to workers: the worker loads the TypeScript file through tsx's API.
      const pollersUrl = new URL('./load-mix-pollers.ts', import.meta.url).href;
      const pollers = new Worker(
        `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(pollersUrl)}, ${JSON.stringify(import.meta.url)}))`,
        { eval: true, workerData: input },
      );
      const loading = performance.now();
      await new Promise<void>((resolve, reject) => {
        pollers.once('message', () => resolve());
        pollers.once('error', reject);
      });
      const loadSeconds = (performance.now() - loading) / 1000;
      let changes = 0;
      const changer = setInterval(() => {
        changes += 1;
        const channel =
          changes % 2 === 0
            ? CHANNELS.accounts
            : CHANNELS.account((people[changes % people.length] as (typeof people)[number]).accountId);
        ctx.publish(channel, [changes]).catch(() => undefined);
      }, CHANGE_MS);
      // Every page has loaded once; let the first long-polls settle, then measure the steady state.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      requests.reset();
      database.reset();
      pollers.postMessage('measure');
      loop.enable();
      const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const busyBefore = performance.eventLoopUtilization();
      const lists = await autocannon({
        url: base,
        connections: LIST_CONNECTIONS,
        duration: durationSeconds,
        workers: 1,
        timeout: 60,
        headers: { cookie: admin.cookie },
        requests: [
          { method: 'GET', path: '/api/accounts?limit=50' },
          { method: 'GET', path: '/api/users?type=all&limit=20' },
        ],
      });
      loop.disable();
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        fs.writeFileSync(process.env.BENCH_PROFILE as string, JSON.stringify(profile));
        profiler.disconnect();
      }
      const busy = performance.eventLoopUtilization(busyBefore);
      clearInterval(changer);
      const timings = requests.done();
      const sessionTimes = [...requests.sessions()];
      database.report(durationSeconds, timings.length);
      const polled = await new Promise<PollersResult>((resolve) => {
        pollers.once('message', (message) => resolve(message as PollersResult));
        pollers.postMessage('stop');
      });
      await pollers.terminate();
      requests.stop();

      const isList = (t: Timing) => /^\/api\/(accounts|users)\?/.test(t.url);
      const list = timings.filter(isList);
      const events = timings.filter((t) => t.url.startsWith('/api/events/') && !t.url.endsWith('/longpoll'));
      const polls = timings.filter((t) => t.url.endsWith('/longpoll'));
      const phase = (rows: Done[], from: keyof Done, to: keyof Done) =>
        rows
          .map(
            (t) =>
              ((t[to] as number | undefined) ?? Number.NaN) - ((t[from] as number | undefined) ?? Number.NaN),
          )
          .filter((n) => Number.isFinite(n));

      console.log(
        `\n${driver}: ${POLLERS} long-polling pages (${SESSIONS} sessions, a page reloads every ${POLLS_PER_PAGE} polls), ` +
          `${LIST_CONNECTIONS} connections on GET /api/accounts and /api/users, a change every ${CHANGE_MS} ms, ${durationSeconds} s; ${os.cpus().length} CPUs\n`,
      );
      console.log(
        `lists, client (autocannon):                  p50 ${lists.latency.p50} ms   p99 ${lists.latency.p99} ms   max ${lists.latency.max} ms   ${lists.requests.average.toFixed(0)} req/s, ${lists.non2xx + lists.errors} failed`,
      );
      console.log(line('lists, server: arrival → handler', phase(list, 'arrived', 'handlerStart')));
      console.log(line('  of which session resolution (all requests)', sessionTimes));
      console.log(line('lists, server: handler', phase(list, 'handlerStart', 'handlerEnd')));
      console.log(line('lists, server: handler → sent', phase(list, 'handlerEnd', 'finished')));
      console.log(line('lists, server: arrival → sent', phase(list, 'arrived', 'finished')));
      console.log(line('events create/subscribe/delete, client', polled.calls));
      console.log(line('events create/subscribe/delete, server total', phase(events, 'arrived', 'finished')));
      console.log(line('long-polls: arrival → handler', phase(polls, 'arrived', 'handlerStart')));
      console.log(line('change → page (delivery)', polled.delivery));
      console.log(
        `event loop delay:                            p50 ${ms(loop.percentile(50) / 1e6)} ms   p99 ${ms(loop.percentile(99) / 1e6)} ms   max ${ms(loop.max / 1e6)} ms`,
      );
      console.log(
        `event loop busy:                             ${(busy.utilization * 100).toFixed(0)}% of the time`,
      );
      const serverP50 = summary(phase(list, 'arrived', 'finished')).p50;
      console.log(
        `\ngap (lists): client p50 ${lists.latency.p50} ms − server p50 ${ms(serverP50)} ms = ${ms(lists.latency.p50 - serverP50)} ms before Fastify saw the request (socket and event loop)`,
      );
      console.log(
        `pages: all ${POLLERS} loaded once in ${loadSeconds.toFixed(1)} s; then ${polled.pageLoads} loads, ${polled.longPolls} long-polls answered, ${changes} changes, ${polled.errors.length} errors${polled.errors[0] ? `: ${polled.errors[0]}` : ''}`,
      );
      if (lists.non2xx + lists.errors > 0) throw new BenchmarkFailure('list requests failed');
      if (polled.errors.length > 0) throw new BenchmarkFailure(`pages failed: ${polled.errors[0]}`);
      return {
        listsP50: lists.latency.p50,
        listsP99: lists.latency.p99,
        listsPerSecond: lists.requests.average,
      };
    },
    { log: 'as-run' },
  );

export const runLoadMixBenchmark = async () => {
  const drivers: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  if (!process.env.DATABASE_URL) console.log('DATABASE_URL is not set: PostgreSQL is skipped');
  for (const driver of drivers) await runLoadMixOn(driver);
};

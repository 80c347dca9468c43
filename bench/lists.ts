import { like, min, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accounts } from '../apps/server/src/modules/organisation/tables.ts';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { BenchmarkFailure } from './failure.ts';
import { quantile, withBenchServer } from './server-bench.ts';

const ACCOUNTS = 10_000;
const USERS = 50_000;
const SITES = 50;
/** The account whose userAccess page is measured holds this many users. */
const BIG_ACCOUNT_USERS = 2_000;
/** Issue 6: each list page's median server time stays under this. */
const BUDGET_MS = 20;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);

/** The large data set in a few set-based statements (no per-row round trips). */
export const seedLargeLists = async (ctx: AppContext) => {
  const { db } = ctx;
  await db.execute(sql`insert into resellers (name) values ('Bench reseller')`);
  await db.execute(
    sql`insert into site_groups (name, reseller_id) select 'Bench group', id from resellers where name = 'Bench reseller'`,
  );
  await db.execute(sql`insert into sites (name, site_group_id)
    select 'Bench site ' || n, (select id from site_groups where name = 'Bench group') from generate_series(1, ${SITES}) n`);
  await db.execute(sql`insert into accounts (name, site_id, production_name)
    select 'bench-account-' || n, (select min(id) from sites) + (n % ${SITES}), 'Production ' || md5(n::text)
    from generate_series(1, ${ACCOUNTS}) n`);
  await db.execute(sql`insert into users (username, fullname, email, company)
    select 'bench.user' || n, 'Bench ' || initcap(substr(md5(n::text), 1, 6)) || ' Person', 'bench' || n || '@example.com', 'Bench'
    from generate_series(1, ${USERS}) n`);
  // Every bench user in one account; the first BIG_ACCOUNT_USERS all in the first account.
  await db.execute(sql`insert into account_access (account_id, user_id, role_id)
    select case when u.rn <= ${BIG_ACCOUNT_USERS} then (select min(id) from accounts where name like 'bench-account-%')
                else (select min(id) from accounts where name like 'bench-account-%') + (u.rn % ${ACCOUNTS}) end,
           u.id, (select id from roles where name = 'Editor')
    from (select id, row_number() over (order by id) rn from users where username like 'bench.user%') u`);
  await db.execute(sql`analyze`);
};

/** Server time of each call through Fastify's inject: routing, rights, queries and serialisation. */
const measure = async (app: FastifyInstance, cookie: string, urlOf: (i: number) => string) => {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const url = urlOf(i);
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url, headers: { cookie } });
    times.push(performance.now() - started);
    if (response.statusCode !== 200)
      throw new BenchmarkFailure(`${url} answered ${response.statusCode}: ${response.body}`);
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p99: quantile(times, 0.99) };
};

const runOn = (driver: 'pglite' | 'postgres') =>
  withBenchServer(driver, 'lists', async ({ ctx, start }) => {
    const seeding = performance.now();
    await seedLargeLists(ctx);
    console.log(
      `${driver}: seeded ${ACCOUNTS} accounts, ${USERS} users in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const { app, cookie } = await start();
    const [big] = await ctx.db
      .select({ id: min(accounts.id) })
      .from(accounts)
      .where(like(accounts.name, 'bench-account-%'));
    // What people type into the add-user search: parts of names, user names and addresses.
    const words = ['bench a', 'person', 'user12', 'e5f', 'bench1', 'example', 'user4', 'c3'];
    const cases = [
      { label: 'GET /api/roles (overhead of any call: session, rights, envelope)', url: () => '/api/roles' },
      {
        label: 'GET /api/accounts (page of 100, sorted by name)',
        url: (i: number) => `/api/accounts?limit=100&offset=${(i * 137) % 9_900}&sort=name`,
      },
      {
        label: 'GET /api/accounts?searchText (substring)',
        url: (i: number) =>
          `/api/accounts?limit=20&searchText=${encodeURIComponent(`account-${(i * 31) % 1000}`)}`,
      },
      {
        label: 'GET /api/users?searchText&type=all (user search)',
        url: (i: number) =>
          `/api/users?type=all&searchText=${encodeURIComponent(words[i % words.length] as string)}`,
      },
      {
        label: `GET /api/accounts/{id}/userAccess (page of 100 of ${BIG_ACCOUNT_USERS})`,
        url: (i: number) =>
          `/api/accounts/${big?.id}/userAccess?limit=100&offset=${(i * 100) % BIG_ACCOUNT_USERS}`,
      },
    ];
    const rows: string[][] = [];
    let failed = false;
    for (const c of cases) {
      await measure(app, cookie, c.url); // warm-up
      const { median, p99 } = await measure(app, cookie, c.url);
      const pass = median < BUDGET_MS;
      failed ||= !pass;
      rows.push([
        c.label,
        median.toFixed(2),
        p99.toFixed(2),
        `${((median / BUDGET_MS) * 100).toFixed(0)}%`,
        pass ? 'PASS' : 'OVER',
      ]);
    }
    const header = ['list', 'median ms', 'p99 ms', 'of 20 ms', 'budget'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
    console.log(`\n${driver}, ${SAMPLES} calls each after a warm-up, server time through inject:`);
    console.log(line(header));
    for (const row of rows) console.log(line(row));
    return failed;
  });

/** Issue 6: account list, user search and userAccess pages on 10k accounts and 50k users. */
export const runListsBenchmark = async () => {
  const drivers: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  if (!process.env.DATABASE_URL) console.log('DATABASE_URL is not set: PostgreSQL is skipped');
  let failed = false;
  for (const driver of drivers) failed = (await runOn(driver)) || failed;
  if (failed) throw new BenchmarkFailure(`a list's median server time is over ${BUDGET_MS} ms`);
};

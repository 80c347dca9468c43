import { sql } from 'drizzle-orm';
import type { TestApp } from './harness.ts';

/**
 * Bookkeeping that requests write by design, left out of the fingerprint: `sessions` (each request
 * refreshes its session's last use), `login_failures` (an anonymous sign-in with a wrong password is
 * counted toward the lock-out), the live-update tables `live_events`, `live_subscriptions`,
 * `live_changes` (event ids and their cursors belong to the connection, not to the data), and `audit_log`
 * (every write, refused or not, is a row there; audit-route-walk.test.ts holds each to exactly one).
 */
export const BOOKKEEPING_TABLES = new Set([
  'sessions',
  'login_failures',
  'live_events',
  'live_subscriptions',
  'live_changes',
  'audit_log',
]);

/**
 * Every table's row count and a hash of its rows, but those in `skip` (bookkeeping that requests write by
 * design): a failed request must leave every other one as it was (fuzz.test.ts, audit-route-walk.test.ts).
 */
export const fingerprint = async (t: TestApp, skip: ReadonlySet<string>) => {
  const tables = (
    (await t.ctx.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )) as unknown as { rows: { name: string }[] }
  ).rows
    .map((r) => r.name)
    .filter((name) => !skip.has(name) && !name.startsWith('__drizzle'));
  const union = tables
    .map(
      (name) =>
        `select '${name}' as name, count(*)::int as n, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as h from "${name}" t`,
    )
    .join(' union all ');
  const rows = (
    (await t.ctx.db.execute(sql.raw(union))) as unknown as { rows: { name: string; n: number; h: string }[] }
  ).rows;
  return new Map(rows.map((r) => [r.name, `${r.n}:${r.h}`]));
};

export const changedTables = (before: Map<string, string>, after: Map<string, string>) =>
  [...after].filter(([name, print]) => before.get(name) !== print).map(([name]) => name);

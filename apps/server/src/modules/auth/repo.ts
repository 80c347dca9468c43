import { and, asc, desc, eq, gt, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/tables.ts';
import { loginFailures } from './tables.ts';

export type FailureKind = 'user' | 'ip';

export const findUserForLogin = async (db: DbOrTx, login: string) => {
  const name = login.trim().toLowerCase();
  // Users without an email have email '': a blank name must not find them.
  if (name === '') return undefined;
  const found = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      disabled: users.disabled,
      mfaSecret: users.mfaSecret,
    })
    .from(users)
    .where(
      or(
        eq(sql`lower(${users.username})`, name),
        and(ne(users.email, ''), eq(sql`lower(${users.email})`, name)),
      ),
    )
    .limit(2);
  // An identifier of two users (one's user name, another's email: made before they were kept apart)
  // names nobody: a sign-in or a password reset by it must reach neither.
  return found.length === 1 ? found[0] : undefined;
};

export const findActiveLocks = async (db: DbOrTx, keys: { kind: FailureKind; key: string }[], now: Date) => {
  if (keys.length === 0) return [];
  return db
    .select()
    .from(loginFailures)
    .where(
      and(
        or(...keys.map((k) => and(eq(loginFailures.kind, k.kind), eq(loginFailures.key, k.key)))),
        gt(loginFailures.lockedUntil, now),
      ),
    );
};

/** Counts one failure in the window, restarting the count when the window has passed; returns the new count. */
export const recordFailure = async (db: DbOrTx, kind: FailureKind, key: string, windowStart: Date) => {
  const [row] = await db
    .insert(loginFailures)
    .values({ kind, key, failures: 1 })
    .onConflictDoUpdate({
      target: [loginFailures.kind, loginFailures.key],
      set: {
        failures: sql`case when ${loginFailures.firstFailureAt} < ${windowStart} then 1 else ${loginFailures.failures} + 1 end`,
        firstFailureAt: sql`case when ${loginFailures.firstFailureAt} < ${windowStart} then now() else ${loginFailures.firstFailureAt} end`,
      },
    })
    .returning({ failures: loginFailures.failures });
  return row?.failures ?? 1;
};

/** Takes one counted attempt back (it did not fail). */
export const takeBackFailure = async (db: DbOrTx, kind: FailureKind, key: string) => {
  await db
    .update(loginFailures)
    .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)));
};

export const lock = async (db: DbOrTx, kind: FailureKind, key: string, until: Date) => {
  await db
    .update(loginFailures)
    .set({ lockedUntil: until })
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)));
};

export const clearFailures = async (db: DbOrTx, kind: FailureKind, key: string) => {
  const removed = await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.kind, kind), eq(loginFailures.key, key)))
    .returning({ key: loginFailures.key });
  return removed.length;
};

/**
 * Removes the locks still in force (with their failure counts) of this key, and, given `keyPrefix`, of
 * every key that starts with it; answers the keys removed.
 */
export const clearActiveLocks = async (
  db: DbOrTx,
  kind: FailureKind,
  key: string,
  now: Date,
  keyPrefix?: string,
) => {
  const keyMatches = keyPrefix
    ? or(eq(loginFailures.key, key), eq(sql`left(${loginFailures.key}, ${keyPrefix.length})`, keyPrefix))
    : eq(loginFailures.key, key);
  const removed = await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.kind, kind), keyMatches, gt(loginFailures.lockedUntil, now)))
    .returning({ key: loginFailures.key });
  return removed.map((row) => row.key);
};

const LOCK_SORT_COLUMNS = {
  kind: loginFailures.kind,
  key: loginFailures.key,
  failures: loginFailures.failures,
  lockedUntil: loginFailures.lockedUntil,
} as const;

export const findLocksPage = async (
  db: DbOrTx,
  page: {
    now: Date;
    offset: number;
    limit: number;
    sort: keyof typeof LOCK_SORT_COLUMNS;
    descending: boolean;
  },
) => {
  const { now, offset, limit } = page;
  const where = and(isNotNull(loginFailures.lockedUntil), gt(loginFailures.lockedUntil, now));
  const column = LOCK_SORT_COLUMNS[page.sort];
  const rows = await db
    .select()
    .from(loginFailures)
    .where(where)
    .orderBy(page.descending ? desc(column) : asc(column), asc(loginFailures.key))
    .offset(offset)
    .limit(limit);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(loginFailures).where(where);
  return { rows, total: count?.total ?? 0 };
};

/**
 * Forgets at most `limit` failures whose window has passed and that hold no lock still in force; answers
 * how many. Bounded, so one call never holds the table for long however many rows piled up.
 */
export const pruneStaleFailures = async (db: DbOrTx, windowStart: Date, now: Date, limit: number) => {
  const stale = db
    .select({ kind: loginFailures.kind, key: loginFailures.key })
    .from(loginFailures)
    .where(
      and(
        lt(loginFailures.firstFailureAt, windowStart),
        or(isNull(loginFailures.lockedUntil), lte(loginFailures.lockedUntil, now)),
      ),
    )
    .limit(limit);
  const removed = await db
    .delete(loginFailures)
    .where(sql`(${loginFailures.kind}, ${loginFailures.key}) in (${stale})`)
    .returning({ key: loginFailures.key });
  return removed.length;
};

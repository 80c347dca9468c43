import { TOTAL_COUNT_CAP } from '@media/contract';
import { count, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

/**
 * The total of a paged list without counting when the page itself tells it: a page shorter than its
 * limit is the last one, so the total is its offset plus its rows (unless it is empty past the start,
 * where the rows may have moved). Only a full page, or an empty one after offset 0, needs `count()`.
 */
export const pageTotal = async (
  page: { rows: number; offset: number; limit: number },
  count: () => Promise<number>,
) => (page.rows < page.limit && (page.rows > 0 || page.offset === 0) ? page.offset + page.rows : count());

export type CappedCount = { total: number; totalCapped: boolean };

/**
 * How many rows of `table` match `where`, exact up to `cap`; beyond it `cap` with `totalCapped`. It counts
 * a subquery limited to cap + 1 rows, so a filter matching most of a large table stops reading after cap + 1
 * rows instead of counting them all. An `order` that an index gives lets the planner walk that index and
 * stop early when matches are many (a bitmap of every match is read to the end).
 */
export const countUpTo = async (
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  options: { cap?: number; order?: SQL[] } = {},
): Promise<CappedCount> => {
  const cap = options.cap ?? TOTAL_COUNT_CAP;
  const matches = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .orderBy(...(options.order ?? []))
    .limit(cap + 1)
    .as('matches');
  const [row] = await db.select({ n: count() }).from(matches);
  const counted = row?.n ?? 0;
  return counted > cap ? { total: cap, totalCapped: true } : { total: counted, totalCapped: false };
};

/** A capped count is a lower bound: never less than the rows the pages so far have shown. */
export const atLeastShown = (counted: CappedCount, shown: number): CappedCount =>
  counted.totalCapped && shown > counted.total ? { total: shown, totalCapped: true } : counted;

/**
 * The total of a page of a capped list: a short page is the last one and tells it exactly (even past the
 * cap, as `pageTotal` does); otherwise `countUpTo`, raised to the rows shown so far when capped.
 */
export const cappedPageTotal = async (
  page: { rows: number; offset: number; limit: number },
  counted: () => Promise<CappedCount>,
): Promise<CappedCount> =>
  page.rows < page.limit && (page.rows > 0 || page.offset === 0)
    ? { total: page.offset + page.rows, totalCapped: false }
    : atLeastShown(await counted(), page.offset + page.rows);

import { and, asc, count, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { cappedPageTotal, countUpTo, pageTotal } from '../../platform/db/paging.ts';
import { searchTextContains } from '../../platform/db/search.ts';
import { accountAccess } from '../access/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { users } from './tables.ts';

export const userColumns = {
  id: users.id,
  username: users.username,
  fullname: users.fullname,
  email: users.email,
  company: users.company,
  emailverified: users.emailverified,
  disabled: users.disabled,
};

/** Users of these sites: created by a site's import, or with access to one of its accounts. */
export const ofSites = (db: DbOrTx, siteIds: number[]) =>
  or(
    inArray(users.homeSiteId, [...siteIds, -1]),
    inArray(
      users.id,
      db
        .select({ id: accountAccess.userId })
        .from(accountAccess)
        .innerJoin(accounts, eq(accounts.id, accountAccess.accountId))
        .where(inArray(accounts.siteId, [...siteIds, -1])),
    ),
  );

export const ofAccount = (db: DbOrTx, accountId: number) =>
  inArray(
    users.id,
    db.select({ id: accountAccess.userId }).from(accountAccess).where(eq(accountAccess.accountId, accountId)),
  );

export const findUsersPage = async (
  db: DbOrTx,
  options: { filter: SQL | undefined; searchText?: string; offset: number; limit: number },
) => {
  const where = and(options.filter, searchTextContains(users.searchText, options.searchText));
  const rows = await db
    .select(userColumns)
    .from(users)
    .where(where)
    .orderBy(asc(sql`lower(${users.username})`))
    .offset(options.offset)
    .limit(options.limit);
  const page = { rows: rows.length, offset: options.offset, limit: options.limit };
  // A search's matches are counted up to TOTAL_COUNT_CAP (a short text matches most users); the
  // lists of a site or an account are paged and counted exactly.
  if (options.searchText)
    return {
      rows,
      ...(await cappedPageTotal(page, () => countUpTo(db, users, where))),
    };
  const total = await pageTotal(page, async () => {
    const [all] = await db.select({ n: count() }).from(users).where(where);
    return all?.n ?? 0;
  });
  return { rows, total, totalCapped: false };
};

export const findUser = async (db: DbOrTx, id: number) => {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
  return row;
};

/** How a user name or email is compared with others: trimmed, in lower case. */
export const identifierKey = (identifier: string) => identifier.trim().toLowerCase();

/**
 * Which of these identifiers (compared in lower case) already name a user other than `exceptId`, as
 * their user name or their email: sign-in and password reset take either, so a user name must be no
 * other user's email and an email no other user's user name.
 */
export const findTakenIdentifiers = async (db: DbOrTx, identifiers: string[], exceptId?: number) => {
  const wanted = [...new Set(identifiers.map(identifierKey))].filter(Boolean);
  if (wanted.length === 0) return new Set<string>();
  const rows = await db
    .select({ username: sql<string>`lower(${users.username})`, email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(
      and(
        or(
          inArray(sql`lower(${users.username})`, wanted),
          and(ne(users.email, ''), inArray(sql`lower(${users.email})`, wanted)),
        ),
        exceptId === undefined ? undefined : ne(users.id, exceptId),
      ),
    );
  const held = new Set(rows.flatMap((row) => [row.username, row.email]));
  return new Set(wanted.filter((identifier) => held.has(identifier)));
};

/**
 * Serialises the writes that give users user names or emails until the transaction ends, so that two at
 * once cannot both pass the check above (the unique indexes catch only a name against a name).
 */
export const lockIdentifiers = async (tx: DbOrTx) => {
  await tx.execute(sql`select pg_advisory_xact_lock(727004)`);
};

export const updateUser = (db: DbOrTx, id: number, values: Partial<typeof users.$inferInsert>) =>
  db.update(users).set(values).where(eq(users.id, id));

export const insertUsers = (db: DbOrTx, rows: (typeof users.$inferInsert)[]) =>
  db
    .insert(users)
    .values(rows)
    .returning({ id: users.id, email: users.email, fullname: users.fullname, username: users.username });

import { and, asc, count, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
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

export const findIdsByLowerUsername = async (db: DbOrTx, names: string[]) =>
  new Set(
    (
      await db
        .select({ name: sql<string>`lower(${users.username})` })
        .from(users)
        .where(inArray(sql`lower(${users.username})`, [...names.map((n) => n.toLowerCase()), '']))
    ).map((r) => r.name),
  );

export const findExistingEmails = async (db: DbOrTx, emails: string[]) =>
  new Set(
    (
      await db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(users)
        .where(inArray(sql`lower(${users.email})`, [...emails.map((e) => e.toLowerCase()), '']))
    ).map((r) => r.email),
  );

export const usernameTaken = async (db: DbOrTx, username: string, exceptId: number) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.username})`, username.toLowerCase()), sql`${users.id} <> ${exceptId}`))
  ).length > 0;

export const emailTaken = async (db: DbOrTx, email: string, exceptId: number) =>
  (
    await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), sql`${users.id} <> ${exceptId}`))
  ).length > 0;

export const updateUser = (db: DbOrTx, id: number, values: Partial<typeof users.$inferInsert>) =>
  db.update(users).set(values).where(eq(users.id, id));

export const insertUsers = (db: DbOrTx, rows: (typeof users.$inferInsert)[]) =>
  db
    .insert(users)
    .values(rows)
    .returning({ id: users.id, email: users.email, fullname: users.fullname, username: users.username });

import type { AccountsQuery } from '@media/contract';
import { and, asc, count, desc, eq, gt, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pageTotal } from '../../platform/db/paging.ts';
import { searchTextContains } from '../../platform/db/search.ts';
import { sessions } from '../auth/tables.ts';
import {
  accountNameReservations,
  accounts,
  resellers,
  siteGroups,
  sites,
  workflows,
} from '../organisation/tables.ts';

/** Which accounts an actor may list: all, or their own accounts plus those of the sites they manage. */
export type AccountScope = 'all' | { accounts: number[]; sites: number[] };

const inScope = (scope: AccountScope): SQL | undefined =>
  scope === 'all'
    ? undefined
    : or(inArray(accounts.id, [...scope.accounts, -1]), inArray(accounts.siteId, [...scope.sites, -1]));

const SORT_COLUMNS = {
  name: sql`lower(${accounts.name})`,
  siteName: sql`lower(${sites.name})`,
  productionName: sql`lower(${accounts.productionName})`,
  createdAt: sql`${accounts.createdAt}`,
} as const;

/**
 * One page in two cheap steps: the page's ids from the accounts table alone (its indexes serve the
 * order and offset), then those rows with their site names.
 */
export const findAccountsPage = async (db: DbOrTx, query: AccountsQuery, scope: AccountScope) => {
  const where = and(
    inScope(scope),
    searchTextContains(accounts.searchText, query.searchText),
    query.siteId ? eq(accounts.siteId, query.siteId) : undefined,
    query.includeDisabled === '1' ? undefined : eq(accounts.disabled, false),
  );
  const sortColumn = SORT_COLUMNS[query.sort];
  // Names are unique case-insensitively, so sorting by name needs no tie-break and its index serves it.
  const order = [
    query.desc === '1' ? desc(sortColumn) : asc(sortColumn),
    ...(query.sort === 'name' ? [] : [asc(accounts.id)]),
  ];
  // A search sorts all its matches anyway, so counting them in the same pass costs nothing more; a plain
  // list walks its index to the page and must not count the whole table that way.
  const idsQuery = db
    .select({
      id: accounts.id,
      matches: query.searchText ? sql<number>`(count(*) over ())::int` : sql<null>`null`,
    })
    .from(accounts);
  const page = await (query.sort === 'siteName'
    ? idsQuery.innerJoin(sites, eq(sites.id, accounts.siteId))
    : idsQuery
  )
    .where(where)
    .orderBy(...order)
    .offset(query.offset)
    .limit(query.limit);
  const pageIds = page.map((row) => row.id);
  const details = pageIds.length
    ? await db
        .select({
          id: accounts.id,
          name: accounts.name,
          siteId: accounts.siteId,
          siteName: sites.name,
          productionName: accounts.productionName,
          disabled: accounts.disabled,
          createdAt: accounts.createdAt,
        })
        .from(accounts)
        .innerJoin(sites, eq(sites.id, accounts.siteId))
        .where(inArray(accounts.id, pageIds))
    : [];
  const byId = new Map(details.map((row) => [row.id, row]));
  const rows = pageIds.map((id) => byId.get(id)).filter((row) => row !== undefined);
  const total = await pageTotal(
    { rows: pageIds.length, offset: query.offset, limit: query.limit },
    async () => {
      const [all] = await db.select({ n: count() }).from(accounts).where(where);
      return all?.n ?? 0;
    },
  );
  return { rows, total };
};

export type AccountRow = Awaited<ReturnType<typeof findAccountRow>>;

export const findAccountRow = async (db: DbOrTx, where: SQL) => {
  const [row] = await db
    .select({
      account: accounts,
      siteName: sites.name,
      siteGroupId: sites.siteGroupId,
      resellerId: siteGroups.resellerId,
      billingGroupName: resellers.name,
    })
    .from(accounts)
    .innerJoin(sites, eq(sites.id, accounts.siteId))
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .leftJoin(resellers, eq(resellers.id, accounts.billingGroupId))
    .where(where);
  return row;
};

export const byId = (id: number) => eq(accounts.id, id);
export const byName = (name: string) => eq(sql`lower(${accounts.name})`, name.toLowerCase());

export const updateAccount = (db: DbOrTx, id: number, values: Partial<typeof accounts.$inferInsert>) =>
  db.update(accounts).set(values).where(eq(accounts.id, id));

export const insertAccount = async (db: DbOrTx, values: typeof accounts.$inferInsert) => {
  const [row] = await db.insert(accounts).values(values).returning({ id: accounts.id });
  return row?.id as number;
};

export const accountNameExists = async (db: DbOrTx, name: string) =>
  (await db.select({ id: accounts.id }).from(accounts).where(byName(name))).length > 0;

/** A live reservation of the name (younger than a day), if any. */
export const findReservation = async (db: DbOrTx, name: string) => {
  const [row] = await db
    .select()
    .from(accountNameReservations)
    .where(
      and(
        eq(accountNameReservations.nameLower, name.toLowerCase()),
        gt(accountNameReservations.createdAt, sql`now() - interval '1 day'`),
      ),
    );
  return row;
};

export const reserveName = (db: DbOrTx, values: { name: string; cloneFrom: number; userId: number }) =>
  db
    .insert(accountNameReservations)
    .values({ ...values, nameLower: values.name.toLowerCase() })
    .onConflictDoUpdate({
      target: accountNameReservations.nameLower,
      set: { name: values.name, cloneFrom: values.cloneFrom, userId: values.userId, createdAt: sql`now()` },
    });

export const releaseName = (db: DbOrTx, name: string) =>
  db.delete(accountNameReservations).where(eq(accountNameReservations.nameLower, name.toLowerCase()));

export const findWorkflows = (db: DbOrTx, accountId: number) =>
  db
    .select({ id: workflows.id, name: workflows.name })
    .from(workflows)
    .where(eq(workflows.accountId, accountId))
    .orderBy(asc(sql`lower(${workflows.name})`));

export const copyWorkflows = async (db: DbOrTx, fromAccountId: number, toAccountId: number) => {
  const rows = await db
    .select({ name: workflows.name, definition: workflows.definition })
    .from(workflows)
    .where(eq(workflows.accountId, fromAccountId));
  if (rows.length) await db.insert(workflows).values(rows.map((row) => ({ ...row, accountId: toAccountId })));
};

/** The distinct editor.maxVideo values of the accounts (few: accounts share a handful of sizes). */
export const maxVideoValues = async (db: DbOrTx, accountIds: number[] | 'all') =>
  (
    await db
      .selectDistinct({ maxVideo: accounts.maxVideo })
      .from(accounts)
      .where(accountIds === 'all' ? undefined : inArray(accounts.id, [...accountIds, -1]))
  ).map((row) => row.maxVideo);

/** Distinct users with a live session inside the account, other than `exceptUserId`. */
export const countUsersInside = async (
  db: DbOrTx,
  accountId: number,
  exceptUserId: number,
  idleSince: Date,
) => {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${sessions.userId})::int` })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, idleSince),
        ne(sessions.userId, exceptUserId),
      ),
    );
  return row?.n ?? 0;
};

export const enterAccount = (db: DbOrTx, idHash: string, accountId: number, actingRoleId: number | null) =>
  db.update(sessions).set({ accountId, actingRoleId }).where(eq(sessions.idHash, idHash));

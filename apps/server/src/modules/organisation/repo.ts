import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { lowerContains } from '../../platform/db/search.ts';
import { accounts, resellers, siteGroups, sites } from './tables.ts';

type Page = { offset: number; limit: number; searchText?: string; includeDisabled: '0' | '1' };

const nameContains = (column: AnyPgColumn, text?: string) => lowerContains(sql`${column}`, text);

const visible = (disabled: AnyPgColumn, includeDisabled: '0' | '1') =>
  includeDisabled === '1' ? undefined : eq(disabled, false);

/** Ids an actor may list, or 'all'. */
type Scope = number[] | 'all';
const within = (column: AnyPgColumn, scope: Scope) =>
  scope === 'all' ? undefined : inArray(column, [...scope, -1]);

export const findResellers = async (db: DbOrTx, page: Page, scope: Scope) => {
  const where = and(
    nameContains(resellers.name, page.searchText),
    visible(resellers.disabled, page.includeDisabled),
    within(resellers.id, scope),
  );
  const rows = await db
    .select({
      id: resellers.id,
      name: resellers.name,
      disabled: resellers.disabled,
      // Spelled out: without a join drizzle leaves columns unqualified, and `id` would be the site group's.
      siteGroupCount: sql<number>`(select count(*)::int from site_groups sg where sg.reseller_id = "resellers"."id")`,
    })
    .from(resellers)
    .where(where)
    .orderBy(asc(sql`lower(${resellers.name})`))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(resellers).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findSiteGroups = async (db: DbOrTx, page: Page & { resellerId?: number }, scope: Scope) => {
  const where = and(
    nameContains(siteGroups.name, page.searchText),
    visible(siteGroups.disabled, page.includeDisabled),
    page.resellerId ? eq(siteGroups.resellerId, page.resellerId) : undefined,
    within(siteGroups.id, scope),
  );
  const rows = await db
    .select({
      id: siteGroups.id,
      name: siteGroups.name,
      resellerId: siteGroups.resellerId,
      resellerName: resellers.name,
      disabled: siteGroups.disabled,
      siteCount: sql<number>`(select count(*)::int from ${sites} where ${sites.siteGroupId} = ${siteGroups.id})`,
    })
    .from(siteGroups)
    .innerJoin(resellers, eq(resellers.id, siteGroups.resellerId))
    .where(where)
    .orderBy(asc(sql`lower(${siteGroups.name})`))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(siteGroups).where(where);
  return { rows, total: total?.n ?? 0 };
};

const siteColumns = {
  id: sites.id,
  name: sites.name,
  siteGroupId: sites.siteGroupId,
  siteGroupName: siteGroups.name,
  resellerId: siteGroups.resellerId,
  resellerName: resellers.name,
  disabled: sites.disabled,
  accountCount: sql<number>`(select count(*)::int from ${accounts} where ${accounts.siteId} = ${sites.id})`,
};

const siteQuery = (db: DbOrTx) =>
  db
    .select(siteColumns)
    .from(sites)
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .innerJoin(resellers, eq(resellers.id, siteGroups.resellerId));

export const findSites = async (db: DbOrTx, page: Page & { siteGroupId?: number }, scope: Scope) => {
  const where = and(
    nameContains(sites.name, page.searchText),
    visible(sites.disabled, page.includeDisabled),
    page.siteGroupId ? eq(sites.siteGroupId, page.siteGroupId) : undefined,
    within(sites.id, scope),
  );
  const rows = await siteQuery(db)
    .where(where)
    .orderBy(asc(sql`lower(${sites.name})`))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(sites).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findSite = async (db: DbOrTx, id: number) => {
  const [row] = await siteQuery(db).where(eq(sites.id, id));
  return row;
};

export const findReseller = async (db: DbOrTx, id: number) => {
  const [row] = (await findResellers(db, { offset: 0, limit: 1, includeDisabled: '1' }, [id])).rows;
  return row;
};

export const findSiteGroup = async (db: DbOrTx, id: number) => {
  const [row] = (await findSiteGroups(db, { offset: 0, limit: 1, includeDisabled: '1' }, [id])).rows;
  return row;
};

export const nameTaken = async (
  db: DbOrTx,
  table: typeof resellers | typeof siteGroups | typeof sites,
  name: string,
  exceptId?: number,
) => {
  const conditions: SQL[] = [sql`lower(${table.name}) = ${name.toLowerCase()}`];
  if (exceptId) conditions.push(sql`${table.id} <> ${exceptId}`);
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(...conditions));
  return row !== undefined;
};

export const insertReseller = async (db: DbOrTx, values: { name: string }) => {
  const [row] = await db.insert(resellers).values(values).returning({ id: resellers.id });
  return row?.id as number;
};
export const updateReseller = (db: DbOrTx, id: number, values: { name?: string; disabled?: boolean }) =>
  db.update(resellers).set(values).where(eq(resellers.id, id));

export const insertSiteGroup = async (db: DbOrTx, values: { name: string; resellerId: number }) => {
  const [row] = await db.insert(siteGroups).values(values).returning({ id: siteGroups.id });
  return row?.id as number;
};
export const updateSiteGroup = (
  db: DbOrTx,
  id: number,
  values: { name?: string; resellerId?: number; disabled?: boolean },
) => db.update(siteGroups).set(values).where(eq(siteGroups.id, id));

export const insertSite = async (db: DbOrTx, values: { name: string; siteGroupId: number }) => {
  const [row] = await db.insert(sites).values(values).returning({ id: sites.id });
  return row?.id as number;
};
export const updateSite = (
  db: DbOrTx,
  id: number,
  values: { name?: string; siteGroupId?: number; disabled?: boolean },
) => db.update(sites).set(values).where(eq(sites.id, id));

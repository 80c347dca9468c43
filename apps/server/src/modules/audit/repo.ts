import type { AuditField, AuditTargetType } from '@media/contract';
import { and, desc, eq, gte, inArray, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { countUpTo } from '../../platform/db/paging.ts';
import type { AuditRow } from '../../platform/http/audit.ts';
import { accounts } from '../organisation/tables.ts';
import { auditLog } from './tables.ts';

/** Text the database takes: no NUL (a junk path or body may carry one), at most `max` characters. */
const clean = (text: string | null, max = 1000) =>
  text === null ? null : text.replaceAll('\u0000', '').slice(0, max);

const cleanFields = (fields: AuditField[]) =>
  fields.map((field) => ({ ...field, name: clean(field.name, 200) as string, value: clean(field.value) }));

/** One row, in its own statement (its own transaction). */
export const insertRow = async (db: DbOrTx, row: Omit<AuditRow, 'actingRoleName'>) => {
  await db.insert(auditLog).values({
    ...row,
    actorName: clean(row.actorName, 200),
    actingRole: clean(row.actingRole, 200),
    operation: clean(row.operation, 200) as string,
    targetId: clean(row.targetId, 100),
    fields: cleanFields(row.fields),
    ip: clean(row.ip, 100),
    requestId: clean(row.requestId, 100),
  });
};

/** Where the reader may look: everything (administrators), or the places they manage. */
export type AuditReach =
  | 'all'
  | { resellers: number[]; siteGroups: number[]; sites: number[]; accounts: number[] };

const reachOf = (reach: AuditReach) => {
  if (reach === 'all') return undefined;
  const parts = [
    reach.resellers.length ? inArray(auditLog.resellerId, reach.resellers) : undefined,
    reach.siteGroups.length ? inArray(auditLog.siteGroupId, reach.siteGroups) : undefined,
    reach.sites.length ? inArray(auditLog.siteId, reach.sites) : undefined,
    reach.accounts.length ? inArray(auditLog.accountId, reach.accounts) : undefined,
  ].filter((part) => part !== undefined);
  return parts.length ? or(...parts) : sql`false`;
};

export type AuditMatch = {
  reach: AuditReach;
  actor?: string;
  operation?: string;
  targetType?: AuditTargetType;
  targetId?: string;
  accountId?: number;
  from?: Date;
  to?: Date;
};

export const matching = (match: AuditMatch): SQL | undefined =>
  and(
    reachOf(match.reach),
    match.actor === undefined ? undefined : eq(auditLog.actorName, match.actor),
    match.operation === undefined ? undefined : eq(auditLog.operation, match.operation),
    match.targetType === undefined ? undefined : eq(auditLog.targetType, match.targetType),
    match.targetId === undefined ? undefined : eq(auditLog.targetId, match.targetId),
    match.accountId === undefined ? undefined : eq(auditLog.accountId, match.accountId),
    match.from === undefined ? undefined : gte(auditLog.at, match.from),
    match.to === undefined ? undefined : lt(auditLog.at, match.to),
  );

/** The rows other people (and the system, agents) wrote about a user. */
export const aboutUser = (userId: number) =>
  and(
    eq(auditLog.userId, userId),
    or(ne(auditLog.actorType, 'user'), sql`${auditLog.actorId} is distinct from ${userId}`),
  );

/** A page's place: the time and id of the row above it (rows come newest first). */
export type AuditCursor = { at: Date; id: number };

const ORDER = [desc(auditLog.at), desc(auditLog.id)];

/** Up to `limit` rows matching `where` below the cursor, newest first, with their account's name now. */
export const findPage = (
  db: DbOrTx,
  where: SQL | undefined,
  before: AuditCursor | undefined,
  limit: number,
) =>
  db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorType: auditLog.actorType,
      actorId: auditLog.actorId,
      actorName: auditLog.actorName,
      actingRole: auditLog.actingRole,
      via: auditLog.via,
      operation: auditLog.operation,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      accountId: auditLog.accountId,
      accountName: accounts.name,
      fields: auditLog.fields,
      ip: auditLog.ip,
      requestId: auditLog.requestId,
      outcome: auditLog.outcome,
      status: auditLog.status,
    })
    .from(auditLog)
    .leftJoin(accounts, eq(accounts.id, auditLog.accountId))
    .where(
      and(
        where,
        before === undefined
          ? undefined
          : sql`(${auditLog.at}, ${auditLog.id}) < (${before.at.toISOString()}::timestamptz, ${before.id}::bigint)`,
      ),
    )
    .orderBy(...ORDER)
    .limit(limit);
export type AuditPageRow = Awaited<ReturnType<typeof findPage>>[number];

/** How many rows match, up to the list cap, along the time order (it stops early when matches are many). */
export const countMatching = (db: DbOrTx, where: SQL | undefined) =>
  countUpTo(db, auditLog, where, { order: ORDER });

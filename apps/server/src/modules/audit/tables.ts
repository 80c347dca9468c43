import type { AuditActorType, AuditField, AuditOutcome, AuditTargetType, AuditVia } from '@media/contract';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The audit log (issue 33): one row per state-changing request, agent write or job change, written in its
 * own transaction. Append-only (migration 0038's trigger refuses UPDATE and DELETE, except the retention
 * job's). No foreign keys: a row outlives the user, account or entity it names, and a cascade would be refused.
 * Where the change sat (account, site, site group, reseller) is kept as it was then, for the managers' reads.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** To the millisecond, so a page's place (`at`, `id`) goes to the client and back unchanged. */
    at: timestamp({ withTimezone: true, precision: 3 }).notNull().defaultNow(),
    actorType: text().$type<AuditActorType>().notNull(),
    /** The user's id (user), the edge server's (agent); null for the system and the anonymous. */
    actorId: integer(),
    /** The user name or edge server name at the time. */
    actorName: text(),
    actingRole: text(),
    via: text().$type<AuditVia>(),
    /** The OpenAPI operation id, or a job's name. */
    operation: text().notNull(),
    targetType: text().$type<AuditTargetType>(),
    targetId: text(),
    accountId: integer(),
    siteId: integer(),
    siteGroupId: integer(),
    resellerId: integer(),
    /** The user the change concerned (GET /api/me/auditLog). */
    userId: integer(),
    fields: jsonb().$type<AuditField[]>().notNull().default([]),
    ip: text(),
    requestId: text(),
    outcome: text().$type<AuditOutcome>().notNull(),
    /** The HTTP status answered; null for a job. */
    status: integer(),
  },
  // Pages are read newest first by (at, id), under one filter or scope each: an index per filter.
  (t) => [
    index().on(t.at, t.id),
    index().on(t.accountId, t.at, t.id).where(sql`${t.accountId} is not null`),
    index().on(t.siteId, t.at, t.id).where(sql`${t.siteId} is not null`),
    index().on(t.siteGroupId, t.at, t.id).where(sql`${t.siteGroupId} is not null`),
    index().on(t.resellerId, t.at, t.id).where(sql`${t.resellerId} is not null`),
    index().on(t.userId, t.at, t.id).where(sql`${t.userId} is not null`),
    index().on(t.actorName, t.at, t.id).where(sql`${t.actorName} is not null`),
    index().on(t.operation, t.at, t.id),
    index().on(t.targetType, t.targetId, t.at, t.id).where(sql`${t.targetType} is not null`),
  ],
);

import { z } from 'zod';
import { totalCappedSchema } from '../http/envelope.ts';
import { idTextSchema } from '../http/input.ts';
import { AUDIT_TARGET_TYPES } from './operations.ts';

/**
 * The audit log (issue 33, DESIGN.md "Identity, tokens and the way out"): every state-changing request, agent
 * write and job that changes data on someone's behalf writes one row in its own transaction. Append-only:
 * a trigger refuses UPDATE and DELETE except the retention job's (AUDIT_RETENTION_DAYS).
 */

/** Who acted: a user (through a session or an API token), an edge server's agent, a runner, the system. */
export const AUDIT_ACTOR_TYPES = ['user', 'agent', 'runner', 'system', 'anonymous'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
/** How the actor came: a browser's session, an API token, an agent's token, a job of the server. */
export const AUDIT_VIAS = ['session', 'token', 'agent', 'job'] as const;
export type AuditVia = (typeof AUDIT_VIAS)[number];
export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** How long rows are kept by default (AUDIT_RETENTION_DAYS). */
export const AUDIT_RETENTION_DAYS_DEFAULT = 400;
/** Rows per page of the log, by default and at most; the CSV export has every matching row. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** The standing an actor held when acting (a session acting as a role of an account shows the role's name). */
export const AUDIT_STANDINGS = [
  'administrator',
  'reseller manager',
  'site group manager',
  'site manager',
  'account manager',
  'account user',
  'user',
] as const;
export type AuditStanding = (typeof AUDIT_STANDINGS)[number];

export const auditFieldSchema = z.object({
  name: z.string().describe('A field of the request body; `options.url` for one nested a level down'),
  value: z
    .string()
    .nullable()
    .describe('Its value, up to 200 characters; null for a secret, or a value that is not plain (an object)'),
  secret: z.boolean().describe('The name says it holds a secret: its value was never kept'),
});

export const auditEntrySchema = z.object({
  id: z.string().describe('The row’s id (a 64-bit number, as text)'),
  at: z.string().describe('When the change was made'),
  actorType: z.enum(AUDIT_ACTOR_TYPES),
  actorId: z.number().int().nullable().describe('The user’s or the edge server’s id'),
  actorName: z.string().nullable().describe('The user name or the edge server’s name at the time'),
  actingRole: z
    .string()
    .nullable()
    .describe('The standing the actor held (administrator, site manager...), or the role a session acted as'),
  via: z.enum(AUDIT_VIAS).nullable(),
  operation: z.string().describe('The OpenAPI operation id (or the job’s name)'),
  targetType: z.enum(AUDIT_TARGET_TYPES).nullable(),
  targetId: z.string().nullable(),
  accountId: z.number().int().nullable(),
  accountName: z.string().nullable().describe('The account’s name now (null if it is gone)'),
  fields: z.array(auditFieldSchema),
  ip: z.string().nullable().describe('The client’s address (not shown to the user the change concerned)'),
  requestId: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  status: z.number().int().nullable().describe('The HTTP status answered (null for a job)'),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A page of the log, newest first; `next` asks for the page after it. */
export const auditPageSchema = z.object({
  results: z.array(auditEntrySchema),
  total: z.number().int().describe('Rows matching (counted up to 1,000)'),
  totalCapped: totalCappedSchema,
  next: z.string().nullable().describe('The `before` of the next (older) page; null on the last'),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** `before`: a page's place in the log, as `next` gave it (the time and id of the row above it). */
export const AUDIT_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z_\d{1,15}$/;
export const MSG_AUDIT_CURSOR = 'Not a page of the log: use the `next` of the page before';
export const MSG_AUDIT_RANGE = 'The start of the period must come before its end';
export const MSG_AUDIT_TARGET_ID_ALONE = 'A target id is looked for with its target type';

const time = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().trim().min(1).max(max);

/** The filters of GET /api/auditLog and its CSV export. */
export const auditFilterSchema = z.object({
  actor: text(200).optional().describe('The actor’s name (user name or edge server), exactly'),
  operation: text(200).optional().describe('An operation id, exactly'),
  targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
  targetId: text(100).optional().describe('With targetType: one entity'),
  accountId: idTextSchema.optional(),
  from: time.optional().describe('Rows at or after this time'),
  to: time.optional().describe('Rows before this time'),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

const pageFields = {
  before: z.string().regex(AUDIT_CURSOR, MSG_AUDIT_CURSOR).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
};
export const auditQuerySchema = auditFilterSchema.extend(pageFields);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
/** GET /api/me/auditLog: pages only (it is the caller's user, by others). */
export const ownAuditQuerySchema = z.object(pageFields);
export type OwnAuditQuery = z.infer<typeof ownAuditQuerySchema>;

/** The CSV export's columns, in order. */
export const AUDIT_CSV_HEADER = [
  'time',
  'actor type',
  'actor id',
  'actor',
  'acting role',
  'via',
  'operation',
  'target type',
  'target id',
  'account id',
  'account',
  'fields',
  'address',
  'request id',
  'outcome',
  'status',
] as const;

export const MSG_AUDIT_NO_SCOPE =
  'The activity log is for administrators and for managers of resellers, site groups, sites and accounts';

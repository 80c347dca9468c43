import { Readable } from 'node:stream';
import {
  AUDIT_CSV_HEADER,
  type AuditEntry,
  type AuditField,
  type AuditFilter,
  type AuditJobOperation,
  type AuditPage,
  type AuditQuery,
  type AuditTargetType,
  auditFieldsOf,
  MSG_AUDIT_CURSOR,
  MSG_AUDIT_NO_SCOPE,
  MSG_AUDIT_RANGE,
  MSG_AUDIT_TARGET_ID_ALONE,
  type OwnAuditQuery,
} from '@media/contract';
import type { SQL } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/client.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import type { AuditSink } from '../../platform/http/audit.ts';
import { requireRight } from '../access/service.ts';
import * as repo from './repo.ts';
import { findScope } from './scope-repo.ts';

/** The request hook's way to the database (platform/http/audit.ts). */
export const auditSink = (db: Db): AuditSink => ({
  scopeOf: (question) => findScope(db, question),
  write: (row) => repo.insertRow(db, row),
});

/**
 * A job's change on someone's behalf (a publish run, a web upload's proxy, a clip's render, a scheduled
 * recording): one row by the system, in its own transaction. Never throws: the job's work is done either way.
 */
export const recordAudit = async (
  ctx: Pick<AppContext, 'db' | 'log'>,
  entry: {
    operation: AuditJobOperation;
    target?: { type: AuditTargetType; id: number | string };
    accountId?: number | null;
    /** The user the change concerned (the one who asked for it). */
    userId?: number | null;
    fields?: Record<string, unknown>;
    failed?: boolean;
  },
) => {
  try {
    const scope = await findScope(ctx.db, {
      places: entry.target ? [{ type: entry.target.type, id: String(entry.target.id) }] : [],
      hints: { accountId: entry.accountId ?? undefined },
      userId: entry.userId ?? null,
      actingRoleId: undefined,
    });
    const { actingRoleName: _none, ...where } = scope;
    await repo.insertRow(ctx.db, {
      ...where,
      accountId: where.accountId ?? entry.accountId ?? null,
      actorType: 'system',
      actorId: null,
      actorName: null,
      actingRole: null,
      via: 'job',
      operation: entry.operation,
      targetType: entry.target?.type ?? null,
      targetId: entry.target ? String(entry.target.id) : null,
      fields: auditFieldsOf(entry.fields ?? {}),
      ip: null,
      requestId: null,
      outcome: entry.failed ? 'failure' : 'success',
      status: null,
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'writing the audit row of a job failed');
  }
};

/**
 * Where the reader may look (DESIGN.md rights): administrators everywhere; reseller, site group and site
 * managers under their places; account managers their accounts. Anyone else: 403.
 */
const reachOf = async (actor: Actor): Promise<repo.AuditReach> => {
  const rights = await actor.rights();
  if (rights.admin) return 'all';
  const reach = {
    resellers: [...rights.resellers],
    siteGroups: [...rights.siteGroups],
    sites: [...rights.sites],
    accounts: [...rights.accountManager],
  };
  if (Object.values(reach).every((ids) => ids.length === 0)) throw forbidden(MSG_AUDIT_NO_SCOPE);
  return reach;
};

const matchOf = async (ctx: AppContext, actor: Actor, filter: AuditFilter) => {
  const reach = await reachOf(actor);
  if (filter.targetId !== undefined && filter.targetType === undefined)
    throw badRequest(MSG_AUDIT_TARGET_ID_ALONE, { targetId: MSG_AUDIT_TARGET_ID_ALONE });
  const from = filter.from === undefined ? undefined : new Date(filter.from);
  const to = filter.to === undefined ? undefined : new Date(filter.to);
  if (from && to && from >= to) throw badRequest(MSG_AUDIT_RANGE, { to: MSG_AUDIT_RANGE });
  // A manager's account filter names one of theirs (404 for an unknown one, 403 for another's); an
  // administrator may look for an account that is gone.
  if (filter.accountId !== undefined && reach !== 'all')
    await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: filter.accountId });
  return repo.matching({ ...filter, reach, from, to });
};

const cursorOf = (before: string | undefined): repo.AuditCursor | undefined => {
  if (before === undefined) return undefined;
  const [time, id] = before.split('_');
  const at = new Date(time ?? '');
  if (Number.isNaN(at.getTime()) || at.toISOString() !== time) throw badRequest(MSG_AUDIT_CURSOR);
  return { at, id: Number(id) };
};
const cursorAfter = (row: repo.AuditPageRow) => `${row.at.toISOString()}_${row.id}`;

const presented = (row: repo.AuditPageRow, showIp: boolean): AuditEntry => ({
  ...row,
  id: String(row.id),
  at: row.at.toISOString(),
  ip: showIp ? row.ip : null,
});

const pageOf = async (
  db: Db,
  where: SQL | undefined,
  query: { before?: string; limit: number },
  showIp: boolean,
): Promise<AuditPage> => {
  const before = cursorOf(query.before);
  const rows = await repo.findPage(db, where, before, query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  const counted =
    before === undefined && rows.length <= query.limit
      ? { total: rows.length, totalCapped: false }
      : await repo.countMatching(db, where);
  return {
    results: shown.map((row) => presented(row, showIp)),
    ...counted,
    next: rows.length > query.limit && last ? cursorAfter(last) : null,
  };
};

/** GET /api/auditLog: a page of the log the actor may read, filtered, newest first. */
export const listLog = async (options: { ctx: AppContext; actor: Actor; query: AuditQuery }) => {
  const { ctx, actor, query } = options;
  return pageOf(ctx.db, await matchOf(ctx, actor, query), query, true);
};

/** GET /api/me/auditLog: what others (people, agents, the system) did to the caller's user. */
export const listOwn = (options: { ctx: AppContext; actor: Actor; query: OwnAuditQuery }) =>
  pageOf(options.ctx.db, repo.aboutUser(options.actor.userId), options.query, false);

const EXPORT_PAGE_ROWS = 1000;

const fieldsText = (fields: AuditField[]) =>
  fields
    .map((field) =>
      field.secret
        ? `${field.name}=[secret]`
        : field.value === null
          ? field.name
          : `${field.name}=${field.value}`,
    )
    .join('; ');

const csvRow = (row: repo.AuditPageRow) => [
  row.at.toISOString(),
  row.actorType,
  row.actorId ?? '',
  row.actorName ?? '',
  row.actingRole ?? '',
  row.via ?? '',
  row.operation,
  row.targetType ?? '',
  row.targetId ?? '',
  row.accountId ?? '',
  row.accountName ?? '',
  fieldsText(row.fields),
  row.ip ?? '',
  row.requestId ?? '',
  row.outcome,
  row.status ?? '',
];

/** GET /api/auditLog/export: every row the filters match, as CSV, streamed page by page (newest first). */
export const exportLog = async (options: { ctx: AppContext; actor: Actor; filter: AuditFilter }) => {
  const { ctx } = options;
  const where = await matchOf(ctx, options.actor, options.filter);
  async function* lines() {
    // The byte-order mark tells spreadsheet programs the file is UTF-8.
    yield `\uFEFF${Papa.unparse([[...AUDIT_CSV_HEADER]], { newline: '\r\n' })}\r\n`;
    let before: repo.AuditCursor | undefined;
    for (;;) {
      const rows = await repo.findPage(ctx.db, where, before, EXPORT_PAGE_ROWS);
      if (rows.length)
        yield `${Papa.unparse(rows.map(csvRow), { newline: '\r\n', escapeFormulae: true })}\r\n`;
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE_ROWS) return;
      before = { at: last.at, id: last.id };
    }
  }
  return {
    fileName: `activity ${new Date().toISOString().slice(0, 10)}.csv`,
    stream: Readable.from(lines()),
  };
};

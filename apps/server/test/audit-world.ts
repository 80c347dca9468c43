import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { auditLog } from '../src/modules/audit/tables.ts';
import type { TestApp } from './harness.ts';

// What the audit log tests share (audit-log*.test.ts, audit-route-walk.test.ts).

export type AuditRowOf = typeof auditLog.$inferSelect;

/** The newest row's id: rows a step writes are those after it. */
export const lastAuditId = async (t: TestApp) => {
  const [row] = await t.ctx.db
    .select({ id: sql<number>`coalesce(max(${auditLog.id}), 0)::int` })
    .from(auditLog);
  return row?.id ?? 0;
};

/** Rows written after `since`, oldest first (only those of `operation`, when given). */
export const auditRowsAfter = (t: TestApp, since: number, operation?: string) =>
  t.ctx.db
    .select()
    .from(auditLog)
    .where(
      and(gt(auditLog.id, since), operation === undefined ? undefined : eq(auditLog.operation, operation)),
    )
    .orderBy(asc(auditLog.id));

/** Runs `step` and answers its answer and the rows it wrote. */
export const audited = async <T>(t: TestApp, step: () => Promise<T>) => {
  const since = await lastAuditId(t);
  const answer = await step();
  return { answer, rows: await auditRowsAfter(t, since) };
};

/** Every row as text, for looking for what must never be there. */
export const allAuditText = async (t: TestApp) =>
  JSON.stringify(await t.ctx.db.select().from(auditLog).orderBy(asc(auditLog.id)));

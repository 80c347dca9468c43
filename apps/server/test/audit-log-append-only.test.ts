import { AUDIT_RETENTION_DAYS_DEFAULT } from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditLog } from '../src/modules/audit/retention.ts';
import { auditLog } from '../src/modules/audit/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

/** Issue 33: a trigger refuses UPDATE and DELETE; only the retention job removes rows, older than its days. */
describe(`audit log: append-only, with a retention (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** A row `daysAgo` old, of the given operation. */
  const rowAged = async (daysAgo: number, operation: string) => {
    const [row] = await t.ctx.db
      .insert(auditLog)
      .values({
        actorType: 'system',
        operation,
        outcome: 'success',
        at: sql`now() - make_interval(days => ${daysAgo})`,
      })
      .returning({ id: auditLog.id });
    return row?.id as number;
  };
  /** The statement fails, and for the trigger's reason (not, say, a typo in it). */
  const refused = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (e: unknown) => e,
    );
    const messages: string[] = [];
    for (let e = error; e instanceof Error; e = (e as { cause?: unknown }).cause) messages.push(e.message);
    expect(messages.join(' | ')).toMatch(/the audit log is append-only: (UPDATE|DELETE|TRUNCATE) refused/);
  };
  const exists = async (id: number) =>
    (await t.ctx.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.id, id))).length === 1;

  it('refuses to change, delete or empty rows, however old', async () => {
    const id = await rowAged(1000, 'test.old');
    await refused(t.ctx.db.update(auditLog).set({ operation: 'forged' }).where(eq(auditLog.id, id)));
    await refused(t.ctx.db.delete(auditLog).where(eq(auditLog.id, id)));
    await refused(t.ctx.db.execute(sql`truncate audit_log`));
    expect(await exists(id)).toBe(true);
    const [row] = await t.ctx.db.select().from(auditLog).where(eq(auditLog.id, id));
    expect(row?.operation).toBe('test.old');
  });

  it('lets the retention delete only rows older than its days, and only inside its own transaction', async () => {
    const young = await rowAged(10, 'test.young');
    // Saying it is the retention does not open the table to an UPDATE, nor to deleting a young row.
    await refused(
      t.ctx.db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('app.audit_retention', 'on', true), set_config('app.audit_retention_days', '5', true)`,
        );
        await tx.update(auditLog).set({ operation: 'forged' }).where(eq(auditLog.id, young));
      }),
    );
    await refused(
      t.ctx.db.transaction(async (tx) => {
        await tx.execute(
          sql`select set_config('app.audit_retention', 'on', true), set_config('app.audit_retention_days', '30', true)`,
        );
        await tx.delete(auditLog).where(eq(auditLog.id, young));
      }),
    );
    expect(await exists(young)).toBe(true);
    // Nor does a setting left by an earlier transaction.
    await refused(t.ctx.db.delete(auditLog).where(eq(auditLog.id, young)));
  });

  it('removes the rows past AUDIT_RETENTION_DAYS (400 by default) and keeps the others', async () => {
    expect(loadConfig({}).auditRetentionDays).toBe(AUDIT_RETENTION_DAYS_DEFAULT);
    expect(AUDIT_RETENTION_DAYS_DEFAULT).toBe(400);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow(/AUDIT_RETENTION_DAYS/);
    const past = await rowAged(401, 'test.past');
    const kept = await rowAged(399, 'test.kept');
    const today = await rowAged(0, 'test.today');
    const removed = await pruneAuditLog(t.ctx.db, 400);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await exists(past)).toBe(false);
    expect(await exists(kept)).toBe(true);
    expect(await exists(today)).toBe(true);
    // A shorter retention takes more; nothing younger than it.
    await pruneAuditLog(t.ctx.db, 20);
    expect(await exists(kept)).toBe(false);
    expect(await exists(today)).toBe(true);
  });
});

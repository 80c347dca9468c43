import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client.ts';
import { auditLog } from './tables.ts';

/** How often rows past the retention are removed. */
export const AUDIT_RETENTION_INTERVAL_MS = 60 * 60_000;
const BATCH_ROWS = 5000;
const MAX_BATCHES = 200;

/**
 * Removes rows older than `days` (AUDIT_RETENTION_DAYS), oldest first, in bounded batches; answers how many.
 * The only DELETE the append-only trigger lets through: each batch's transaction says it is the retention's
 * and how many days it keeps, and the trigger refuses any row younger than that. Not itself audited.
 */
export const pruneAuditLog = async (db: Db, days: number) => {
  let pruned = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const removed = await db.transaction(async (tx) => {
      await tx.execute(
        sql`select set_config('app.audit_retention', 'on', true), set_config('app.audit_retention_days', ${String(days)}, true)`,
      );
      const rows = await tx.execute(sql`
        delete from ${auditLog} where ${auditLog.id} in (
          select ${auditLog.id} from ${auditLog}
          where ${auditLog.at} < now() - make_interval(days => ${days}::int)
          order by ${auditLog.at}
          limit ${BATCH_ROWS}
        ) returning 1`);
      return (rows as unknown as { rows: unknown[] }).rows.length;
    });
    pruned += removed;
    if (removed < BATCH_ROWS) break;
  }
  return pruned;
};

/** Prunes at start and then hourly; answers a stop function that waits for a running prune. */
export const startAuditRetention = (db: Db, days: number, log: FastifyBaseLogger) => {
  let running: Promise<void> | undefined;
  const prune = () => {
    running ??= pruneAuditLog(db, days)
      .then((pruned) => {
        if (pruned) log.info({ rows: pruned, days }, 'removed audit log rows past their retention');
      })
      .catch((error: unknown) =>
        log.warn({ err: error }, 'removing audit log rows past their retention failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(prune, 60_000);
  const timer = setInterval(prune, AUDIT_RETENTION_INTERVAL_MS);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
};

import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle, DbOrTx } from '../db/client.ts';
import { bossExecutor, trackStatements, transactionExecutor } from './executors.ts';
import { createJobOwnership, type JobOwnership, noJobOwnership } from './owners.ts';
import type { JobHandler, JobQueue } from './queues.ts';
import { QueueWorker } from './worker.ts';

/** Durable jobs in the product's database (DESIGN "Jobs"), one pg-boss per app context. */
export type Jobs = {
  /**
   * Writes jobs in the caller's transaction: they exist only if it commits, so a committed change never
   * loses its job and a rolled-back one leaves none. Pass the transaction of the change (`db` itself
   * only for work that goes with no change).
   */
  send: <Data extends object>(
    db: DbOrTx,
    queue: JobQueue<Data>,
    data: Data[],
    options?: { startAfter?: Date },
  ) => Promise<void>;
  /** Creates (or updates) the queue and runs its jobs on this instance, `concurrency` at once (1). */
  work: <Data extends object>(
    queue: JobQueue<Data>,
    handler: JobHandler<Data>,
    options?: { concurrency?: number },
  ) => Promise<void>;
  /** Stops fetching, lets running jobs finish (briefly), stops pg-boss; call before the database closes. */
  close: () => Promise<void>;
};

/**
 * How often a worker looks for jobs when nothing wakes it. On PostgreSQL other instances send jobs, so
 * every second. On PGlite this process is the only sender (its sends wake the worker, which also sleeps
 * exactly until the next retry is due): a rare look is only a safety net, and the one connection stays free.
 */
const POLL_INTERVAL_MS = { postgres: 1000, pglite: 10 * 60_000 };
/**
 * pg-boss's maintenance: jobs whose worker died are retried once their time is over (PostgreSQL; on PGlite
 * a start does it at once), finished jobs archived and, after days, deleted.
 */
const MAINTENANCE_SECONDS = { postgres: 30, pglite: 10 * 60 };
/** pg-boss takes a job for lost this long after its time limit (its own worker aborts it at the limit). */
const EXPIRY_MARGIN_SECONDS = 15;
const STOP_GRACE_MS = 5000;
/** pg-boss's schema in the product's database. */
export const BOSS_SCHEMA = 'pgboss';

export const createJobs = async (options: {
  database: DatabaseHandle;
  /** The database's URL on PostgreSQL: pg-boss gets a small pool of its own. */
  url: string | undefined;
  log: FastifyBaseLogger;
}): Promise<Jobs> => {
  const { database, log } = options;
  const driver = database.driver;
  const connection = bossExecutor(database, { url: options.url, log });
  const statements = trackStatements(connection.executor);
  const boss = new PgBoss({
    db: statements.executor,
    schema: BOSS_SCHEMA,
    // pg-boss creates its schema on the first start and migrates it forward on later ones.
    migrate: true,
    supervise: true,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS[driver],
    // No cron schedules yet; they would add a polling worker and two timers to every instance.
    schedule: false,
  });
  let closing = false;
  boss.on('error', (error) => {
    if (!closing) log.warn({ err: error }, 'job queue maintenance failed');
  });
  const workers = new Map<string, QueueWorker<object>>();
  // Maintenance may have put expired jobs back in line; a dead instance's jobs are looked for then too.
  boss.on('maintenance', () => {
    for (const worker of workers.values()) worker.wake();
    if (!closing)
      void reclaim().catch((error: unknown) =>
        log.warn({ err: error }, 'could not retry the jobs of stopped instances'),
      );
  });
  let ownership: JobOwnership = noJobOwnership;
  /**
   * The active jobs of instances that died (PostgreSQL) are failed now, so that they run again at once.
   * A declaration, so that maintenance during the start may call it.
   */
  async function reclaim() {
    const count = await ownership.reclaim(async (queue, id) => {
      await boss.fail(queue, id, { message: 'the instance running it stopped' });
    });
    if (count) {
      log.info({ jobs: count }, 'jobs of a stopped instance are retried');
      for (const worker of workers.values()) worker.wake();
    }
  }
  try {
    await boss.start();
    if (driver === 'postgres' && options.url && connection.transaction)
      ownership = await createJobOwnership({
        url: options.url,
        executor: statements.executor,
        transaction: connection.transaction,
        bossSchema: BOSS_SCHEMA,
        log,
        watchdog: database.watchdog,
      });
  } catch (error) {
    await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
    await connection.close();
    throw error;
  }

  /**
   * One process owns a PGlite data directory (DESIGN "Persistence and faults"), so a job still active at
   * start was cut off by a crash: retry it now rather than when its time runs out. On PostgreSQL another
   * instance may be running it: the job owners (owners.ts) tell whether its instance is gone.
   */
  const retryInterrupted = async (queue: string) => {
    if (driver !== 'pglite') return;
    const { rows } = await statements.executor.executeSql(
      `SELECT id FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'`,
      [queue],
    );
    const ids = (rows as { id: string }[]).map((row) => row.id);
    if (!ids.length) return;
    for (const id of ids) await boss.fail(queue, id, { message: 'the server stopped while the job ran' });
    log.info({ queue, jobs: ids.length }, 'jobs cut off by the last stop are retried');
  };

  const nextDueMs = async (queue: string) => {
    const { rows } = await statements.executor.executeSql(
      `SELECT EXTRACT(epoch FROM min(start_after) - now()) * 1000 AS ms FROM ${BOSS_SCHEMA}.job
        WHERE name = $1 AND state < 'active'`,
      [queue],
    );
    const ms = (rows as { ms: number | string | null }[])[0]?.ms;
    return ms === null || ms === undefined ? undefined : Number(ms);
  };

  return {
    send: async (db, queue, data, sendOptions = {}) => {
      const worker = workers.get(queue.name);
      // The queue is created by work(); a job sent before would be dropped by pg-boss without a word.
      if (!worker) throw new Error(`No worker runs the ${queue.name} queue`);
      if (!data.length) return;
      await boss.insert(
        data.map((item) => ({
          name: queue.name,
          data: item,
          ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        })),
        { db: transactionExecutor(db) },
      );
      // On PGlite the worker's fetch waits for the transaction and finds the jobs as it commits; on
      // PostgreSQL it finds nothing yet, and the next poll does.
      worker.wake();
    },
    work: async (queue, handler, workOptions = {}) => {
      if (workers.has(queue.name)) throw new Error(`The ${queue.name} queue already has a worker`);
      const settings = {
        name: queue.name,
        retryLimit: queue.retryLimit,
        retryDelay: queue.retryDelaySeconds,
        retryBackoff: queue.retryBackoff,
        expireInSeconds: queue.timeLimitSeconds + EXPIRY_MARGIN_SECONDS,
      };
      await boss.createQueue(queue.name, settings);
      await boss.updateQueue(queue.name, settings);
      await retryInterrupted(queue.name);
      await reclaim();
      const worker = new QueueWorker(boss, queue, handler, {
        concurrency: workOptions.concurrency ?? 1,
        pollIntervalMs: POLL_INTERVAL_MS[driver],
        nextDueMs: () => nextDueMs(queue.name),
        ownership,
        log,
      });
      workers.set(queue.name, worker as unknown as QueueWorker<object>);
      worker.start();
    },
    close: async () => {
      closing = true;
      await Promise.all([...workers.values()].map((worker) => worker.stop(STOP_GRACE_MS)));
      await boss.stop({ graceful: false, close: false, wait: true });
      await statements.drain();
      await ownership.close();
      await connection.close();
    },
  };
};

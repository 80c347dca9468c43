import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle, DbOrTx } from '../db/client.ts';
import { databaseExecutor, trackStatements, transactionExecutor } from './executors.ts';
import type { JobHandler, JobQueue } from './queues.ts';
import { QueueWorker } from './worker.ts';

/** Durable jobs in the product's database (DESIGN "Jobs"), one pg-boss per app context. */
export type Jobs = {
  /**
   * Writes jobs in the caller's transaction: they exist only if it commits, so a committed change never
   * loses its job and a rolled-back one leaves none. Pass the transaction of the change (`db` itself
   * only for work that goes with no change).
   */
  send: <Data extends object>(db: DbOrTx, queue: JobQueue<Data>, data: Data[]) => Promise<void>;
  /** Creates (or updates) the queue and runs its jobs on this instance, `concurrency` at once (1). */
  work: <Data extends object>(
    queue: JobQueue<Data>,
    handler: JobHandler<Data>,
    options?: { concurrency?: number },
  ) => Promise<void>;
  /** Stops fetching, lets running jobs finish (briefly), stops pg-boss; call before the database closes. */
  close: () => Promise<void>;
};

/** New jobs of another instance, and retries whose wait is over, are found by polling. */
const POLL_INTERVAL_MS = 1000;
/** pg-boss's maintenance: jobs whose worker died are retried once their time is over; old jobs archived. */
const MAINTENANCE_SECONDS = 30;
/** pg-boss takes a job for lost this long after its time limit (its own worker aborts it at the limit). */
const EXPIRY_MARGIN_SECONDS = 15;
const STOP_GRACE_MS = 5000;
const BOSS_SCHEMA = 'pgboss';

export const createJobs = async (options: {
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  pollIntervalMs?: number;
}): Promise<Jobs> => {
  const { database, log } = options;
  const statements = trackStatements(databaseExecutor(database));
  const boss = new PgBoss({
    db: statements.executor,
    schema: BOSS_SCHEMA,
    // pg-boss creates its schema on the first start and migrates it forward on later ones.
    migrate: true,
    supervise: true,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    // No cron schedules yet; they would add a polling worker and two timers to every instance.
    schedule: false,
  });
  let closing = false;
  boss.on('error', (error) => {
    if (!closing) log.warn({ err: error }, 'job queue maintenance failed');
  });
  await boss.start();
  const workers = new Map<string, QueueWorker<object>>();

  /**
   * One process owns a PGlite data directory (DESIGN "Persistence and faults"), so a job still active at
   * start was cut off by a crash: retry it now rather than when its time runs out. On PostgreSQL another
   * instance may be running it, and pg-boss's expiry is the only safe judge.
   */
  const retryInterrupted = async (queue: string) => {
    if (database.driver !== 'pglite') return;
    const { rows } = await statements.executor.executeSql(
      `SELECT id FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'`,
      [queue],
    );
    const ids = (rows as { id: string }[]).map((row) => row.id);
    if (!ids.length) return;
    for (const id of ids) await boss.fail(queue, id, { message: 'the server stopped while the job ran' });
    log.info({ queue, jobs: ids.length }, 'jobs cut off by the last stop are retried');
  };

  return {
    send: async (db, queue, data) => {
      const worker = workers.get(queue.name);
      // The queue is created by work(); a job sent before would be dropped by pg-boss without a word.
      if (!worker) throw new Error(`No worker runs the ${queue.name} queue`);
      if (!data.length) return;
      await boss.insert(
        data.map((item) => ({ name: queue.name, data: item })),
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
      const worker = new QueueWorker(boss, queue, handler, {
        concurrency: workOptions.concurrency ?? 1,
        pollIntervalMs: options.pollIntervalMs ?? POLL_INTERVAL_MS,
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
    },
  };
};

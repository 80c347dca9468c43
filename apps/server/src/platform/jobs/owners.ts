import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { KEEP_ALIVE_AFTER_MS, POOL_WAIT_MS } from '../db/client.ts';
import type { ConnectionWatchdog } from '../db/watchdog.ts';

/** The advisory lock space of instance keys (the first half of a two-int4 advisory lock). */
const LOCK_SPACE = 0x6a6f6273; // 'jobs'
/** A lost owner connection is made again after this long, and again until it holds the lock. */
const HOLD_RETRY_MS = 1000;

/**
 * Who runs which active job, so that the jobs of a dead instance run again at once (DESIGN "Jobs": picked
 * up again after a crash). Each instance holds a session advisory lock on its own key on a connection of
 * its own for its whole life; PostgreSQL frees it when the process dies (kill -9 included) because its
 * connection ends. Another instance that can take the lock knows its owner is gone and fails its jobs, so
 * that pg-boss retries them. With PGlite one process owns the database and a start retries what was active.
 */
export type JobOwnership = {
  /**
   * Fetches jobs and records this instance as their owner in one transaction: an instance killed between
   * the two would otherwise leave active jobs that no owner row names, retried only when their time is up.
   */
  fetchClaimed: <Job extends { id: string }>(
    queue: string,
    fetch: (db: PgBoss.Db | undefined) => Promise<Job[]>,
  ) => Promise<Job[]>;
  release: (jobId: string) => Promise<void>;
  /** Fails the active jobs of instances that are gone; answers how many. */
  reclaim: (fail: (queue: string, jobId: string) => Promise<void>) => Promise<number>;
  close: () => Promise<void>;
};

export const noJobOwnership: JobOwnership = {
  fetchClaimed: (_queue, fetch) => fetch(undefined),
  release: async () => {},
  reclaim: async () => 0,
  close: async () => {},
};

export const createJobOwnership = async (options: {
  url: string;
  executor: PgBoss.Db;
  transaction: <T>(work: (db: PgBoss.Db) => Promise<T>) => Promise<T>;
  bossSchema: string;
  log: FastifyBaseLogger;
  /** Watches the owner connection for answers that stop coming (the database's). */
  watchdog?: ConnectionWatchdog;
}): Promise<JobOwnership> => {
  const { executor, log } = options;
  const key = randomInt(1, 2 ** 31 - 1);
  let holder: pg.Client | undefined;
  let closing = false;
  /**
   * Takes this instance's lock on a connection of its own (watched: one that stops answering is given up). A
   * lost connection is replaced and locks again, tried every second until it does.
   */
  const hold = async () => {
    const client = new pg.Client({
      connectionString: options.url,
      application_name: 'media-jobs-owner',
      connectionTimeoutMillis: POOL_WAIT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
    });
    client.on('error', (error) => {
      // Before it holds the lock, a failure is the caller's (the start, or holdAgain's next try).
      if (closing || holder !== client) return;
      log.warn({ err: error }, 'the job owner connection was lost; taking the lock again');
      holder = undefined;
      holdAgain();
    });
    try {
      await client.connect();
      // Never dropped as idle: while it holds the lock, its connection tells the other instances this one lives.
      options.watchdog?.watch(client, () => false);
      await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_SPACE, key]);
    } catch (error) {
      client.connection.stream.destroy();
      throw error;
    }
    if (closing) await client.end().catch(() => undefined);
    else holder = client;
  };
  const holdAgain = () => {
    setTimeout(() => {
      if (closing) return;
      hold().catch((error: unknown) => {
        log.warn({ err: error }, 'the job owner lock could not be taken again; retrying');
        holdAgain();
      });
    }, HOLD_RETRY_MS).unref();
  };
  await hold();

  return {
    fetchClaimed: (queue, fetch) =>
      options.transaction(async (db) => {
        const jobs = await fetch(db);
        if (!jobs.length) return jobs;
        await db.executeSql(
          `INSERT INTO job_owners (job_id, queue, instance_key) SELECT unnest($1::text[]), $2, $3
             ON CONFLICT (job_id) DO UPDATE SET instance_key = excluded.instance_key, claimed_at = now()`,
          [jobs.map((job) => job.id), queue, key],
        );
        return jobs;
      }),
    release: async (jobId) => {
      await executor.executeSql('DELETE FROM job_owners WHERE job_id = $1', [jobId]);
    },
    reclaim: async (fail) => {
      const client = holder;
      if (!client) return 0;
      // Rows of jobs that are no longer active (finished by an owner that died before releasing) go.
      await executor.executeSql(
        `DELETE FROM job_owners o WHERE NOT EXISTS (
           SELECT 1 FROM ${options.bossSchema}.job j WHERE j.id::text = o.job_id AND j.state = 'active')`,
        [],
      );
      const { rows } = (await executor.executeSql(
        `SELECT job_id, queue, instance_key FROM job_owners WHERE instance_key <> $1`,
        [key],
      )) as { rows: { job_id: string; queue: string; instance_key: string | number }[] };
      const gone = new Set<number>();
      for (const owner of new Set(rows.map((row) => Number(row.instance_key)))) {
        const { rows: taken } = await client.query<{ free: boolean }>(
          'SELECT pg_try_advisory_lock($1, $2) AS free',
          [LOCK_SPACE, owner],
        );
        if (!taken[0]?.free) continue;
        await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_SPACE, owner]);
        gone.add(owner);
      }
      let reclaimed = 0;
      for (const row of rows) {
        if (!gone.has(Number(row.instance_key))) continue;
        await fail(row.queue, row.job_id);
        await executor.executeSql('DELETE FROM job_owners WHERE job_id = $1', [row.job_id]);
        reclaimed++;
      }
      return reclaimed;
    },
    close: async () => {
      closing = true;
      await holder?.end().catch(() => undefined);
    },
  };
};

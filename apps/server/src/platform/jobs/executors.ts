import { type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { type DatabaseHandle, type DbOrTx, KEEP_ALIVE_AFTER_MS, POOL_WAIT_MS } from '../db/client.ts';
import type { PGliteWorkerClient } from '../db/pglite-worker-client.ts';

type Rows = { rows: unknown[] };

/**
 * Where pg-boss runs its own statements (`executeSql(text, values)`). On PostgreSQL: a small pool of its
 * own, so that polling and job bookkeeping never wait for (or hold) a connection of the requests, with the
 * same care for lost connections as the main pool (a bounded wait, keep-alive, the watchdog). On PGlite:
 * the one in-process client; statements with values go through `query` (one statement, bound parameters),
 * pg-boss's scripts without values (its schema, its migrations, its locked maintenance blocks) through
 * `exec`, which runs several statements; either waits behind an open transaction on the one connection, as
 * every other query does.
 */
export const bossExecutor = (
  database: DatabaseHandle,
  options: { url: string | undefined; log: FastifyBaseLogger },
): {
  executor: PgBoss.Db;
  /** PostgreSQL only: runs `work` in one transaction on a connection of the pool, committed if it resolves. */
  transaction?: <T>(work: (db: PgBoss.Db) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
} => {
  if (database.driver === 'postgres' && options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 3,
      application_name: 'media-jobs',
      connectionTimeoutMillis: POOL_WAIT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
    });
    const connectionLost = (error: Error) =>
      options.log.warn({ err: error }, 'a job queue connection was lost; the pool replaces it');
    pool.on('error', connectionLost);
    // Watched as the main pool's are: a connection that stops answering would hold the worker's fetch, and
    // with it every queue's jobs, for ever.
    pool.on('connect', (client) => client.on('error', connectionLost));
    database.watchdog?.watchPool(pool);
    return {
      executor: { executeSql: async (text, values) => pool.query(text, values) },
      transaction: async (work) => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('BEGIN');
          const result = await work({ executeSql: async (text, values) => client.query(text, values) });
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((lost: Error) => {
            broken = lost;
          });
          throw error;
        } finally {
          // A connection that could not roll back is not given back to the pool.
          client.release(broken);
        }
      },
      close: () => pool.end(),
    };
  }
  // drizzle's `$client` is the embedded database's client the database was opened with.
  const client = (database.db as unknown as { $client: PGliteWorkerClient }).$client;
  return {
    executor: {
      executeSql: async (text, values) => {
        if (values?.length) return client.query(text, values);
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
    },
    close: async () => {},
  };
};

/**
 * pg-boss's statement as a Drizzle query: each `$n` becomes a bound parameter. pg-boss's job statements
 * have no dollar-quoted text, so every `$n` is a placeholder.
 */
const toDrizzleSql = (text: string, values: unknown[] = []): SQL => {
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    chunks.push(sql`${sql.param(values[Number(match[1]) - 1])}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
};

/**
 * An executor bound to the caller's transaction (or the database, outside one): the job rows pg-boss
 * writes through it commit or roll back with the caller's change. It goes through Drizzle's public
 * `execute`, so the same code serves both drivers.
 */
export const transactionExecutor = (db: DbOrTx): PgBoss.Db => ({
  executeSql: async (text, values) => (await db.execute(toDrizzleSql(text, values))) as unknown as Rows,
});

/** Counts the statements under way, so that closing waits for them before the database closes. */
export const trackStatements = (executor: PgBoss.Db) => {
  const running = new Set<Promise<unknown>>();
  let closed = false;
  return {
    executor: {
      executeSql: (text: string, values: unknown[]) => {
        if (closed) return Promise.reject(new Error('the job queue is closed'));
        const statement = executor.executeSql(text, values);
        running.add(statement);
        const forget = () => running.delete(statement);
        statement.then(forget, forget);
        return statement;
      },
    } satisfies PgBoss.Db,
    /** Refuses new statements and waits for those under way. */
    drain: async () => {
      closed = true;
      while (running.size) await Promise.allSettled([...running]);
    },
  };
};

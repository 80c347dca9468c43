import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { DatabaseHandle, DbOrTx } from '../db/client.ts';

type Rows = { rows: unknown[] };

/**
 * pg-boss runs its own statements through `executeSql(text, values)`. On PostgreSQL that is our pool (no
 * second pool per instance). On PGlite it is the one in-process client: statements with values go through
 * `query` (one statement, bound parameters), pg-boss's scripts without values (its schema, its migrations,
 * its locked maintenance blocks) through `exec`, which runs several statements. Both queue behind an open
 * transaction on the one connection, as every other query does.
 */
export const databaseExecutor = (database: DatabaseHandle): PgBoss.Db => {
  if (database.pool) {
    const pool = database.pool;
    return { executeSql: async (text, values) => pool.query(text, values) };
  }
  // drizzle's `$client` is the PGlite instance the database was opened with.
  const client = (database.db as unknown as { $client: PGlite }).$client;
  return {
    executeSql: async (text, values) => {
      if (values?.length) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
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

import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import * as schema from '../../schema.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { compiledPglite, PGliteWorkerClient } from './pglite-worker-client.ts';
import { sqlCoverageLogger } from './sql-coverage.ts';
import { ConnectionWatchdog } from './watchdog.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repos take either, so a service can run several of them in one transaction. */
export type DbOrTx = Db | Tx;

export type DatabaseHandle = {
  db: Db;
  driver: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** The pool, on PostgreSQL; the live-update bus takes a dedicated client from its settings. */
  pool?: pg.Pool;
  /**
   * PostgreSQL: the watchdog of the pool's connections (watchdog.ts), which the server's other connections
   * (the job queue's) use too: a connection that stops answering is given up.
   */
  watchdog?: ConnectionWatchdog;
  /**
   * The embedded database only: calls back on every NOTIFY of `channel`, before the statement (or commit) that
   * sent it answers (PGlite delivers in a microtask while it reads the answer); resolves to the unsubscribe.
   */
  listen?: (channel: string, callback: () => void) => Promise<() => Promise<void>>;
};

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, '../../../drizzle');
/** Several instances may start together; one migrates while the others wait on this lock. */
const MIGRATION_LOCK_ID = 727_001;

export type DatabaseOptions =
  | { driver: 'postgres'; url: string; poolSize?: number; log?: Pick<FastifyBaseLogger, 'warn'> }
  | {
      driver: 'pglite';
      dataDir?: string;
      /** A PGlite dump to open instead of a new database (the tests' migrated template; never a server's). */
      loadDataDir?: string;
      /** Called if another process took this data directory's lock away while it was held. */
      onLockLost?: (error: Error) => void;
    };

/** How long a close waits for checked-out database clients before it ends them. */
const POOL_CLOSE_GRACE_MS = 5000;
/**
 * The longest a request waits for a connection of the pool (all busy), or for a new one to be made, before
 * it answers 503: a server that cannot be reached fails requests rather than holding them.
 */
export const POOL_WAIT_MS = 5000;
/**
 * TCP keep-alive on the pool's connections, probing after this long idle: an idle connection whose server
 * vanished without a word is found and dropped by the pool before a request is given it.
 */
export const KEEP_ALIVE_AFTER_MS = 10_000;

export const openDatabase = async (options: DatabaseOptions): Promise<DatabaseHandle> => {
  const logger = sqlCoverageLogger();
  if (options.driver === 'postgres') {
    // JIT compiling costs more than the short queries it is meant to speed up (a 2 ms children page took
    // over 100 ms to compile), so it is off for our connections unless the URL sets options itself.
    const ownOptions = new URL(options.url).searchParams.has('options');
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: POOL_WAIT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
      ...(ownOptions ? {} : { options: '-c jit=off' }),
    });
    // A connection whose link is lost without a word would hold its query (and every request sharing it)
    // for ever: the watchdog gives it up (watchdog.ts).
    const watchdog = new ConnectionWatchdog({ url: options.url, log: options.log });
    // A lost connection must never end the process (an 'error' event without a listener throws). The pool
    // listens on idle clients only, so every client also gets a listener of its own for the time it is
    // checked out (a transaction, the migration): its query fails, the request answers 503, and on release
    // the pool drops the dead client and opens a new one when needed.
    const connectionLost = (error: Error) =>
      options.log?.warn({ err: error }, 'a database connection was lost; the pool replaces it');
    pool.on('error', connectionLost);
    // Every open client, so that a close can end the ones a lost server left waiting for an answer.
    const clients = new Set<pg.PoolClient>();
    pool.on('connect', (client) => {
      clients.add(client);
      client.on('error', connectionLost);
    });
    watchdog.watchPool(pool);
    pool.on('remove', (client) => clients.delete(client));
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case', logger }) as unknown as Db;
    return {
      db,
      driver: 'postgres',
      pool,
      watchdog,
      migrate: async () => {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          const lockedDb = drizzlePg({ client, schema, casing: 'snake_case' });
          await migratePg(lockedDb, { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
          client.release();
        }
      },
      // pool.end() waits for every checked-out client; one whose query a terminated connection left without an
      // answer (pg never settles it: seen after pg_terminate_backend in connection-loss.test.ts) would hold the
      // close for ever. After a grace period the clients still open are ended, and the close stops waiting.
      close: async () => {
        let timer: NodeJS.Timeout | undefined;
        const gaveUp = new Promise<'gave up'>((resolve) => {
          timer = setTimeout(() => {
            for (const client of clients) void (client as pg.Client).end().catch(() => undefined);
            resolve('gave up');
          }, POOL_CLOSE_GRACE_MS);
        });
        const outcome = await Promise.race([pool.end().then(() => 'ended' as const), gaveUp]);
        clearTimeout(timer);
        watchdog.close();
        if (outcome === 'gave up')
          options.log?.warn('database clients were still checked out at close; they were ended');
      },
    };
  }
  // One process owns an embedded data directory: a second one stops here, before it opens the files.
  const lock = options.dataDir
    ? await lockDataDir(options.dataDir, { onLost: options.onLockLost })
    : undefined;
  // In a worker thread, so that its queries never hold the event loop (pglite-worker.mjs; with pg_trgm for
  // substring search of accounts and users through GIN indexes, as on PostgreSQL).
  const client = new PGliteWorkerClient({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    // The tests open a database per file: compiled once per process, not once per database.
    wasmModule: options.loadDataDir ? await compiledPglite() : undefined,
  });
  try {
    await client.waitReady;
  } catch (error) {
    await client.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
  // Drizzle's PGlite driver needs only query and transaction, which the worker's client has.
  const pglite = client as unknown as PGlite;
  const db = drizzlePglite({ client: pglite, schema, casing: 'snake_case', logger }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    listen: (channel, callback) => client.listen(channel, callback),
    migrate: () =>
      migratePglite(drizzlePglite({ client: pglite, schema, casing: 'snake_case' }), {
        migrationsFolder: MIGRATIONS_FOLDER,
      }),
    close: async () => {
      await client.close();
      await lock?.release();
    },
  };
};

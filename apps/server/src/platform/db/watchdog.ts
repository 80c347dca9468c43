import type net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

/** How often the watched connections are looked at. */
const CHECK_EVERY_MS = 500;
/** A query that has heard nothing from the server this long is asked about. */
const SILENT_MS = 1000;
/** When the server cannot be asked (no connection, no answer in time), a query silent this long is given up. */
const UNREACHABLE_MS = 5000;
/** The watchdog's own connection and question take at most this long. */
const ASK_TIMEOUT_MS = 2000;
/** How much younger than the connection its server process may seem (both ages are measured a little apart). */
const REUSED_PID_MARGIN_MS = 1000;
/** Names the watchdog's connection in pg_stat_activity. */
export const WATCHDOG_APPLICATION_NAME = 'media-db-watchdog';

/** The error of the queries of a connection given up: `ETIMEDOUT` makes it a lost connection (503, errors.ts). */
const stoppedAnswering = () =>
  Object.assign(new Error('the database connection stopped answering'), { code: 'ETIMEDOUT' });

type Watched = {
  /** When each query under way was sent. */
  queries: Set<{ since: number }>;
  /** When the connection was watched from (its server process started before: it is older). */
  since: number;
  bytesRead: number;
  /** When bytes from the server last arrived, as far as the checks saw. */
  heardAt: number;
  /** Whether nobody is using the connection (a pool's unused one). */
  idle: () => boolean;
};

/** A server process as pg_stat_activity shows it; `ageMs`: how long ago it started. */
type Backend = { state: string | null; waitEvent: string | null; ageMs: number };

/**
 * Finds the database connections that stopped answering and gives them up, so that a request never waits
 * for an answer that will not come. A connection ended by the server (a restart, pg_terminate_backend) says
 * so and fails at once; one whose link was lost without a word (a network fault, a frozen host or proxy,
 * a half-open socket) would leave its query waiting for ever, and any request that shares that query (the
 * auth epoch's read) with it: the probe saw a storm of ended connections leave requests waiting 56 s.
 *
 * A query that has heard nothing for a second is checked on a connection of the watchdog's own: if the
 * server process it ran on is gone, or is not working on it (idle: its answer was lost on the way), the
 * connection is given up: its socket is destroyed, its queries fail as a lost connection (503) and the pool
 * opens a new one; the server process, if still there, is ended so that it frees its locks. A query the
 * server is still working on (a long statement, a lock wait) is left alone, however long it takes. When the
 * server cannot be asked at all, a query silent for 5 s is given up. (Behind a pooler such as PgBouncer the
 * process ids tell nothing, and only that last rule applies.)
 */
export class ConnectionWatchdog {
  private readonly watched = new Map<pg.Client, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private asker: pg.Client | undefined;
  /** Whether the process ids of clients are those of pg_stat_activity (not behind a pooler). */
  private pidsTell = true;
  private closed = false;

  constructor(private readonly options: { url: string; log?: Pick<FastifyBaseLogger, 'warn'> }) {}

  /** Watches every connection of a pool; those the pool holds unused count as idle. */
  watchPool(pool: pg.Pool) {
    const inUse = new WeakSet<pg.PoolClient>();
    pool.on('acquire', (client) => inUse.add(client));
    pool.on('release', (_error, client) => inUse.delete(client));
    pool.on('connect', (client) => this.watch(client, () => !inUse.has(client)));
  }

  /**
   * Watches a connected client until it ends. `idle`: whether nobody is using it (default: no query under
   * way); an idle client is dropped when another connection made after it is given up.
   */
  watch(client: pg.Client, idle?: () => boolean) {
    if (this.closed) return;
    const socket = client.connection.stream as net.Socket;
    const watched: Watched = {
      queries: new Set(),
      since: Date.now(),
      bytesRead: socket.bytesRead,
      heardAt: Date.now(),
      idle: idle ?? (() => watched.queries.size === 0),
    };
    this.watched.set(client, watched);
    client.once('end', () => this.watched.delete(client));
    // pg's query has a dozen overloads (text or config, values, callback, promise); the wrapper passes its
    // arguments through unchanged and notes when the query was sent and when it settled.
    const query = client.query as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const entry = { since: Date.now() };
      const settled = () => {
        watched.queries.delete(entry);
      };
      const callbackAt = args.findIndex((arg, index) => index > 0 && typeof arg === 'function');
      if (callbackAt > 0) {
        const callback = args[callbackAt] as (...answer: unknown[]) => unknown;
        args[callbackAt] = (...answer: unknown[]) => {
          settled();
          return callback(...answer);
        };
      }
      watched.queries.add(entry);
      let result: unknown;
      try {
        result = query.apply(this, args);
      } catch (error) {
        settled();
        throw error;
      }
      if (result instanceof Promise) result.then(settled, settled);
      // A submittable (a cursor, a stream) reports its own end; none is used, so it is not watched.
      else if (callbackAt < 0) settled();
      return result;
    };
    this.timer ??= setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  private async check() {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      await this.checkNow();
    } catch (error) {
      this.options.log?.warn({ err: error }, 'the database connection watchdog failed a check');
    } finally {
      this.checking = false;
    }
  }

  private async checkNow() {
    const now = Date.now();
    const suspects: { client: pg.Client; watched: Watched; silentFor: number }[] = [];
    for (const [client, watched] of this.watched) {
      const bytesRead = (client.connection.stream as net.Socket).bytesRead;
      if (bytesRead !== watched.bytesRead) {
        watched.bytesRead = bytesRead;
        watched.heardAt = now;
      }
      let oldest: number | undefined;
      for (const query of watched.queries) oldest = Math.min(oldest ?? query.since, query.since);
      if (oldest === undefined) continue;
      const silentFor = now - Math.max(oldest, watched.heardAt);
      if (silentFor >= SILENT_MS) suspects.push({ client, watched, silentFor });
    }
    if (!suspects.length) {
      // Nothing to ask about: the watchdog holds no connection while all is well.
      this.dropAsker('end');
      if (!this.watched.size && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
      return;
    }
    const pids = suspects.map(({ client }) => processIdOf(client)).filter((pid) => pid !== undefined);
    const backends = await this.ask(pids);
    const endings: Promise<unknown>[] = [];
    for (const { client, watched, silentFor } of suspects) {
      // The query may have been answered while the server was asked.
      if (!this.watched.has(client) || watched.queries.size === 0) continue;
      const pid = processIdOf(client);
      if (backends === undefined) {
        if (silentFor >= UNREACHABLE_MS) endings.push(this.giveUp(client));
        continue;
      }
      if (backends === 'cannot tell') continue;
      const backend = pid === undefined ? undefined : backends.get(pid);
      // A process clearly younger than this connection is another connection's (its id was reused).
      const ours =
        backend && backend.ageMs >= now - watched.since - REUSED_PID_MARGIN_MS ? backend : undefined;
      if (ours && working(ours)) continue;
      endings.push(this.giveUp(client, ours ? pid : undefined));
    }
    await Promise.all(endings);
  }

  /** The server processes of these ids, or undefined when the server cannot be asked. */
  private async ask(pids: number[]): Promise<Map<number, Backend> | 'cannot tell' | undefined> {
    try {
      if (!this.asker) {
        const asker = new pg.Client({
          connectionString: this.options.url,
          application_name: WATCHDOG_APPLICATION_NAME,
          connectionTimeoutMillis: ASK_TIMEOUT_MS,
          query_timeout: ASK_TIMEOUT_MS,
        });
        asker.on('error', () => {
          if (this.asker === asker) this.dropAsker('destroy');
        });
        this.asker = asker;
        await asker.connect();
        // Behind a connection pooler (PgBouncer) a client's process id is not the server's: nothing can be
        // told from pg_stat_activity then, and only the unreachable rule applies.
        const { rows } = await asker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        this.pidsTell = rows[0]?.pid === processIdOf(asker);
      }
      if (!this.pidsTell) return 'cannot tell';
      // Ages, not times: the server's clock and ours need not agree.
      const { rows } = await this.asker.query<{
        pid: number;
        state: string | null;
        wait_event: string | null;
        age_ms: number;
      }>(
        `SELECT pid, state, wait_event, (extract(epoch FROM clock_timestamp() - backend_start) * 1000)::float8 AS age_ms
           FROM pg_stat_activity WHERE pid = ANY($1::int[])`,
        [pids],
      );
      return new Map(
        rows.map((row) => [row.pid, { state: row.state, waitEvent: row.wait_event, ageMs: row.age_ms }]),
      );
    } catch {
      this.dropAsker('destroy');
      return undefined;
    }
  }

  /** Ends the watchdog's connection: politely when all is well, at once when it failed. */
  private dropAsker(how: 'end' | 'destroy') {
    const asker = this.asker;
    this.asker = undefined;
    if (!asker) return;
    asker.removeAllListeners('error');
    asker.on('error', () => {});
    if (how === 'end') void asker.end().catch(() => undefined);
    else asker.connection.stream.destroy();
  }

  /**
   * Fails the connection's queries as a lost connection and ends its server process if it is still there.
   * The idle connections made before its query was sent may have lost their link too (nothing tells while
   * they are unused, and the next request given one would wait for it): they are dropped, and their pools
   * open new ones when needed.
   */
  private async giveUp(client: pg.Client, pid?: number) {
    const lost = this.watched.get(client);
    this.watched.delete(client);
    client.connection.stream.destroy(stoppedAnswering());
    let sentAt = Date.now();
    for (const query of lost?.queries ?? []) sentAt = Math.min(sentAt, query.since);
    let dropped = 0;
    for (const [other, watched] of this.watched) {
      if (watched.since >= sentAt || !watched.idle()) continue;
      this.watched.delete(other);
      other.connection.stream.destroy(stoppedAnswering());
      dropped++;
    }
    this.options.log?.warn(
      { pid, idleDropped: dropped },
      'a database connection stopped answering; it is given up and new ones are made',
    );
    if (pid !== undefined)
      await this.asker?.query('SELECT pg_terminate_backend($1)', [pid]).catch(() => undefined);
  }

  close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
    this.dropAsker('end');
  }
}

/** The server process id of a connected client (pg keeps it from the server's BackendKeyData). */
const processIdOf = (client: pg.Client) => (client as unknown as { processID?: number }).processID;

/**
 * Whether the server is working on the connection's statement: running it or waiting for a lock, but not
 * waiting to send it to us or to read from us (then the link is what fails).
 */
const working = (backend: Backend) =>
  backend.state === 'active' && backend.waitEvent !== 'ClientWrite' && backend.waitEvent !== 'ClientRead';

import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { KEEP_ALIVE_AFTER_MS, POOL_WAIT_MS } from '../db/client.ts';

/** A change was stored under this id on this channel; `reset` tells waiters to look again (after a lost link). */
export type ChangeNotice = { id: number; channel: string } | { reset: true };

export type LiveBus = {
  notify: (notice: { id: number; channel: string }) => Promise<void>;
  subscribe: (listener: (notice: ChangeNotice) => void) => () => void;
  close: () => Promise<void>;
};

const listenersSet = () => {
  const listeners = new Set<(notice: ChangeNotice) => void>();
  return {
    add(listener: (notice: ChangeNotice) => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(notice: ChangeNotice) {
      for (const listener of listeners) listener(notice);
    },
  };
};

/** PGlite serves one instance: changes only need to reach this process's long-pollers. */
export const createInProcessBus = (): LiveBus => {
  const listeners = listenersSet();
  return {
    notify: async (notice) => listeners.emit(notice),
    subscribe: listeners.add,
    close: async () => {},
  };
};

const CHANNEL = 'live_changes';
/** Names the listening connection in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'media-live-listener';
const HEARTBEAT_MS = 5000;
const HEARTBEAT_TIMEOUT_MS = 3000;
const RECONNECT_MS = 1000;

/**
 * PostgreSQL LISTEN/NOTIFY between instances. LISTEN runs on one dedicated client; NOTIFY carries only
 * `id:channel`; a `SELECT 1` every 5 s with a 3 s time-out finds a half-open link, which is replaced,
 * and waiters are told to look again so nothing published meanwhile is missed.
 */
export const createPostgresBus = async (options: {
  url: string;
  pool: pg.Pool;
  log: FastifyBaseLogger;
}): Promise<LiveBus> => {
  const listeners = listenersSet();
  let client: pg.Client | undefined;
  let closed = false;
  let heartbeat: NodeJS.Timeout | undefined;

  /** Stops reacting to a replaced client; a late 'error' of its socket must still find a listener. */
  const forget = (old: pg.Client) => {
    old.removeAllListeners();
    old.on('error', () => {});
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({
      connectionString: options.url,
      application_name: LISTENER_APPLICATION_NAME,
      // A server that cannot be reached fails the attempt (and the next one follows), rather than holding
      // the listener's reconnection for as long as TCP waits.
      connectionTimeoutMillis: POOL_WAIT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
    });
    // Listening from the start: an 'error' event without a listener would end the process. Until `next` is
    // the listener, its failures are answered by the catch below; afterwards they replace it.
    next.on('error', () => {
      if (client === next) void reconnect();
    });
    next.on('end', () => {
      if (client === next) void reconnect();
    });
    try {
      await next.connect();
      next.on('notification', (message) => {
        const payload = message.payload ?? '';
        const colon = payload.indexOf(':');
        const id = Number(payload.slice(0, colon));
        if (colon > 0 && Number.isFinite(id)) listeners.emit({ id, channel: payload.slice(colon + 1) });
      });
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
      listeners.emit({ reset: true });
    } catch (error) {
      options.log.warn({ err: error }, 'live-update listener could not connect; retrying');
      await next.end().catch(() => {});
      setTimeout(() => void connect(), RECONNECT_MS).unref();
    }
  };

  const reconnect = async () => {
    const old = client;
    if (!old || closed) return;
    client = undefined;
    forget(old);
    await old.end().catch(() => {});
    options.log.warn('live-update listener lost its connection; reconnecting');
    await connect();
  };

  await connect();
  heartbeat = setInterval(() => {
    const current = client;
    if (!current) return;
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('heartbeat timed out')), HEARTBEAT_TIMEOUT_MS).unref(),
    );
    Promise.race([current.query('SELECT 1'), timeout]).catch(() => void reconnect());
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    notify: async ({ id, channel }) => {
      await options.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, `${id}:${channel}`]);
    },
    subscribe: listeners.add,
    close: async () => {
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      const current = client;
      client = undefined;
      if (current) forget(current);
      await current?.end().catch(() => {});
    },
  };
};

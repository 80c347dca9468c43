import { DASHBOARD_RECENT_LIMIT, DIAGNOSTIC_EDGE_SERVERS_LIMIT } from '@media/contract';
import { and, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { BOSS_SCHEMA } from '../../platform/jobs/jobs.ts';
import { mailOutbox } from '../../platform/mail-tables.ts';
import { edgeServerConnected, edgeServers } from '../edge/tables.ts';
import { ingestQueueItems } from '../ingest/tables.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';

const bossSchema = sql.identifier(BOSS_SCHEMA);

/** The rows of a raw statement, on either driver (both answer `{ rows }`). */
const rowsOf = <T>(result: unknown): T[] => {
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
};

// ---- diagnostics -------------------------------------------------------------------------------

export const ping = async (db: DbOrTx) => {
  await db.execute(sql`select 1`);
};

export const findServerVersion = async (db: DbOrTx) => {
  const [row] = rowsOf<{ server_version: string }>(await db.execute(sql`show server_version`));
  return row?.server_version ?? 'unknown';
};

/** Jobs per pg-boss queue and state; every queue, also those without jobs. */
export const countJobsByQueue = async (db: DbOrTx) =>
  rowsOf<{ name: string; state: string | null; count: number }>(
    await db.execute(sql`
      select q.name, j.state::text as state, count(j.id)::int as count
        from ${bossSchema}.queue q
        left join ${bossSchema}.job j on j.name = q.name
       group by q.name, j.state
       order by q.name`),
  );

export const countMailOutbox = async (db: DbOrTx) => {
  const [row] = await db.select({ count: count() }).from(mailOutbox);
  return row?.count ?? 0;
};

export const countEdgeServers = async (db: DbOrTx) => {
  const [row] = await db
    .select({
      total: count(),
      connected: sql<number>`count(*) filter (where ${edgeServerConnected()})::int`,
    })
    .from(edgeServers);
  return { total: row?.total ?? 0, connected: Number(row?.connected ?? 0) };
};

export const findEdgeServersBySeen = (db: DbOrTx) =>
  db
    .select({
      id: edgeServers.id,
      name: edgeServers.name,
      type: edgeServers.type,
      connected: edgeServerConnected(),
      lastSeenAt: edgeServers.lastSeenAt,
    })
    .from(edgeServers)
    .orderBy(sql`${edgeServers.lastSeenAt} desc nulls last`, desc(edgeServers.id))
    .limit(DIAGNOSTIC_EDGE_SERVERS_LIMIT);

// ---- account dashboard -------------------------------------------------------------------------

export const findAccountName = async (db: DbOrTx, accountId: number) => {
  const [row] = await db
    .select({ id: accounts.id, name: accounts.name })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row;
};

/** The account's folders that have permission entries (few; a partial index finds them). */
/** The account's nodes below the root that `visible` lets the caller see (nodes' notHidden). */
const visibleNodes = (accountId: number, visible: SQL | undefined) =>
  and(eq(nodes.accountId, accountId), ne(nodes.path, '/'), visible);

export const countNodesByType = (db: DbOrTx, accountId: number, visible: SQL | undefined) =>
  db
    .select({ key: nodes.type, count: count() })
    .from(nodes)
    .where(visibleNodes(accountId, visible))
    .groupBy(nodes.type);

export const findRecentNodes = (db: DbOrTx, accountId: number, visible: SQL | undefined) =>
  db
    .select({
      id: nodes.id,
      path: nodes.path,
      name: nodes.name,
      type: nodes.type,
      createdAt: nodes.createdAt,
    })
    .from(nodes)
    .where(visibleNodes(accountId, visible))
    .orderBy(desc(nodes.createdAt), desc(nodes.id))
    .limit(DASHBOARD_RECENT_LIMIT);

export const sumMediaFiles = async (db: DbOrTx, accountId: number) => {
  const [row] = await db
    .select({
      files: sql<number>`count(*) filter (where ${media.storagePath} is not null)::int`,
      bytes: sql<string>`coalesce(sum(${media.size}), 0)::text`,
      processing: sql<number>`count(*) filter (where ${media.status} = 'processing')::int`,
      failed: sql<number>`count(*) filter (where ${media.status} = 'failed')::int`,
    })
    .from(media)
    .where(eq(media.accountId, accountId));
  return {
    files: Number(row?.files ?? 0),
    bytes: Number(row?.bytes ?? 0),
    processing: Number(row?.processing ?? 0),
    failed: Number(row?.failed ?? 0),
  };
};

export const countQueueByStatus = (db: DbOrTx, accountId: number) =>
  db
    .select({ key: ingestQueueItems.status, count: count() })
    .from(ingestQueueItems)
    .where(eq(ingestQueueItems.accountId, accountId))
    .groupBy(ingestQueueItems.status);

/** When a queue item last changed: its latest queued, started or finished time. */
const queueItemChangedAt = sql<Date>`greatest(${ingestQueueItems.whenQueued}, ${ingestQueueItems.whenStarted}, ${ingestQueueItems.whenFinished})`;

/**
 * The account's queue items that changed last, by the time they show (ties by the write order): the
 * account's index finds its items, the limit bounds the answer.
 */
export const findRecentQueueItems = (db: DbOrTx, accountId: number) =>
  db
    .select({
      id: ingestQueueItems.id,
      clipName: ingestQueueItems.clipName,
      sourceName: ingestQueueItems.sourceName,
      status: ingestQueueItems.status,
      progress: ingestQueueItems.progress,
      changedAt: queueItemChangedAt.mapWith(ingestQueueItems.whenQueued),
    })
    .from(ingestQueueItems)
    .where(eq(ingestQueueItems.accountId, accountId))
    .orderBy(desc(queueItemChangedAt), desc(ingestQueueItems.version))
    .limit(DASHBOARD_RECENT_LIMIT);

import type { IngestQueueQuery, IngestStatus } from '@media/contract';
import { and, asc, desc, eq, gt, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { edgeServers, endpoints, services } from '../edge/tables.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { ingestQueueItems, unprocessedFiles } from './tables.ts';

/** Which queue a list reads: each has its own (scope, rank, id) index in ingest/tables.ts. */
export type QueueScope =
  | { edgeServerId: number }
  | { arrivalsFolderId: number }
  | { accountId: number }
  | { endpointId: number };

const scopeWhere = (scope: QueueScope): SQL =>
  'edgeServerId' in scope
    ? eq(ingestQueueItems.edgeServerId, scope.edgeServerId)
    : 'arrivalsFolderId' in scope
      ? eq(ingestQueueItems.arrivalsFolderId, scope.arrivalsFolderId)
      : 'accountId' in scope
        ? eq(ingestQueueItems.accountId, scope.accountId)
        : eq(ingestQueueItems.endpointId, scope.endpointId);

const SORT_COLUMNS = {
  id: ingestQueueItems.id,
  rank: ingestQueueItems.rank,
  priority: ingestQueueItems.priority,
  status: ingestQueueItems.status,
  clipName: ingestQueueItems.clipName,
  reelName: ingestQueueItems.reelName,
  whenQueued: ingestQueueItems.whenQueued,
  whenStarted: ingestQueueItems.whenStarted,
  whenFinished: ingestQueueItems.whenFinished,
  scheduledStartTime: ingestQueueItems.scheduledStartTime,
} as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export type QueueFilter = {
  statuses: IngestStatus[];
  kinds: ('files' | 'streams' | 'schedules')[];
  search?: string;
  extendedSearch: boolean;
  sinceVersion?: number;
  endpointIds?: number[];
};

/**
 * The conditions of spec2 §7's query: statuses OR-ed, kinds OR-ed, the two groups AND-ed; deleted items only
 * when a filter names them or for an incremental read (so clients drop them).
 */
const filterWhere = (filter: QueueFilter): SQL[] => {
  const where: SQL[] = [];
  if (filter.sinceVersion !== undefined) {
    where.push(gt(ingestQueueItems.version, filter.sinceVersion));
    if (filter.statuses.length)
      where.push(inArray(ingestQueueItems.status, [...new Set([...filter.statuses, 'deleted' as const])]));
  } else if (filter.statuses.length) where.push(inArray(ingestQueueItems.status, filter.statuses));
  else where.push(ne(ingestQueueItems.status, 'deleted'));
  const kinds = filter.kinds.map((kind) =>
    kind === 'files'
      ? eq(ingestQueueItems.isStream, false)
      : kind === 'streams'
        ? eq(ingestQueueItems.isStream, true)
        : eq(ingestQueueItems.isSchedule, true),
  );
  if (kinds.length) where.push(or(...kinds) as SQL);
  if (filter.search) {
    const pattern = `%${escapeLike(filter.search)}%`;
    const columns: AnyPgColumn[] = [
      ingestQueueItems.clipName,
      ingestQueueItems.reelName,
      ingestQueueItems.sourceName,
    ];
    if (filter.extendedSearch) columns.push(ingestQueueItems.diskLabel, ingestQueueItems.queueId);
    where.push(or(...columns.map((column) => ilike(column, pattern))) as SQL);
  }
  if (filter.endpointIds) where.push(inArray(ingestQueueItems.endpointId, filter.endpointIds));
  return where;
};

const itemColumns = {
  id: ingestQueueItems.id,
  status: ingestQueueItems.status,
  isStream: ingestQueueItems.isStream,
  isSchedule: ingestQueueItems.isSchedule,
  endpointId: ingestQueueItems.endpointId,
  edgeServerId: ingestQueueItems.edgeServerId,
  accountId: ingestQueueItems.accountId,
  arrivalsFolderId: ingestQueueItems.arrivalsFolderId,
  queueId: ingestQueueItems.queueId,
  sourceName: ingestQueueItems.sourceName,
  reelName: ingestQueueItems.reelName,
  diskLabel: ingestQueueItems.diskLabel,
  clipName: ingestQueueItems.clipName,
  scheduledStartTime: ingestQueueItems.scheduledStartTime,
  priority: ingestQueueItems.priority,
  rank: ingestQueueItems.rank,
  whenQueued: ingestQueueItems.whenQueued,
  whenStarted: ingestQueueItems.whenStarted,
  whenFinished: ingestQueueItems.whenFinished,
  duration: ingestQueueItems.duration,
  fileSize: ingestQueueItems.fileSize,
  proxyWidth: ingestQueueItems.proxyWidth,
  proxyHeight: ingestQueueItems.proxyHeight,
  progress: ingestQueueItems.progress,
  error: ingestQueueItems.error,
  forced: ingestQueueItems.forced,
  stopRequestedAt: ingestQueueItems.stopRequestedAt,
  version: ingestQueueItems.version,
  endpointName: endpoints.name,
  endpointServiceId: endpoints.serviceId,
  endpointTypeId: endpoints.typeId,
  endpointOptions: endpoints.options,
  endpointStatus: endpoints.status,
  /** The endpoint records this item now: it says it records, and this is its newest item in ingest. */
  endpointRecording: sql<boolean>`(${endpoints.recording} and ${ingestQueueItems.status} = 'ingesting' and ${ingestQueueItems.id} = (select max(q.id) from ingest_queue_items q where q.endpoint_id = ${ingestQueueItems.endpointId} and q.status = 'ingesting'))`,
  serviceGroupId: services.serviceGroupId,
  liveNodeId: nodes.id,
  liveNodePath: nodes.path,
  liveMediaId: media.id,
  liveMediaType: media.type,
  liveAccountName: accounts.name,
};

const selectItems = (db: DbOrTx) =>
  db
    .select(itemColumns)
    .from(ingestQueueItems)
    .leftJoin(endpoints, eq(endpoints.id, ingestQueueItems.endpointId))
    .leftJoin(services, eq(services.id, endpoints.serviceId))
    .leftJoin(nodes, eq(nodes.id, ingestQueueItems.liveNodeId))
    .leftJoin(media, eq(media.id, nodes.mediaId))
    .leftJoin(accounts, eq(accounts.id, nodes.accountId));

export type ItemRow = Awaited<ReturnType<ReturnType<typeof selectItems>['execute']>>[number];

/** One page of a queue; the total comes off a short first page without a second query. */
export const findQueuePage = async (
  db: DbOrTx,
  scope: QueueScope,
  filter: QueueFilter,
  page: Pick<IngestQueueQuery, 'offset' | 'pageSize' | 'sortKey' | 'sortDirection'> & {
    priorityMap?: Record<number, number>;
  },
) => {
  const where = and(scopeWhere(scope), ...filterWhere(filter));
  const order = page.sortDirection === 1 ? asc : desc;
  const boosts = Object.entries(page.priorityMap ?? {});
  const boost = boosts.length
    ? [
        desc(
          sql`case ${ingestQueueItems.endpointId} ${sql.join(
            boosts.map(([id, value]) => sql`when ${Number(id)} then ${value}::double precision`),
            sql` `,
          )} else 0 end`,
        ),
      ]
    : [];
  // The page's ids come off the queue's own index alone, with the count beside them (PostgreSQL serves the
  // two on two connections); the joins then run for the page's rows only.
  const [idRows, counted] = await Promise.all([
    db
      .select({ id: ingestQueueItems.id })
      .from(ingestQueueItems)
      .where(where)
      .orderBy(...boost, order(SORT_COLUMNS[page.sortKey]), order(ingestQueueItems.id))
      .limit(page.pageSize)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(ingestQueueItems).where(where),
  ]);
  const ids = idRows.map((row) => row.id);
  const byId = new Map((await findItems(db, ids)).map((row) => [row.id, row]));
  const rows = ids.map((id) => byId.get(id)).filter((row): row is ItemRow => row !== undefined);
  const total = counted[0]?.n ?? 0;
  return { rows, total };
};

/** The newest version handed out; a client passes it back as sinceVersion. */
export const currentVersion = async (db: DbOrTx) => {
  const result = await db.execute<{ version: string | number }>(
    sql`select case when is_called then last_value else 0 end as version from ingest_queue_version`,
  );
  const rows = (result as { rows?: { version: string | number }[] }).rows ?? (result as never[]);
  return Number(rows[0]?.version ?? 0);
};

/** The services of each service group: a queue item shows where its group runs. */
export const findGroupServices = async (db: DbOrTx, groupIds: number[]) => {
  if (!groupIds.length) return new Map<number, { id: number; edgeId: number }[]>();
  const rows = await db
    .select({ id: services.id, edgeId: services.edgeServerId, groupId: services.serviceGroupId })
    .from(services)
    .where(inArray(services.serviceGroupId, groupIds))
    .orderBy(asc(services.id));
  const byGroup = new Map<number, { id: number; edgeId: number }[]>();
  for (const row of rows)
    byGroup.set(row.groupId, [...(byGroup.get(row.groupId) ?? []), { id: row.id, edgeId: row.edgeId }]);
  return byGroup;
};

export const findItems = (db: DbOrTx, ids: number[]) =>
  ids.length ? selectItems(db).where(inArray(ingestQueueItems.id, ids)) : Promise.resolve([]);

export const findItem = async (db: DbOrTx, id: number) => (await findItems(db, [id]))[0];

/** Items named by spec2's trash ids, 'edgeServerId:endpointId:queueId'. */
export const findItemsByKeys = (
  db: DbOrTx,
  keys: { edgeServerId: number; endpointId: number; queueId: string }[],
) =>
  selectItems(db).where(
    or(
      ...keys.map((key) =>
        and(
          eq(ingestQueueItems.edgeServerId, key.edgeServerId),
          eq(ingestQueueItems.endpointId, key.endpointId),
          eq(ingestQueueItems.queueId, key.queueId),
        ),
      ),
    ),
  );

export const findItemDetails = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: ingestQueueItems.id,
      edgeServerId: ingestQueueItems.edgeServerId,
      accountId: ingestQueueItems.accountId,
      log: ingestQueueItems.log,
      thumbnailPath: ingestQueueItems.thumbnailPath,
    })
    .from(ingestQueueItems)
    .where(eq(ingestQueueItems.id, id));
  return row;
};

export type ItemChange = Partial<
  Pick<
    typeof ingestQueueItems.$inferInsert,
    | 'status'
    | 'error'
    | 'reelName'
    | 'diskLabel'
    | 'clipName'
    | 'scheduledStartTime'
    | 'priority'
    | 'duration'
    | 'whenStarted'
    | 'whenFinished'
    | 'rank'
    | 'stopRequestedAt'
  >
>;

/** Every write takes the next version, so sinceVersion readers see it. */
export const updateItem = (db: DbOrTx, id: number, change: ItemChange) =>
  db
    .update(ingestQueueItems)
    .set({ ...change, version: sql`nextval('ingest_queue_version')` })
    .where(eq(ingestQueueItems.id, id));

/** Changes an item only while it is in `status`; answers whether it did. */
export const updateItemInStatus = async (db: DbOrTx, id: number, status: string, change: ItemChange) =>
  (
    await db
      .update(ingestQueueItems)
      .set({ ...change, version: sql`nextval('ingest_queue_version')` })
      .where(and(eq(ingestQueueItems.id, id), eq(ingestQueueItems.status, status)))
      .returning({ id: ingestQueueItems.id })
  ).length > 0;

export const markDeleted = (db: DbOrTx, ids: number[]) =>
  db
    .update(ingestQueueItems)
    .set({ status: 'deleted', version: sql`nextval('ingest_queue_version')` })
    .where(inArray(ingestQueueItems.id, ids));

export const deleteItems = (db: DbOrTx, ids: number[]) =>
  db.delete(ingestQueueItems).where(inArray(ingestQueueItems.id, ids));

/** A new schedule beside a stream, last in its edge server's order. */
export const insertSchedule = async (
  db: DbOrTx,
  values: Omit<typeof ingestQueueItems.$inferInsert, 'rank'>,
) => {
  const [row] = await db
    .insert(ingestQueueItems)
    .values({
      ...values,
      rank: sql`(select coalesce(max(${ingestQueueItems.rank}), 0) + 1 from ${ingestQueueItems} where ${ingestQueueItems.edgeServerId} = ${values.edgeServerId})`,
    })
    .returning({ id: ingestQueueItems.id });
  return (row as { id: number }).id;
};

export const findEdgeServer = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ id: edgeServers.id, userId: edgeServers.userId, siteId: edgeServers.siteId })
    .from(edgeServers)
    .where(eq(edgeServers.id, id));
  return row;
};

export const findEdgeServers = (db: DbOrTx, ids: number[]) =>
  db
    .select({ id: edgeServers.id, userId: edgeServers.userId, siteId: edgeServers.siteId })
    .from(edgeServers)
    .where(inArray(edgeServers.id, ids));

export const findFolder = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({ id: arrivalsFolders.id, accountId: arrivalsFolders.accountId })
    .from(arrivalsFolders)
    .where(eq(arrivalsFolders.id, id));
  return row;
};

/** An endpoint with its account and its edge server's owner and site. */
export const findEndpointEdges = (db: DbOrTx, ids: number[]) =>
  db
    .select({
      id: endpoints.id,
      accountId: endpoints.accountId,
      edgeServerId: edgeServers.id,
      userId: edgeServers.userId,
      siteId: edgeServers.siteId,
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(inArray(endpoints.id, ids));

// ---- unprocessed files ------------------------------------------------------------------------

const fileColumns = {
  id: unprocessedFiles.id,
  endpointId: unprocessedFiles.endpointId,
  path: unprocessedFiles.path,
  status: unprocessedFiles.status,
  forced: unprocessedFiles.forced,
  firstSeen: unprocessedFiles.firstSeen,
};

export const findUnprocessedPage = async (
  db: DbOrTx,
  endpointId: number,
  page: { offset: number; limit: number },
) => {
  const where = eq(unprocessedFiles.endpointId, endpointId);
  const rows = await db
    .select(fileColumns)
    .from(unprocessedFiles)
    .where(where)
    .orderBy(asc(unprocessedFiles.path), asc(unprocessedFiles.id))
    .limit(page.limit)
    .offset(page.offset);
  const total =
    rows.length < page.limit && (rows.length > 0 || page.offset === 0)
      ? page.offset + rows.length
      : ((await db.select({ n: sql<number>`count(*)::int` }).from(unprocessedFiles).where(where))[0]?.n ?? 0);
  return { rows, total };
};

export const findUnprocessedFiles = (db: DbOrTx, ids: number[]) =>
  db.select(fileColumns).from(unprocessedFiles).where(inArray(unprocessedFiles.id, ids));

export const setForced = (db: DbOrTx, id: number, forced: boolean) =>
  db.update(unprocessedFiles).set({ forced }).where(eq(unprocessedFiles.id, id));

export const deleteUnprocessedFiles = (db: DbOrTx, ids: number[]) =>
  db.delete(unprocessedFiles).where(inArray(unprocessedFiles.id, ids));

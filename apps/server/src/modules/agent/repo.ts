import { accountPath, cleanName } from '@media/contract';
import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../platform/db/client.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { ingestFormats } from '../config/tables.ts';
import { edgeCommands, edgeServers, endpoints, services } from '../edge/tables.ts';
import { ingestQueueItems, unprocessedFiles } from '../ingest/tables.ts';
import { INGEST_QUEUE_ITEM_KEY } from '../nodes/ingested.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts, workflows } from '../organisation/tables.ts';

export const findEdgeByTokenHash = async (db: DbOrTx, tokenHash: string) => {
  const [row] = await db
    .select({
      id: edgeServers.id,
      name: edgeServers.name,
      userId: edgeServers.userId,
      siteId: edgeServers.siteId,
      lastSeenAt: edgeServers.lastSeenAt,
      advancedOptions: edgeServers.advancedOptions,
    })
    .from(edgeServers)
    .where(eq(edgeServers.agentTokenHash, tokenHash));
  return row;
};

export const recordHeartbeat = (db: DbOrTx, edgeServerId: number, endpointVersions: Record<string, string>) =>
  db
    .update(edgeServers)
    .set({ lastSeenAt: sql`now()`, endpointVersions })
    .where(eq(edgeServers.id, edgeServerId));

/** The edge's endpoints with what their ingest needs: the account fed, its folder, workflow and max video. */
export const listEdgeEndpoints = (db: DbOrTx, edgeServerId: number) =>
  db
    .select({
      id: endpoints.id,
      serviceId: endpoints.serviceId,
      name: endpoints.name,
      typeId: endpoints.typeId,
      options: endpoints.options,
      status: endpoints.status,
      online: endpoints.online,
      accountId: endpoints.accountId,
      arrivalsFolderId: endpoints.arrivalsFolderId,
      arrivalsSetBy: endpoints.arrivalsSetBy,
      serviceOptions: services.options,
      serviceTypeId: services.typeId,
      feedsAccountId: sql<number | null>`coalesce(${arrivalsFolders.accountId}, ${endpoints.accountId})`,
      folderTypeId: arrivalsFolders.typeId,
      folderOptions: arrivalsFolders.options,
      workflowDefinition: workflows.definition,
      accountMaxVideo: accounts.maxVideo,
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .leftJoin(arrivalsFolders, eq(arrivalsFolders.id, endpoints.arrivalsFolderId))
    .leftJoin(workflows, eq(workflows.id, endpoints.workflowId))
    .leftJoin(accounts, eq(accounts.id, sql`coalesce(${arrivalsFolders.accountId}, ${endpoints.accountId})`))
    .where(eq(services.edgeServerId, edgeServerId))
    .orderBy(asc(endpoints.id));

/** The ingest formats of some accounts, in their order. */
export const ingestFormatsOf = async (db: DbOrTx, accountIds: number[]) => {
  const byAccount = new Map<number, string[]>();
  if (!accountIds.length) return byAccount;
  const rows = await db
    .select({ accountId: ingestFormats.accountId, format: ingestFormats.format })
    .from(ingestFormats)
    .where(inArray(ingestFormats.accountId, accountIds))
    .orderBy(asc(ingestFormats.accountId), asc(ingestFormats.position));
  for (const row of rows) byAccount.set(row.accountId, [...(byAccount.get(row.accountId) ?? []), row.format]);
  return byAccount;
};

export const findEdgeEndpoint = async (db: DbOrTx, edgeServerId: number, endpointId: number) => {
  const [row] = await db
    .select({
      id: endpoints.id,
      accountId: endpoints.accountId,
      arrivalsFolderId: endpoints.arrivalsFolderId,
      arrivalsSetBy: endpoints.arrivalsSetBy,
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .where(and(eq(endpoints.id, endpointId), eq(services.edgeServerId, edgeServerId)));
  return row;
};

export const pendingCommands = (db: DbOrTx, edgeServerId: number) =>
  db
    .select({ id: edgeCommands.id, action: edgeCommands.action, targetId: edgeCommands.targetId })
    .from(edgeCommands)
    .where(and(eq(edgeCommands.edgeServerId, edgeServerId), isNull(edgeCommands.doneAt)))
    .orderBy(asc(edgeCommands.id))
    .limit(50);

export const completeCommand = async (
  db: DbOrTx,
  edgeServerId: number,
  commandId: number,
  result: Record<string, string | number | boolean | null>,
) => {
  const rows = await db
    .update(edgeCommands)
    .set({ doneAt: sql`now()`, result })
    .where(and(eq(edgeCommands.id, commandId), eq(edgeCommands.edgeServerId, edgeServerId)))
    .returning({ id: edgeCommands.id });
  return rows.length > 0;
};

const agentItemColumns = {
  id: ingestQueueItems.id,
  endpointId: ingestQueueItems.endpointId,
  queueId: ingestQueueItems.queueId,
  sourceName: ingestQueueItems.sourceName,
  status: ingestQueueItems.status,
  isStream: ingestQueueItems.isStream,
  forced: ingestQueueItems.forced,
  accountId: ingestQueueItems.accountId,
  arrivalsFolderId: ingestQueueItems.arrivalsFolderId,
  /** Who set the item's arrivals folder on its endpoint, while the endpoint still aims there (edgeLandingRule). */
  arrivalsSetBy: sql<
    number | null
  >`(select e.arrivals_set_by from edge_endpoints e where e.id = ${ingestQueueItems.endpointId} and e.arrivals_folder_id = ${ingestQueueItems.arrivalsFolderId})`,
};

/**
 * The stream item of an endpoint that waits for Start, waits for the agent, or records: a stream endpoint has
 * at most one, so an agent asking again (after a restart, or every round) gets that one.
 */
export const findOpenStreamItem = async (db: DbOrTx, endpointId: number) => {
  const [row] = await db
    .select(agentItemColumns)
    .from(ingestQueueItems)
    .where(
      and(
        eq(ingestQueueItems.endpointId, endpointId),
        eq(ingestQueueItems.isStream, true),
        eq(ingestQueueItems.isSchedule, false),
        inArray(ingestQueueItems.status, ['actionRequired', 'queued', 'ingesting']),
      ),
    )
    .orderBy(asc(ingestQueueItems.id))
    .limit(1);
  return row;
};

/**
 * Adds an item at the end of the edge's queue (a stream waits for Start: actionRequired); the same endpoint
 * and queue id answer the existing item.
 */
export const insertQueueItem = async (
  db: DbOrTx,
  item: {
    edgeServerId: number;
    endpointId: number;
    accountId: number | null;
    arrivalsFolderId: number | null;
    queueId: string;
    sourceName: string;
    isStream: boolean;
    forced: boolean;
  },
) => {
  const [created] = await db
    .insert(ingestQueueItems)
    .values({
      ...item,
      status: item.isStream ? 'actionRequired' : 'queued',
      // The agent's source name stays as the file is named (it reads the file by it); the clip name is shown.
      clipName: cleanName(item.sourceName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')).trim(),
      rank: sql`coalesce((select max(${ingestQueueItems.rank}) from ${ingestQueueItems} where ${ingestQueueItems.edgeServerId} = ${item.edgeServerId}), 0) + 1`,
    })
    .onConflictDoNothing()
    .returning(agentItemColumns);
  if (created) return { item: created, created: true };
  const [existing] = await db
    .select(agentItemColumns)
    .from(ingestQueueItems)
    .where(
      and(
        eq(ingestQueueItems.edgeServerId, item.edgeServerId),
        eq(ingestQueueItems.endpointId, item.endpointId),
        eq(ingestQueueItems.queueId, item.queueId),
      ),
    );
  if (!existing) throw new Error('A queue item was neither created nor found');
  return { item: existing, created: false };
};

/** How far ahead an agent sees a schedule: it starts it on its own clock, at its time (issue 16). */
export const SCHEDULE_LOOKAHEAD_SECONDS = 30;

/**
 * The edge's items in a status (waiting: queued; taken up again after an agent restart: ingesting), in the
 * operators' order; a queued schedule only from shortly before its start time.
 */
export const queuedItems = (
  db: DbOrTx,
  edgeServerId: number,
  limit: number,
  status: 'queued' | 'ingesting' = 'queued',
) =>
  db
    .select({
      ...agentItemColumns,
      isSchedule: ingestQueueItems.isSchedule,
      scheduledStartTime: ingestQueueItems.scheduledStartTime,
      duration: ingestQueueItems.duration,
    })
    .from(ingestQueueItems)
    .where(
      and(
        eq(ingestQueueItems.edgeServerId, edgeServerId),
        eq(ingestQueueItems.status, status),
        or(
          eq(ingestQueueItems.isSchedule, false),
          eq(ingestQueueItems.status, 'ingesting'),
          lte(
            ingestQueueItems.scheduledStartTime,
            sql`now() + make_interval(secs => ${SCHEDULE_LOOKAHEAD_SECONDS})`,
          ),
        ),
      ),
    )
    .orderBy(asc(ingestQueueItems.rank), asc(ingestQueueItems.id))
    .limit(limit);

export const findAgentItem = async (db: DbOrTx, edgeServerId: number, id: number) => {
  const [row] = await db
    .select({
      ...agentItemColumns,
      stopRequestedAt: ingestQueueItems.stopRequestedAt,
      endpointOptions: endpoints.options,
    })
    .from(ingestQueueItems)
    .leftJoin(endpoints, eq(endpoints.id, ingestQueueItems.endpointId))
    .where(and(eq(ingestQueueItems.id, id), eq(ingestQueueItems.edgeServerId, edgeServerId)));
  return row;
};

export const updateItemProgress = (
  db: DbOrTx,
  id: number,
  change: {
    status: string;
    error?: string | null;
    duration?: number | null;
    proxyWidth?: number | null;
    proxyHeight?: number | null;
    fileSize?: number | null;
    progress?: number | null;
    contentHash?: string | null;
    log?: string;
  },
  options: { started: boolean } = { started: false },
) =>
  db
    .update(ingestQueueItems)
    .set({
      status: change.status,
      ...(change.error !== undefined ? { error: change.error } : {}),
      ...(change.duration !== undefined ? { duration: change.duration } : {}),
      ...(change.proxyWidth !== undefined ? { proxyWidth: change.proxyWidth } : {}),
      ...(change.proxyHeight !== undefined ? { proxyHeight: change.proxyHeight } : {}),
      ...(change.fileSize !== undefined ? { fileSize: change.fileSize } : {}),
      ...(change.contentHash !== undefined ? { contentHash: change.contentHash } : {}),
      progress: change.status === 'ingesting' ? (change.progress ?? sql`${ingestQueueItems.progress}`) : null,
      ...(change.log ? { log: sql`${ingestQueueItems.log} || ${change.log}` } : {}),
      ...(options.started
        ? { whenStarted: sql`now()`, whenFinished: null, error: null, progress: change.progress ?? 0 }
        : {}),
      ...(['ingested', 'failed', 'missing', 'duplicated'].includes(change.status)
        ? { whenFinished: sql`now()` }
        : {}),
      version: sql`nextval('ingest_queue_version')`,
    })
    .where(eq(ingestQueueItems.id, id));

/** What the media tree needs of an ingested item: its names, probe results, thumbnail and arrivals folder. */
export const findIngestedItem = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: ingestQueueItems.id,
      accountId: ingestQueueItems.accountId,
      sourceName: ingestQueueItems.sourceName,
      clipName: ingestQueueItems.clipName,
      duration: ingestQueueItems.duration,
      proxyWidth: ingestQueueItems.proxyWidth,
      proxyHeight: ingestQueueItems.proxyHeight,
      fileSize: ingestQueueItems.fileSize,
      thumbnailPath: ingestQueueItems.thumbnailPath,
      contentHash: ingestQueueItems.contentHash,
      folderName: arrivalsFolders.name,
      folderOptions: arrivalsFolders.options,
    })
    .from(ingestQueueItems)
    .leftJoin(arrivalsFolders, eq(arrivalsFolders.id, ingestQueueItems.arrivalsFolderId))
    .where(eq(ingestQueueItems.id, id));
  return row;
};

export const upsertUnprocessedFile = (db: DbOrTx, endpointId: number, path: string) =>
  db
    .insert(unprocessedFiles)
    .values({ endpointId, path })
    .onConflictDoNothing()
    .returning({ id: unprocessedFiles.id });

export const listUnprocessedFiles = (db: DbOrTx, endpointIds: number[]) =>
  endpointIds.length
    ? db
        .select({
          endpointId: unprocessedFiles.endpointId,
          path: unprocessedFiles.path,
          forced: unprocessedFiles.forced,
        })
        .from(unprocessedFiles)
        .where(inArray(unprocessedFiles.endpointId, endpointIds))
        .orderBy(asc(unprocessedFiles.id))
        .limit(10_000)
    : Promise.resolve([]);

/** A file the agent queues is no longer unprocessed; answers whether a person had forced it. */
export const removeUnprocessedFile = async (db: DbOrTx, endpointId: number, path: string) => {
  const removed = await db
    .delete(unprocessedFiles)
    .where(and(eq(unprocessedFiles.endpointId, endpointId), eq(unprocessedFiles.path, path)))
    .returning({ forced: unprocessedFiles.forced });
  return removed.some((row) => row.forced);
};

/**
 * Where this content already is (spec2 §4 `duplicated`), as a path to show: a node of the account in the
 * folder the item lands in (`folderPath`) whose media has the same content hash, or a node made by an
 * ingested item of the same account and arrivals folder, wherever it was moved since. A node deleted since
 * is no twin (the file may come again), nor is the item's own node (an item ingested again). An item of no
 * account lands no node: an ingested item of the same folder with that content is its twin.
 */
export const findIngestedTwin = async (
  db: DbOrTx,
  item: { id: number; accountId: number | null; arrivalsFolderId: number | null; contentHash: string },
  folderPath: string,
): Promise<{ where: string } | undefined> => {
  const sameFolderIngested = and(
    eq(ingestQueueItems.contentHash, item.contentHash),
    eq(ingestQueueItems.status, 'ingested'),
    item.accountId == null
      ? isNull(ingestQueueItems.accountId)
      : eq(ingestQueueItems.accountId, item.accountId),
    item.arrivalsFolderId == null
      ? isNull(ingestQueueItems.arrivalsFolderId)
      : eq(ingestQueueItems.arrivalsFolderId, item.arrivalsFolderId),
    ne(ingestQueueItems.id, item.id),
  );
  if (item.accountId == null) {
    const [twin] = await db
      .select({ sourceName: ingestQueueItems.sourceName })
      .from(ingestQueueItems)
      .where(sameFolderIngested)
      .limit(1);
    return twin && { where: twin.sourceName };
  }
  const parent = alias(nodes, 'parent');
  const madeBy = sql`${nodes.metadata} ->> ${INGEST_QUEUE_ITEM_KEY}`;
  const [row] = await db
    .select({ path: nodes.path, accountName: accounts.name })
    .from(media)
    .innerJoin(nodes, eq(nodes.mediaId, media.id))
    .innerJoin(accounts, eq(accounts.id, nodes.accountId))
    .leftJoin(parent, eq(parent.id, nodes.parentId))
    .where(
      and(
        eq(media.accountId, item.accountId),
        eq(media.contentHash, item.contentHash),
        sql`coalesce(${madeBy}, '') <> ${String(item.id)}`,
        or(
          sql`lower(${parent.path}) = lower(${folderPath})`,
          inArray(
            madeBy,
            db
              .select({ id: sql<string>`${ingestQueueItems.id}::text` })
              .from(ingestQueueItems)
              .where(sameFolderIngested),
          ),
        ),
      ),
    )
    .orderBy(asc(nodes.id))
    .limit(1);
  return row && { where: accountPath(row.accountName, row.path) };
};

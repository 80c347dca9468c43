import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AGENT_THUMBNAIL_MAX_BYTES,
  type AgentConfiguration,
  type AgentQueueItem,
  CHANNELS,
  capturesByItself,
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  EDGE_CONNECTED_WITHIN_SECONDS,
  EDGE_RULE_MESSAGES,
  type EndpointReport,
  ERROR_CODES,
  endpointOptionsWithDefaults,
  findEndpointType,
  findServiceType,
  ingestSettingsFor,
  MSG_AGENT_TOKEN,
  serviceOptionsWithDefaults,
  serviceOptionValues,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { sha256 } from '../../platform/crypto.ts';
import { AppError, badRequest, forbidden, notFound, unauthenticated } from '../../platform/errors.ts';
import { storeStream } from '../../platform/storage.ts';
import { edgeLandingRule, edgeMayLandIn } from '../arrivals/service.ts';
import { recordEndpointRecording, recordEndpointReports } from '../edge/service.ts';
import { publishItemChanges } from '../ingest/live.ts';
import { arrivalsFolderPath, dropLiveSegments } from '../nodes/service.ts';
import { emitIngestEvent, emitNodeEvent } from '../webhooks/payloads.ts';
import * as itemFiles from './item-files-repo.ts';
import { type AgentProgress, landIngestedItem } from './landing.ts';
import * as repo from './repo.ts';

export type AgentEdge = NonNullable<Awaited<ReturnType<typeof repo.findEdgeByTokenHash>>>;

/** The edge server whose token the request carries; anything else is a 401. */
export const authenticateAgent = async (ctx: AppContext, authorization: string | undefined) => {
  const token = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '')?.[1];
  if (!token) throw unauthenticated(MSG_AGENT_TOKEN);
  const edge = await repo.findEdgeByTokenHash(ctx.db, sha256(token));
  if (!edge) throw unauthenticated(MSG_AGENT_TOKEN);
  return edge;
};

/** The lists an edge server shows in, so they refresh when it connects or drops out. */
const edgeListChannels = (edge: AgentEdge) => [
  CHANNELS.edgeServers('cloud'),
  CHANNELS.edgeServers('user', edge.userId),
  ...(edge.siteId != null ? [CHANNELS.edgeServers('site', edge.siteId)] : []),
];

const publishQueueChange = (
  ctx: AppContext,
  edge: AgentEdge,
  item: { id: number; accountId: number | null },
) => publishItemChanges(ctx, [{ ...item, edgeServerId: edge.id }]);

export const heartbeat = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  endpointVersions: Record<string, string>;
  endpointReports: EndpointReport[];
}): Promise<AgentConfiguration> => {
  const { ctx, edge } = options;
  const listed = await repo.listEdgeEndpoints(ctx.db, edge.id);
  // An endpoint aimed where this edge server may not land media (edgeMayLandIn, issue 30) is held: the agent
  // is not given it, so it neither reads nor records it (nor asks to queue and is refused), and its status,
  // reported here for the agent, says why. It comes back once its target is one the edge may feed.
  const mayFeed = edgeLandingRule(ctx.db, edge);
  const held: typeof listed = [];
  const rows: typeof listed = [];
  for (const row of listed) {
    const refused =
      row.accountId != null &&
      ((row.arrivalsFolderId != null && row.feedsAccountId !== row.accountId) ||
        !(await mayFeed({
          accountId: row.accountId,
          arrivalsFolderId: row.arrivalsFolderId,
          arrivalsSetBy: row.arrivalsSetBy,
        })));
    (refused ? held : rows).push(row);
  }
  const heldIds = new Set(held.map((row) => row.id));
  await recordEndpointReports(ctx, edge.id, [
    ...options.endpointReports.filter((report) => !heldIds.has(report.endpointId)),
    ...held.map((row) => ({
      endpointId: row.id,
      online: false,
      status: 'warning' as const,
      message: EDGE_RULE_MESSAGES.edgeMayNotLandInAccount,
      switchedOn: row.online,
    })),
  ]);
  const wasConnected =
    edge.lastSeenAt != null && Date.now() - edge.lastSeenAt.getTime() < EDGE_CONNECTED_WITHIN_SECONDS * 1000;
  await repo.recordHeartbeat(ctx.db, edge.id, options.endpointVersions);
  if (!wasConnected) for (const channel of edgeListChannels(edge)) await ctx.publish(channel, [edge.id]);
  // The agent gets every option, with the catalogue's defaults for those nobody set.
  const formats = await repo.ingestFormatsOf(ctx.db, [
    ...new Set(rows.flatMap((row) => (row.feedsAccountId != null ? [row.feedsAccountId] : []))),
  ]);
  const endpoints = rows.map(
    ({
      serviceTypeId,
      serviceOptions,
      feedsAccountId,
      folderTypeId,
      folderOptions,
      workflowDefinition,
      accountMaxVideo,
      ...endpoint
    }) => ({
      ...endpoint,
      options: endpointOptionsWithDefaults(
        findEndpointType(endpoint.typeId)?.options ?? [],
        endpoint.options,
      ),
      serviceOptions: serviceOptionValues(
        serviceOptionsWithDefaults(findServiceType(serviceTypeId)?.options ?? [], serviceOptions),
      ),
      ingest:
        feedsAccountId == null
          ? null
          : ingestSettingsFor({
              workflowDefinition,
              folder: folderTypeId != null ? { typeId: folderTypeId, options: folderOptions ?? {} } : null,
              accountFormats: formats.get(feedsAccountId) ?? [],
              accountMaxVideo,
            }),
    }),
  );
  const files = await repo.listUnprocessedFiles(
    ctx.db,
    endpoints.map((endpoint) => endpoint.id),
  );
  return {
    edgeServer: {
      id: edge.id,
      name: edge.name,
      maxConcurrentIngests:
        edge.advancedOptions?.maxConcurrentIngests ?? DEFAULT_EDGE_ADVANCED_OPTIONS.maxConcurrentIngests,
    },
    endpoints,
    commands: await repo.pendingCommands(ctx.db, edge.id),
    forcedFiles: files.filter((file) => file.forced).map(({ endpointId, path }) => ({ endpointId, path })),
    unprocessedFiles: files.map(({ endpointId, path }) => ({ endpointId, path })),
  };
};

export const completeCommand = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  commandId: number;
  result: Record<string, string | number | boolean | null>;
}) => {
  const { ctx, edge } = options;
  if (!(await repo.completeCommand(ctx.db, edge.id, options.commandId, options.result)))
    throw notFound('Command');
  for (const channel of edgeListChannels(edge)) await ctx.publish(channel, [edge.id]);
  return { ok: true as const };
};

/** A file or stream the agent found: it joins the end of the queue, with the endpoint's account and folder. */
export const registerQueueItem = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  endpointId: number;
  queueId: string;
  sourceName: string;
  isStream: boolean;
}) => {
  const { ctx, edge } = options;
  const endpoint = await repo.findEdgeEndpoint(ctx.db, edge.id, options.endpointId);
  if (!endpoint) throw notFound('Endpoint');
  // Only into an account its edge server may feed (edgeMayLandIn: defence in depth behind the endpoint API).
  const { accountId, arrivalsFolderId, arrivalsSetBy } = endpoint;
  if (
    accountId != null &&
    !(await edgeMayLandIn(ctx.db, edge, { accountId, arrivalsFolderId, arrivalsSetBy }))
  )
    throw forbidden(EDGE_RULE_MESSAGES.edgeMayNotLandInAccount);
  const open = options.isStream ? await repo.findOpenStreamItem(ctx.db, endpoint.id) : undefined;
  if (open) {
    const { accountId: _accountId, arrivalsFolderId: _folderId, arrivalsSetBy: _setBy, ...answer } = open;
    return answer;
  }
  const { item, created } = await ctx.db.transaction(async (tx) => {
    const forced = await repo.removeUnprocessedFile(tx, endpoint.id, options.sourceName);
    const inserted = await repo.insertQueueItem(tx, {
      edgeServerId: edge.id,
      endpointId: endpoint.id,
      accountId: endpoint.accountId,
      arrivalsFolderId: endpoint.arrivalsFolderId,
      queueId: options.queueId,
      sourceName: options.sourceName,
      isStream: options.isStream,
      forced,
    });
    if (inserted.created) await emitIngestEvent(ctx, tx, 'ingest.queued', [inserted.item.id]);
    return inserted;
  });
  if (created) {
    await publishQueueChange(ctx, edge, item);
    await ctx.publish(CHANNELS.unprocessedFiles(edge.id), [endpoint.id]);
  }
  const { accountId: _accountId, arrivalsFolderId: _folderId, arrivalsSetBy: _setBy, ...answer } = item;
  return answer;
};

export const queuedItems = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  limit: number;
  status?: 'queued' | 'ingesting';
}) =>
  (await repo.queuedItems(options.ctx.db, options.edge.id, options.limit, options.status)).map(
    ({
      accountId: _accountId,
      arrivalsFolderId: _folderId,
      arrivalsSetBy: _setBy,
      isSchedule,
      scheduledStartTime,
      duration,
      ...item
    }): AgentQueueItem => ({
      ...item,
      // A schedule's times: the agent starts and ends it on its own clock.
      schedule:
        isSchedule && scheduledStartTime
          ? {
              startAt: scheduledStartTime.toISOString(),
              endAt: duration ? new Date(scheduledStartTime.getTime() + duration * 1000).toISOString() : null,
            }
          : null,
    }),
  );

const requireItem = async (ctx: AppContext, edge: AgentEdge, id: number) => {
  const item = await repo.findAgentItem(ctx.db, edge.id, id);
  if (!item) throw notFound('Queue item');
  return item;
};

/**
 * The agent's report on an item it works on: progress while `ingesting`, then how it ended. An item a
 * person took out of the queue meanwhile (aborted, deleted, set back) keeps that status: the agent is told
 * with a 409 and stops. The first report carries the content hash: the same content already ingested into
 * the folder makes the item `duplicated`, which the answer says, so the agent stops too.
 */
export const reportProgress = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  id: number;
  change: AgentProgress;
}): Promise<{ ok: true; status: string; stop?: boolean; statusChanged: boolean }> => {
  const { ctx, edge, id } = options;
  let change = options.change;
  const item = await requireItem(ctx, edge, id);
  const from = change.status === 'ingesting' ? ['queued', 'ingesting'] : ['ingesting', 'queued'];
  // A stream whose endpoint captures by itself (autoCapture always, ondemand) is started by its agent.
  if (item.isStream && capturesByItself(item.endpointOptions ?? {})) from.push('actionRequired');
  if (!from.includes(item.status))
    throw new AppError(ERROR_CODES.conflict, `The item is ${item.status}; it cannot become ${change.status}`);
  // The item starts or lands only where its edge server may send media (edgeMayLandIn); else it fails.
  const starts = change.status === 'ingesting' && item.status !== 'ingesting';
  const refused =
    (starts || change.status === 'ingested') &&
    item.accountId != null &&
    !(await edgeMayLandIn(ctx.db, edge, {
      accountId: item.accountId,
      arrivalsFolderId: item.arrivalsFolderId,
      arrivalsSetBy: item.arrivalsSetBy,
    }));
  if (refused) {
    const error = EDGE_RULE_MESSAGES.edgeMayNotLandInAccount;
    change = { status: 'failed', error, log: logLine(error) };
  }
  if (change.contentHash && change.status === 'ingesting') {
    const folder = await repo.findIngestedItem(ctx.db, id);
    const targetFolder = folder?.folderOptions?.targetFolder;
    const twin = await repo.findIngestedTwin(
      ctx.db,
      { ...item, contentHash: change.contentHash },
      arrivalsFolderPath(typeof targetFolder === 'string' ? targetFolder : null, folder?.folderName ?? null),
    );
    if (twin) {
      const error = `Already ingested as ${twin.where}`;
      change = { status: 'duplicated', contentHash: change.contentHash, error, log: logLine(error) };
    }
  }
  // An ingested file of an account lands in its media tree in the same transaction.
  const landed = await ctx.db.transaction(async (tx) => {
    await repo.updateItemProgress(tx, id, change, { started: !refused && item.status !== 'ingesting' });
    if (change.status === 'failed' && item.status !== 'failed')
      await emitIngestEvent(ctx, tx, 'ingest.failed', [id]);
    // A stream item records while it is ingesting: it starts arriving, and stops when it leaves that status.
    if (item.isStream && change.status === 'ingesting' && item.status !== 'ingesting')
      await emitIngestEvent(ctx, tx, 'stream.started', [id]);
    if (item.isStream && change.status !== 'ingesting' && item.status === 'ingesting')
      await emitIngestEvent(ctx, tx, 'stream.stopped', [id]);
    if (change.status !== 'ingested' || item.accountId == null) return undefined;
    const made = await landIngestedItem(ctx, tx, id, change);
    if (made?.created)
      await emitNodeEvent(ctx, tx, 'node.created', { id: made.nodeId, accountId: item.accountId });
    if (item.status !== 'ingested') await emitIngestEvent(ctx, tx, 'ingest.ingested', [id], made?.nodeId);
    return made;
  });
  await publishQueueChange(ctx, edge, item);
  // A recorded stream lands on the node it played live from: its live segments go.
  if (landed?.liveMediaId !== undefined) await dropLiveSegments(ctx, landed.liveMediaId);
  if ((landed?.created || landed?.liveMediaId !== undefined) && item.accountId != null)
    await ctx.publish(CHANNELS.nodes(item.accountId), [landed.nodeId]);
  if (item.isStream && item.endpointId != null) {
    const recording = change.status === 'ingesting' ? change.recording : false;
    if (recording !== undefined) await recordEndpointRecording(ctx, edge, item.endpointId, recording);
  }
  return {
    ok: true as const,
    status: change.status,
    ...(item.isStream ? { stop: item.stopRequestedAt != null } : {}),
    statusChanged: change.status !== item.status,
  };
};

const logLine = (text: string) => `${new Date().toISOString()} ${text}\n`;

/** Stores the item's thumbnail (a JPEG) and drops the one it replaces. */
export const storeThumbnail = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  id: number;
  contentType: string | undefined;
  stream: Readable;
}) => {
  const { ctx, edge, id } = options;
  if (options.contentType !== 'image/jpeg')
    throw new AppError(ERROR_CODES.unsupportedMediaType, 'A thumbnail must be image/jpeg');
  const item = await requireItem(ctx, edge, id);
  const stored = await storeStream({
    storage: ctx.storage,
    dataDir: ctx.config.dataDir,
    folder: 'thumbnails',
    contentType: 'image/jpeg',
    fileName: `${id}.jpg`,
    stream: options.stream,
    check: async (tempPath) => {
      const { size } = await fs.promises.stat(tempPath);
      if (size === 0) throw badRequest('The thumbnail is empty');
      if (size > AGENT_THUMBNAIL_MAX_BYTES)
        throw new AppError(ERROR_CODES.tooLarge, 'The thumbnail is too large');
      const head = Buffer.alloc(3);
      const file = await fs.promises.open(tempPath, 'r');
      try {
        await file.read(head, 0, 3, 0);
      } finally {
        await file.close();
      }
      if (head[0] !== 0xff || head[1] !== 0xd8 || head[2] !== 0xff)
        throw new AppError(ERROR_CODES.unsupportedMediaType, 'A thumbnail must be image/jpeg');
    },
  });
  const previous = await itemFiles.setThumbnail(ctx.db, id, stored.relativePath);
  if (previous) await ctx.storage.remove(previous).catch(() => undefined);
  await publishQueueChange(ctx, edge, item);
  return { ok: true as const };
};

import { createHash } from 'node:crypto';
import {
  canAbort,
  canChangeStatus,
  canControl,
  canEdit,
  canSchedule,
  canStartStream,
  canStopStream,
  canTrash,
  type INGEST_ITEM_ACTIONS,
  INGEST_MESSAGES,
  type IngestQueueItem,
  type ManualStatusChange,
  schedulePriority,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { sharp } from '../../platform/sharp.ts';
import { readStored } from '../../platform/storage.ts';
import { mayManageEdgeServer } from '../access/service.ts';
import { emitIngestEvent } from '../webhooks/payloads.ts';
import { publishItemChanges } from './live.ts';
import { toItems } from './presenter.ts';
import { type Call, factsOf, mayManageAccount, type QueueOwner, requireQueue } from './queues.ts';
import * as repo from './repo.ts';
import { queueScheduleJobs } from './schedules.ts';

export { listQueue, mayManageAccount, type QueueOwner, queueActions, requireQueue } from './queues.ts';

/** An item may be steered by whoever manages its edge server or its account. */
const requireItemRight = async (
  db: DbOrTx,
  actor: Actor,
  item: { edgeServerId: number; accountId: number | null },
) => {
  if (await mayManageAccount(db, actor, item.accountId)) return;
  const edge = await repo.findEdgeServer(db, item.edgeServerId);
  if (!edge || !(await mayManageEdgeServer(db, actor, edge))) throw forbidden();
};

const requireItems = async (db: DbOrTx, actor: Actor, ids: number[]) => {
  const rows = await repo.findItems(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items = ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Queue item');
    return row;
  });
  for (const item of items) await requireItemRight(db, actor, item);
  return items;
};

/** spec2 §4's table; streams cannot change status by hand; 'abort' fails an ingesting file with 'Aborted'. */
const statusChange = (item: repo.ItemRow, to: ManualStatusChange): repo.ItemChange => {
  const facts = factsOf(item);
  if (facts.isStream)
    throw badRequest(INGEST_MESSAGES.streamStatusRefused, { status: INGEST_MESSAGES.streamStatusRefused });
  if (!canChangeStatus(facts, to)) {
    const message = INGEST_MESSAGES.statusChangeRefused(facts.status, to);
    throw badRequest(message, { status: message });
  }
  if (to === 'abort') {
    if (!canAbort(facts)) throw badRequest(INGEST_MESSAGES.statusChangeRefused(facts.status, to));
    return { status: 'failed', error: INGEST_MESSAGES.aborted, whenFinished: new Date() };
  }
  return to === 'queued'
    ? { status: to, error: null, whenStarted: null, whenFinished: null }
    : { status: to };
};

type ItemUpdate = {
  id: number;
  status?: ManualStatusChange;
  action?: (typeof INGEST_ITEM_ACTIONS)[number];
  reelName?: string;
  diskLabel?: string;
  clipName?: string;
  duration?: number | null;
  startTime?: string | null;
};

/**
 * POST /api/ingestQueueItems/{id}: names (when the item can be edited), a status (spec2 §4's table) or an
 * action: start and stop a stream, reschedule (a new schedule from a stream in actionRequired, or the
 * schedule itself moved), status, abort. Answers the item changed or the schedule made.
 */
export const updateItem = async ({ ctx, actor, id, update }: Call<{ id: number; update: ItemUpdate }>) => {
  const [item] = await requireItems(ctx.db, actor, [id]);
  if (!item) throw notFound('Queue item');
  if (update.id !== id) throw badRequest(INGEST_MESSAGES.idMismatch, { id: INGEST_MESSAGES.idMismatch });
  const facts = factsOf(item);
  const names = Object.fromEntries(
    (['reelName', 'diskLabel', 'clipName'] as const)
      .filter((key) => update[key] !== undefined)
      .map((key) => [key, update[key] as string]),
  );
  // The status the item already has, sent back with the whole item, changes nothing.
  const statusChanged = update.status !== undefined && update.status !== item.status;
  const action = update.action ?? (statusChanged ? 'status' : undefined);
  // A schedule's names travel with its reschedule; the new schedule takes them instead of the stream.
  if (Object.keys(names).length && action !== 'reschedule' && !canEdit(facts))
    throw badRequest(INGEST_MESSAGES.editRefused);
  let change: repo.ItemChange = action === 'reschedule' ? {} : { ...names };
  let answerId = id;
  switch (action) {
    case undefined:
      break;
    case 'status':
      if (update.status === undefined)
        throw badRequest(INGEST_MESSAGES.statusRequired, { status: INGEST_MESSAGES.statusRequired });
      change = { ...change, ...statusChange(item, update.status) };
      break;
    case 'abort':
      change = { ...change, ...statusChange(item, 'abort') };
      break;
    case 'start':
      if (!canStartStream(facts)) throw badRequest(INGEST_MESSAGES.startRefused);
      if (!canControl(item.endpointOptions ?? {})) throw badRequest(INGEST_MESSAGES.controlRefused);
      // The item waits for its edge server's agent, which records it from the moment it takes it.
      change = {
        ...change,
        status: 'queued',
        whenStarted: null,
        whenFinished: null,
        error: null,
        stopRequestedAt: null,
        ...(update.duration !== undefined ? { duration: update.duration } : {}),
      };
      break;
    case 'stop':
      if (!canStopStream(facts)) throw badRequest(INGEST_MESSAGES.stopRefused);
      if (!canControl(item.endpointOptions ?? {})) throw badRequest(INGEST_MESSAGES.controlRefused);
      // The agent hears it at its next report, ends ffmpeg and ingests the recording; the item stays
      // ingesting until then.
      if (!item.stopRequestedAt) change = { ...change, stopRequestedAt: new Date() };
      break;
    case 'reschedule': {
      if (!canSchedule(facts)) throw badRequest(INGEST_MESSAGES.scheduleRefused);
      if (!update.startTime)
        throw badRequest(INGEST_MESSAGES.startTimeRequired, { startTime: INGEST_MESSAGES.startTimeRequired });
      const start = new Date(update.startTime);
      const schedule = {
        scheduledStartTime: start,
        priority: schedulePriority(start),
        ...(update.duration !== undefined ? { duration: update.duration } : {}),
      };
      // The schedule and the jobs that start and end it are written together.
      answerId = await ctx.db.transaction(async (tx) => {
        let scheduleId = id;
        if (item.isSchedule) await repo.updateItem(tx, id, { ...names, ...schedule });
        else
          scheduleId = await repo.insertSchedule(tx, {
            edgeServerId: item.edgeServerId,
            endpointId: item.endpointId,
            accountId: item.accountId,
            arrivalsFolderId: item.arrivalsFolderId,
            queueId: `schedule-${item.queueId}-${Math.floor(start.getTime() / 1000)}`,
            status: 'queued',
            isStream: true,
            isSchedule: true,
            sourceName: item.sourceName,
            reelName: names.reelName ?? item.reelName,
            diskLabel: names.diskLabel ?? item.diskLabel,
            clipName: names.clipName ?? item.clipName,
            duration: update.duration ?? null,
            ...schedule,
          });
        const duration =
          update.duration !== undefined ? update.duration : item.isSchedule ? item.duration : null;
        await queueScheduleJobs(ctx, tx, { id: scheduleId, start, duration });
        return scheduleId;
      });
      break;
    }
  }
  if (Object.keys(change).length)
    await ctx.db.transaction(async (tx) => {
      await repo.updateItem(tx, id, change);
      if (change.status === 'failed' && item.status !== 'failed')
        await emitIngestEvent(ctx, tx, 'ingest.failed', [id]);
    });
  await publishItemChanges(ctx, [{ ...item, id: answerId }]);
  const [answer] = await toItems(ctx.db, [(await repo.findItem(ctx.db, answerId)) as repo.ItemRow]);
  return answer as IngestQueueItem;
};

/** POST /api/ingestQueueItems: a list of { id, status }, all or nothing. */
export const changeStatuses = async ({
  ctx,
  actor,
  list,
}: Call<{ list: { id: number; status: ManualStatusChange }[] }>) => {
  const items = await requireItems(
    ctx.db,
    actor,
    list.map((entry) => entry.id),
  );
  const changes = items.map((item, index) =>
    statusChange(item, (list[index] as { status: ManualStatusChange }).status),
  );
  await ctx.db.transaction(async (tx) => {
    for (const [index, item] of items.entries())
      await repo.updateItem(tx, item.id, changes[index] as repo.ItemChange);
    const failed = items.filter(
      (item, index) => changes[index]?.status === 'failed' && item.status !== 'failed',
    );
    await emitIngestEvent(
      ctx,
      tx,
      'ingest.failed',
      failed.map((item) => item.id),
    );
  });
  await publishItemChanges(ctx, items);
  return toItems(
    ctx.db,
    await repo.findItems(
      ctx.db,
      items.map((item) => item.id),
    ),
  );
};

const requireTrashable = (item: repo.ItemRow) => {
  if (item.status !== 'deleted' && !canTrash(factsOf(item)))
    throw badRequest(INGEST_MESSAGES.trashRefused(item.status));
};

/** Trash marks the item deleted; only trashable items (spec2 §4). */
export const trashItem = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const items = await requireItems(ctx.db, actor, [id]);
  for (const item of items) requireTrashable(item);
  await repo.markDeleted(ctx.db, [id]);
  await publishItemChanges(ctx, items);
  return { ok: true as const };
};

const TRASH_KEY = /^(\d+):(\d+):(.+)$/;

/** Trash (mark deleted) or purge (remove the rows) items named 'edgeServerId:endpointId:queueId', all or nothing. */
export const trashItems = async ({
  ctx,
  actor,
  ids,
  mode,
}: Call<{ ids: string[]; mode: 'trash' | 'purge' }>) => {
  const keys = ids.map((key) => {
    const [, edgeServerId, endpointId, queueId] = TRASH_KEY.exec(key) as RegExpExecArray;
    return {
      key,
      edgeServerId: Number(edgeServerId),
      endpointId: Number(endpointId),
      queueId: queueId as string,
    };
  });
  const rows = await repo.findItemsByKeys(ctx.db, keys);
  const items = keys.map((key) => {
    const row = rows.find(
      (r) =>
        r.edgeServerId === key.edgeServerId && r.endpointId === key.endpointId && r.queueId === key.queueId,
    );
    if (!row) throw notFound(`Queue item ${key.key}`);
    return row;
  });
  for (const item of items) await requireItemRight(ctx.db, actor, item);
  for (const item of items) requireTrashable(item);
  const itemIds = [...new Set(items.map((item) => item.id))];
  await ctx.db.transaction((tx) =>
    mode === 'purge' ? repo.deleteItems(tx, itemIds) : repo.markDeleted(tx, itemIds),
  );
  await publishItemChanges(ctx, items);
  return { ok: true as const };
};

/** Sets the operator's order of a queue: every item must be in it; ranks from 1; one transaction. */
export const setRanks = async ({
  ctx,
  actor,
  owner,
  ranks,
}: Call<{
  owner: QueueOwner;
  ranks: { queueItemId: number; rank: number }[];
}>) => {
  const { scope } = await requireQueue(ctx.db, actor, owner);
  const rows = await repo.findItems(
    ctx.db,
    ranks.map((entry) => entry.queueItemId),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const inQueue = (row: repo.ItemRow | undefined) =>
    row !== undefined &&
    ('edgeServerId' in scope
      ? row.edgeServerId === scope.edgeServerId
      : 'arrivalsFolderId' in scope
        ? row.arrivalsFolderId === scope.arrivalsFolderId
        : 'accountId' in scope
          ? row.accountId === scope.accountId
          : row.endpointId === scope.endpointId);
  for (const entry of ranks)
    if (!inQueue(byId.get(entry.queueItemId)))
      throw badRequest(INGEST_MESSAGES.notInQueue(entry.queueItemId), {
        queueItemId: INGEST_MESSAGES.notInQueue(entry.queueItemId),
      });
  await ctx.db.transaction(async (tx) => {
    for (const entry of ranks) await repo.updateItem(tx, entry.queueItemId, { rank: entry.rank });
  });
  await publishItemChanges(ctx, rows);
  return { ok: true as const };
};

const requireItemDetails = async (db: DbOrTx, actor: Actor, id: number) => {
  const item = await repo.findItemDetails(db, id);
  if (!item) throw notFound('Queue item');
  await requireItemRight(db, actor, item);
  return item;
};

export const itemLog = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const item = await requireItemDetails(ctx.db, actor, id);
  return { log: item.log };
};

/**
 * The stored thumbnail, resized to fit width x height, as JPEG; 404 when there is none. Each upload is a new
 * file, so its path and the size make the entity tag: the auto-updating image asks every second, and a
 * thumbnail it already holds is answered 304 without reading or resizing anything.
 */
export const itemThumbnail = async ({
  ctx,
  actor,
  id,
  width,
  height,
  ifNoneMatch,
}: Call<{ id: number; width: number; height: number; ifNoneMatch?: string }>) => {
  const item = await requireItemDetails(ctx.db, actor, id);
  if (!item.thumbnailPath) throw notFound('Thumbnail');
  const etag = `"${createHash('sha256').update(`${item.thumbnailPath}|${width}x${height}`).digest('base64url').slice(0, 27)}"`;
  if (ifNoneMatch === etag) return { etag, image: null };
  const source = await readStored(ctx.storage, item.thumbnailPath);
  if (!source) throw notFound('Thumbnail');
  const image = await (await sharp(source))
    .resize(width, height, { fit: 'inside' })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { etag, image };
};

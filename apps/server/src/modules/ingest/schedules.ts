import { INGEST_MESSAGES } from '@media/contract';
import { and, eq, ne } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { recordAudit } from '../audit/service.ts';
import { edgeServerConnected, edgeServers, endpointShownStatus, endpoints } from '../edge/tables.ts';
import { emitIngestEvent } from '../webhooks/payloads.ts';
import { publishItemChanges } from './live.ts';
import * as repo from './repo.ts';
import { ingestQueueItems } from './tables.ts';

/**
 * A schedule's start and end (issue 16; spec2 §4): jobs due at its times, written with the schedule. At the
 * start the cloud fails a schedule whose edge server or endpoint cannot record it, saying why; the agent, which
 * sees a schedule some seconds ahead, starts it on its own clock and ends it at its end. The end job stops one
 * that is still recording (an agent that lost its clock) and fails one no agent took.
 */
export type ScheduleEdge = { itemId: number; at: 'start' | 'end'; startAt: string };

export const streamScheduleQueue = defineQueue<ScheduleEdge>('stream-schedule', {
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  timeLimitSeconds: 60,
});

/** How long after a schedule's end its end job looks: the agent ends it itself, on time. */
const END_GRACE_MS = 15_000;

export const startStreamSchedules = (ctx: AppContext) =>
  ctx.jobs.work(streamScheduleQueue, (job) => runScheduleEdge(ctx, job));

/**
 * Queues the start and end jobs of a schedule, in the transaction that makes or moves it; the jobs of its
 * earlier times find it moved and do nothing. A schedule with no duration records until Stop.
 */
export const queueScheduleJobs = async (
  ctx: AppContext,
  tx: DbOrTx,
  schedule: { id: number; start: Date; duration: number | null },
) => {
  const startAt = schedule.start.toISOString();
  await ctx.jobs.send(tx, streamScheduleQueue, [{ itemId: schedule.id, at: 'start', startAt }], {
    startAfter: schedule.start,
  });
  if (schedule.duration)
    await ctx.jobs.send(tx, streamScheduleQueue, [{ itemId: schedule.id, at: 'end', startAt }], {
      startAfter: new Date(schedule.start.getTime() + schedule.duration * 1000 + END_GRACE_MS),
    });
};

/** Why a schedule cannot start now, in words for its item's error; undefined when it can. */
const startRefusal = async (db: DbOrTx, item: repo.ItemRow) => {
  const [edge] = await db
    .select({ name: edgeServers.name, connected: edgeServerConnected() })
    .from(edgeServers)
    .where(eq(edgeServers.id, item.edgeServerId));
  if (!edge) return INGEST_MESSAGES.scheduleEndpointGone;
  if (!edge.connected) return INGEST_MESSAGES.scheduleEdgeNotConnected(edge.name);
  const [endpoint] =
    item.endpointId == null
      ? []
      : await db
          .select({
            name: endpoints.name,
            online: endpoints.online,
            status: endpointShownStatus(),
            message: endpoints.statusMessage,
          })
          .from(endpoints)
          .innerJoin(edgeServers, eq(edgeServers.id, item.edgeServerId))
          .where(eq(endpoints.id, item.endpointId));
  if (!endpoint) return INGEST_MESSAGES.scheduleEndpointGone;
  if (!endpoint.online) return INGEST_MESSAGES.scheduleEndpointOffline(endpoint.name, 'switched offline');
  if (endpoint.status !== 'ok')
    return INGEST_MESSAGES.scheduleEndpointOffline(endpoint.name, endpoint.message || endpoint.status);
  const [busy] = await db
    .select({ id: ingestQueueItems.id })
    .from(ingestQueueItems)
    .where(
      and(
        eq(ingestQueueItems.endpointId, item.endpointId as number),
        eq(ingestQueueItems.status, 'ingesting'),
        ne(ingestQueueItems.id, item.id),
      ),
    )
    .limit(1);
  return busy ? INGEST_MESSAGES.scheduleEndpointBusy(endpoint.name) : undefined;
};

const runScheduleEdge = async (ctx: AppContext, job: Job<ScheduleEdge>) => {
  const { itemId, at, startAt } = job.data;
  const item = await repo.findItem(ctx.db, itemId);
  // Gone, or moved to another time (that time has jobs of its own).
  if (!item?.isSchedule || item.scheduledStartTime?.toISOString() !== startAt) return;
  let change: repo.ItemChange | undefined;
  if (at === 'start' && item.status === 'queued') {
    const refusal = await startRefusal(ctx.db, item);
    if (refusal) change = { status: 'failed', error: refusal, whenFinished: new Date() };
  }
  if (at === 'end') {
    if (item.status === 'ingesting' && !item.stopRequestedAt) change = { stopRequestedAt: new Date() };
    if (item.status === 'queued') {
      const [edge] = await ctx.db
        .select({ name: edgeServers.name })
        .from(edgeServers)
        .where(eq(edgeServers.id, item.edgeServerId));
      change = {
        status: 'failed',
        error: INGEST_MESSAGES.scheduleNotTaken(edge?.name ?? String(item.edgeServerId)),
        whenFinished: new Date(),
      };
    }
  }
  if (!change) return;
  // Only from the status it was read in: an agent that took the schedule meanwhile keeps it.
  const failing = change.status === 'failed';
  const changed = await ctx.db.transaction(async (tx) => {
    if (!(await repo.updateItemInStatus(tx, item.id, item.status, change))) return false;
    if (failing) await emitIngestEvent(ctx, tx, 'ingest.failed', [item.id]);
    return true;
  });
  if (!changed) return;
  await publishItemChanges(ctx, [item]);
  await recordAudit(ctx, {
    operation: 'job.streamSchedule',
    target: { type: 'ingestQueueItem', id: item.id },
    accountId: item.accountId,
    fields: { at, status: change.status ?? 'stopping', error: change.error },
    failed: failing,
  });
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHANNELS } from '@media/contract';
import { probe, type RenderPiece, renderEdl } from '@media/media-tools';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { randomToken } from '../../platform/crypto.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { recordAudit } from '../audit/service.ts';
import * as repo from './repo.ts';
import { media } from './tables.ts';

/**
 * A clip's or a sequence's file (DESIGN "Jobs"): sent in the transaction that saves its edl, rendered from
 * the proxies of its pieces, retried with backoff, an hour at most; a job cut off by a crash runs again.
 */
export const clipRenderQueue = defineQueue<{ mediaId: number }>('clip-render', {
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  timeLimitSeconds: 3600,
});

/** The picture size of a clip whose pieces have none (sound only). */
const NO_PICTURE_SIZE = { width: 640, height: 360 };

const unrenderable = (reason: string) => `The clip could not be rendered: ${reason}`;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/**
 * Asks for a clip's file when it has none and none is being made (a clip saved before clips were
 * rendered, or seeded): marks it processing and sends its job, together.
 */
export const requestClipRender = (ctx: AppContext, mediaId: number) =>
  ctx.db.transaction(async (tx) => {
    const marked = await tx
      .update(media)
      .set({ status: 'processing', error: null })
      .where(and(eq(media.id, mediaId), isNull(media.storagePath), ne(media.status, 'processing')))
      .returning({ id: media.id });
    if (marked.length > 0) await ctx.jobs.send(tx, clipRenderQueue, [{ mediaId }]);
  });

/** Runs the clip render jobs on this instance, WORKERS at once. */
export const startClipRendering = (ctx: AppContext) =>
  ctx.jobs.work(clipRenderQueue, (job) => renderClip(ctx, job), { concurrency: ctx.config.workers });

const publishMedia = async (ctx: AppContext, accountId: number, mediaId: number) =>
  ctx.publish(CHANNELS.nodes(accountId), await repo.findNodeIdsOfMedia(ctx.db, mediaId));

/** The clip cannot be rendered: its media says why, and its nodes show it. */
const failClip = async (ctx: AppContext, clip: { id: number; accountId: number }, reason: string) => {
  await ctx.db.update(media).set({ status: 'failed', error: reason }).where(eq(media.id, clip.id));
  await publishMedia(ctx, clip.accountId, clip.id);
  await recordAudit(ctx, {
    operation: 'job.clipRender',
    target: { type: 'media', id: clip.id },
    accountId: clip.accountId,
    fields: { status: 'failed', error: reason },
    failed: true,
  });
};

/**
 * Renders the edl of a clip or sequence into one MP4 at the size of its first piece with a picture, stores
 * it and makes the media playable in one step; a file stored before a failed write is removed again.
 */
const renderClip = async (ctx: AppContext, job: Job<{ mediaId: number }>) => {
  const clip = await repo.findMedia(ctx.db, job.data.mediaId);
  // Gone (deleted with its account), or done by an attempt whose completion was lost.
  if (!clip?.edl || clip.status === 'ready') return;
  const { edl, accountId } = clip;
  const ids = [...new Set(edl.events.map((event) => event.mediaId))];
  const files = new Map((await repo.findMediaFiles(ctx.db, accountId, ids)).map((row) => [row.id, row]));
  const missing = ids.filter((id) => !files.get(id)?.storagePath);
  if (missing.length > 0) {
    await failClip(ctx, clip, unrenderable(`media ${missing.join(', ')} of the edl has no file`));
    return;
  }
  const workDir = path.join(ctx.config.dataDir, 'tmp', `clip-${clip.id}`);
  await fs.promises.rm(workDir, { recursive: true, force: true });
  await fs.promises.mkdir(workDir, { recursive: true });
  const copies = new Map<number, { path: string; release: () => Promise<void> }>();
  let storedKey: string | undefined;
  try {
    const { signal } = job;
    const pieces: RenderPiece[] = [];
    for (const event of edl.events) {
      const file = files.get(event.mediaId);
      if (!file?.storagePath) continue;
      const copy = copies.get(event.mediaId) ?? (await ctx.storage.localCopy(file.storagePath));
      copies.set(event.mediaId, copy);
      const info = await probe(copy.path, { signal });
      if (!info || (!info.hasVideo && !info.hasAudio)) {
        // Trying again would read the same bytes: fail at once.
        await failClip(
          ctx,
          clip,
          unrenderable(`media ${event.mediaId} has no picture or sound that ffmpeg can read`),
        );
        return;
      }
      pieces.push({
        input: copy.path,
        inFrame: event.inFrame,
        outFrame: event.outFrame,
        hasVideo: info.hasVideo,
        hasAudio: info.hasAudio,
      });
    }
    const sized = edl.events
      .map((event) => files.get(event.mediaId))
      .find((file) => file?.width && file.height);
    const width = even(sized?.width ?? NO_PICTURE_SIZE.width);
    const height = even(sized?.height ?? NO_PICTURE_SIZE.height);
    const output = path.join(workDir, 'clip.mp4');
    await renderEdl({
      pieces,
      fps: edl.fps,
      width,
      height,
      output,
      signal,
      threads: Math.max(1, Math.floor(os.availableParallelism() / ctx.config.workers)),
    });
    const rendered = await probe(output, { signal });
    const key = `media/accounts/${accountId}/clips/${clip.id}-${randomToken(6)}/clip.mp4`;
    const { size: bytes } = await ctx.storage.putFile(key, output, { contentType: 'video/mp4' });
    storedKey = key;
    await ctx.db
      .update(media)
      .set({
        status: 'ready',
        error: null,
        storagePath: key,
        contentType: 'video/mp4',
        size: bytes,
        duration: rendered?.duration ?? clip.duration,
        width,
        height,
      })
      .where(eq(media.id, clip.id));
    storedKey = undefined;
    // A clip saved again (saveEdlData) had a file of its former edl: nothing points at it any more.
    if (clip.storagePath && clip.storagePath !== key)
      await ctx.storage.remove(clip.storagePath).catch(() => undefined);
    await publishMedia(ctx, accountId, clip.id);
    await recordAudit(ctx, {
      operation: 'job.clipRender',
      target: { type: 'media', id: clip.id },
      accountId,
      fields: { status: 'ready' },
    });
  } catch (error) {
    if (job.retryCount >= clipRenderQueue.retryLimit && !job.stopping())
      await failClip(ctx, clip, unrenderable(message(error)));
    throw error;
  } finally {
    if (storedKey) await ctx.storage.remove(storedKey).catch(() => undefined);
    for (const copy of copies.values()) await copy.release();
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

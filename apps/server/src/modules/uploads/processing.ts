import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type Aspect,
  CHANNELS,
  isStillFileName,
  maxIngestResolutionOf,
  proxyPlan,
  uploadIngestFormat,
} from '@media/contract';
import { makePoster, makeProxy, probe } from '@media/media-tools';
import type { AppContext } from '../../platform/context.ts';
import { randomToken } from '../../platform/crypto.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { recordAudit } from '../audit/service.ts';
import { failUploadedMedia, finishUploadedMedia } from '../nodes/uploaded.ts';
import { emitUploadCompleted } from '../webhooks/payloads.ts';
import * as repo from './repo.ts';

/**
 * A web upload's proxy, poster and filmstrip (DESIGN "Jobs"): sent in the transaction that records the
 * upload and its node, retried with backoff, an hour at most; a job cut off by a crash runs again.
 */
export const uploadProxyQueue = defineQueue<{ uploadId: number }>('upload-proxy', {
  retryLimit: 3,
  retryDelaySeconds: 5,
  retryBackoff: true,
  timeLimitSeconds: 3600,
});

/** Progress is written and published at most this often. */
const PROGRESS_EVERY_MS = 1000;
/** A still is kept this wide at most (its own width when narrower). */
const STILL_MAX_WIDTH = 1920;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs the upload proxy jobs on this instance, WORKERS at once. */
export const startUploadProcessing = (ctx: AppContext) =>
  ctx.jobs.work(uploadProxyQueue, (job) => processUpload(ctx, job), { concurrency: ctx.config.workers });

const publishUpload = async (ctx: AppContext, accountId: number, uploadId: number) =>
  ctx.publish(CHANNELS.uploads(accountId), [uploadId]);

/** The upload and its media are failed with the reason; the node stays, saying why it cannot play. */
const failUpload = async (
  ctx: AppContext,
  work: { id: number; accountId: number; nodeId: number; mediaId: number },
  reason: string,
) => {
  await ctx.db.transaction(async (tx) => {
    await failUploadedMedia(tx, work.mediaId, reason);
    await repo.setUploadState(tx, work.id, { status: 'failed', progress: null, error: reason });
  });
  await ctx.publish(CHANNELS.nodes(work.accountId), [work.nodeId]);
  await publishUpload(ctx, work.accountId, work.id);
  await recordAudit(ctx, {
    operation: 'job.uploadProxy',
    target: { type: 'upload', id: work.id },
    accountId: work.accountId,
    fields: { status: 'failed', error: reason },
    failed: true,
  });
};

/**
 * Makes the upload's renditions in a work folder, stores them, and makes the node playable in one
 * transaction; files stored before a failed commit are removed, so no row points at a missing file and no
 * file is left without a row. The last failed attempt marks the upload and its media failed with the reason.
 */
const processUpload = async (ctx: AppContext, job: Job<{ uploadId: number }>) => {
  const work = await repo.findUploadWork(ctx.db, job.data.uploadId);
  // Gone (the account was deleted), done by an attempt whose completion was lost, or its node deleted.
  if (!work || work.status === 'ready') return;
  const { accountId } = work;
  if (work.nodeId === null || work.mediaId === null) {
    await repo.setUploadState(ctx.db, work.id, {
      status: 'failed',
      progress: null,
      error: 'The node of the upload was deleted before its proxy was made',
    });
    await publishUpload(ctx, accountId, work.id);
    return;
  }
  const { mediaId, nodeId } = work;
  // One job per upload runs at a time (pg-boss locks it): an attempt cut off by a crash left this folder.
  const workDir = path.join(ctx.config.dataDir, 'tmp', `upload-${work.id}`);
  await fs.promises.rm(workDir, { recursive: true, force: true });
  await fs.promises.mkdir(workDir, { recursive: true });
  const stored: string[] = [];
  let source: { path: string; release: () => Promise<void> } | undefined;
  try {
    const { signal } = job;
    try {
      source = await ctx.storage.localCopy(work.storagePath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // The stored file is gone: no attempt can succeed.
      await failUpload(ctx, { ...work, nodeId, mediaId }, `${work.fileName} is no longer stored`);
      return;
    }
    const info = await probe(source.path, { signal });
    if (!info || (!info.hasVideo && !info.hasAudio)) {
      // Trying again would read the same bytes: fail at once.
      const reason = `${work.fileName} has no picture or sound that ffmpeg can read`;
      await failUpload(ctx, { ...work, nodeId, mediaId }, reason);
      return;
    }
    let lastProgress = 0;
    const progress = async (percent: number) => {
      if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = Date.now();
      await repo.setUploadState(ctx.db, work.id, { progress: Math.floor(percent) });
      await publishUpload(ctx, accountId, work.id);
    };
    const keyBase = `media/accounts/${accountId}/uploads/${work.id}-${randomToken(6)}`;
    const store = async (file: string, name: string, contentType: string) => {
      const key = `${keyBase}/${name}`;
      await ctx.storage.putFile(key, file, { contentType });
      stored.push(key);
      return key;
    };
    const still = isStillFileName(work.fileName) && info.hasVideo;
    let finished: Parameters<typeof finishUploadedMedia>[1];
    const common = {
      nodeId,
      mediaId,
      accountId,
      source: { width: info.width, height: info.height },
    };
    if (still) {
      const picture = path.join(workDir, 'still.jpg');
      const width = Math.min(STILL_MAX_WIDTH, info.width ?? STILL_MAX_WIDTH);
      await makePoster({ input: source.path, output: picture, duration: null, width, signal });
      const poster = path.join(workDir, 'poster.jpg');
      await makePoster({ input: source.path, output: poster, duration: null, signal });
      const shown = await probe(picture, { signal });
      finished = {
        ...common,
        type: 'still',
        proxyKey: await store(picture, 'still.jpg', 'image/jpeg'),
        contentType: 'image/jpeg',
        posterKey: await store(poster, 'poster.jpg', 'image/jpeg'),
        filmstripKey: null,
        duration: null,
        width: shown?.width ?? null,
        height: shown?.height ?? null,
        fps: null,
      };
    } else {
      const format = uploadIngestFormat({
        format: work.format,
        aspect: work.aspect as Aspect | null,
        account: work.accountFormats,
      });
      const plan = proxyPlan(
        info.hasVideo && info.width && info.height ? { width: info.width, height: info.height } : null,
        format,
        maxIngestResolutionOf(work.maxVideo),
      );
      const proxy = path.join(workDir, 'proxy.mp4');
      const poster = path.join(workDir, 'poster.jpg');
      const filmstrip = path.join(workDir, 'filmstrip.jpg');
      await makeProxy({
        input: source.path,
        output: proxy,
        plan,
        duration: info.duration,
        hasVideo: info.hasVideo,
        hasAudio: info.hasAudio,
        signal,
        threads: Math.max(1, Math.floor(os.availableParallelism() / ctx.config.workers)),
        thumbnails: { poster, filmstrip },
        onProgress: (percent) => void progress(percent).catch(() => undefined),
      });
      let posterKey: string | null = null;
      let filmstripKey: string | null = null;
      if (info.hasVideo) {
        posterKey = await store(poster, 'poster.jpg', 'image/jpeg');
        filmstripKey = await store(filmstrip, 'filmstrip.jpg', 'image/jpeg');
      }
      finished = {
        ...common,
        type: 'media',
        proxyKey: await store(proxy, 'proxy.mp4', 'video/mp4'),
        contentType: 'video/mp4',
        posterKey,
        filmstripKey,
        duration: info.duration,
        width: info.hasVideo ? plan.width : null,
        height: info.hasVideo ? plan.height : null,
        fps: info.hasVideo ? plan.fps : null,
      };
    }
    await ctx.db.transaction(async (tx) => {
      await finishUploadedMedia(tx, finished);
      await repo.setUploadState(tx, work.id, { status: 'ready', progress: null, error: null });
      await emitUploadCompleted(ctx, tx, work.id);
    });
    stored.length = 0;
    await ctx.publish(CHANNELS.nodes(accountId), [nodeId]);
    await publishUpload(ctx, accountId, work.id);
    await recordAudit(ctx, {
      operation: 'job.uploadProxy',
      target: { type: 'upload', id: work.id },
      accountId,
      fields: { status: 'ready', mediaId },
    });
  } catch (error) {
    if (job.retryCount >= uploadProxyQueue.retryLimit && !job.stopping())
      await failUpload(ctx, { ...work, nodeId, mediaId }, `The proxy could not be made: ${message(error)}`);
    throw error;
  } finally {
    for (const key of stored) await ctx.storage.remove(key).catch(() => undefined);
    await source?.release();
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

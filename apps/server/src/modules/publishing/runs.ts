import fs from 'node:fs';
import path from 'node:path';
import { PUBLISH_RUN_MESSAGES, type PublishOutput, publishModule } from '@media/contract';
import { type ProcessedFile, ProcessRefused, probe, runProcessStep } from '@media/media-tools';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { recordAudit } from '../audit/service.ts';
import { deliver, PublishRefused } from './destinations/index.ts';
import { handToEdge } from './edge-runs.ts';
import { processResources } from './process-resources.ts';
import * as repo from './run-repo.ts';
import { changePublish, endPublish, nodePathOf, planPublish, runPostModules } from './run-steps.ts';

/**
 * One run of a publishing button on one node (DESIGN "Publishing", "Jobs"): written with its publish in the
 * transaction that asks for it, retried with backoff, two hours at most; a run cut off by a crash runs again.
 */
export const publishRunQueue = defineQueue<{ publishId: number }>('publish-run', {
  retryLimit: 2,
  retryDelaySeconds: 10,
  retryBackoff: true,
  timeLimitSeconds: 7200,
});

/** Runs the publish jobs on this instance, WORKERS at once. */
export const startPublishRuns = (ctx: AppContext) =>
  ctx.jobs.work(publishRunQueue, (job) => runPublish(ctx, job), { concurrency: ctx.config.workers });

/** Queues one publish of the button per node, in the caller's transaction; answers their ids. */
export const queuePublishes = async (
  ctx: AppContext,
  tx: DbOrTx,
  publish: { buttonId: number; accountId: number; userId: number | null; options: Record<string, unknown> },
  nodeIds: number[],
) => {
  const ids = await repo.insertPublishes(tx, publish, nodeIds);
  await ctx.jobs.send(
    tx,
    publishRunQueue,
    ids.map((publishId) => ({ publishId })),
  );
  return ids;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One process module on the file so far; one the workers cannot run fails the publish at once. */
const runProcess = (...[node, ...rest]: Parameters<typeof runProcessStep>) =>
  runProcessStep(node, ...rest).catch((error: unknown) => {
    if (error instanceof ProcessRefused)
      throw new PublishRefused(
        PUBLISH_RUN_MESSAGES.cannotRunYet(publishModule(node.moduleId)?.name ?? node.moduleId),
      );
    throw error;
  });

/**
 * Runs a publish: the node's playable file through each chain of the button's network into its
 * destination, then the post modules; progress and a log line per step on the publish, and a notification
 * to who published when it ends. Something no retry can mend fails it at once; anything else is retried.
 */
const runPublish = async (ctx: AppContext, job: Job<{ publishId: number }>) => {
  const id = job.data.publishId;
  const work = await repo.findPublishWork(ctx.db, id);
  if (!work || ['done', 'failed', 'deleted'].includes(work.publish.status)) return;
  const { publish, button } = work;
  const nodePath = nodePathOf(work);
  const workDir = path.join(ctx.config.dataDir, 'tmp', `publish-${id}`);
  const change = (update: repo.PublishChange) => changePublish(ctx, work, update);
  let source: { path: string; release: () => Promise<void> } | undefined;
  let resources: Awaited<ReturnType<typeof processResources>> | undefined;
  const end = async (outcome: { outputs: PublishOutput[] } | { error: string }) => {
    await endPublish(ctx, work, outcome);
    await recordAudit(ctx, {
      operation: 'job.publishRun',
      target: { type: 'publish', id },
      accountId: publish.accountId,
      fields: 'error' in outcome ? { status: 'failed', error: outcome.error } : { status: 'done' },
      failed: 'error' in outcome,
    });
  };
  try {
    // A button that runs on an edge server: checked here, then carried out by that edge server's agent.
    if (button.location.type === 'edge') return await handToEdge(ctx, work);
    await change({
      status: 'running',
      started: true,
      progress: 0,
      log: [job.retryCount > 0 ? `Started again (attempt ${job.retryCount + 1})` : 'Started'],
    });
    const plan = await planPublish(ctx, work);
    // The watermark's image and the subtitles, before any work: a missing one fails the publish at once.
    resources = await processResources(
      ctx,
      { publish, button, node: plan.node, mediaId: plan.media.id },
      plan.chains.flatMap((chain) => chain.processes),
    );

    await fs.promises.rm(workDir, { recursive: true, force: true });
    await fs.promises.mkdir(workDir, { recursive: true });
    source = await ctx.storage.localCopy(plan.media.storagePath);
    const info = await probe(source.path, { signal: job.signal });
    if (!info) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
    const total = plan.chains.reduce((sum, chain) => sum + chain.processes.length + 1, 0);
    let done = 0;
    let lastProgress = 0;
    const onProgress = (percent: number) => {
      const overall = Math.floor(((done + percent / 100) / total) * 100);
      if (Date.now() - lastProgress < 1000) return;
      lastProgress = Date.now();
      void change({ progress: Math.min(99, overall) }).catch(() => undefined);
    };
    const outputs: PublishOutput[] = [];
    for (const [chainIndex, chain] of plan.chains.entries()) {
      let current: ProcessedFile = { file: source.path, duration: info.duration, hasAudio: info.hasAudio };
      for (const [stepIndex, process] of chain.processes.entries()) {
        current = await runProcess(
          process,
          current,
          path.join(workDir, `${chainIndex}-${stepIndex}`),
          { signal: job.signal, onProgress },
          resources.of(process),
        );
        done++;
        await change({
          log: [`${publishModule(process.moduleId)?.name ?? process.moduleId}: done`],
        });
      }
      outputs.push(
        await deliver(ctx, chain.destination, current.file, {
          accountId: publish.accountId,
          accountName: work.accountName,
          nodeName: plan.node.name,
          nodePath: nodePath ?? '',
          publishId: id,
          button: { id: publish.buttonId, name: button.name },
          mediaId: plan.media.id,
          signal: job.signal,
        }),
      );
      done++;
      await change({
        log: [`${publishModule(chain.destination.moduleId)?.name}: ${outputs.at(-1)?.location}`],
      });
    }
    await runPostModules(ctx, work, plan.post, outputs);
    await end({ outputs });
  } catch (error) {
    const permanent = error instanceof PublishRefused;
    if (permanent || (job.retryCount >= publishRunQueue.retryLimit && !job.stopping())) {
      await end({ error: message(error) });
      if (permanent) return;
    } else {
      await change({ log: [`Attempt failed: ${message(error)}`] });
    }
    throw error;
  } finally {
    await source?.release();
    await resources?.release();
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

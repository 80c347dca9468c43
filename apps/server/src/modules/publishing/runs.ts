import fs from 'node:fs';
import path from 'node:path';
import {
  accountPath,
  CHANNELS,
  NODE_MESSAGES,
  PUBLISH_RUN_MESSAGES,
  type PublishOutput,
  publishModule,
  publishRunPlan,
  withPublishData,
} from '@media/contract';
import { type ProcessedFile, ProcessRefused, probe, runProcessStep } from '@media/media-tools';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { requestClipRender } from '../nodes/clip-render.ts';
import { notifyUser } from '../notifications/service.ts';
import { deliver, PublishRefused } from './destinations/index.ts';
import * as repo from './run-repo.ts';

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
  const { publish, button, node } = work;
  const nodePath = node ? accountPath(work.accountName, node.path) : null;
  const workDir = path.join(ctx.config.dataDir, 'tmp', `publish-${id}`);
  // Each change shows at once on the account's published items (CHANNELS.publishes).
  const change = async (update: repo.PublishChange) => {
    await repo.updatePublish(ctx.db, id, update);
    await ctx.publish(CHANNELS.publishes(publish.accountId), [id]);
  };
  let source: { path: string; release: () => Promise<void> } | undefined;
  const end = async (outcome: { outputs: PublishOutput[] } | { error: string }) => {
    const failed = 'error' in outcome;
    await change({
      status: failed ? 'failed' : 'done',
      progress: failed ? null : 100,
      finished: true,
      ...(failed
        ? { error: outcome.error, log: [`Failed: ${outcome.error}`] }
        : { outputs: outcome.outputs, log: ['Done'] }),
    });
    if (publish.userId !== null)
      await notifyUser(ctx, publish.userId, {
        type: failed ? 'problem' : 'done',
        message: failed
          ? `Publishing ${nodePath ?? 'a deleted node'} with ${button.name} failed: ${outcome.error}`
          : NODE_MESSAGES.publishedOn(`${nodePath} (${button.name})`),
      });
  };
  try {
    await change({
      status: 'running',
      started: true,
      progress: 0,
      log: [job.retryCount > 0 ? `Started again (attempt ${job.retryCount + 1})` : 'Started'],
    });
    if (!node || !work.media) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
    // A clip without its file yet (being rendered, or saved before clips were rendered): render it, and
    // try again once it is there (the job's retries with backoff).
    if (work.media.type === 'edl' && !work.media.storagePath && work.media.status !== 'failed') {
      await requestClipRender(ctx, work.media.id);
      throw new Error(PUBLISH_RUN_MESSAGES.notRendered);
    }
    if (!work.media.storagePath) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
    const [phase] = button.phases;
    if (!phase) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
    if (button.location.type !== 'cloud') throw new PublishRefused(PUBLISH_RUN_MESSAGES.edgeNotYet);
    // What the person gave when publishing fills what the button left empty (notEnoughPublishData).
    const nodes = phase.phase.network.nodes.map((node) => ({
      ...node,
      options: withPublishData(node.options, publish.options),
    }));
    const plan = publishRunPlan({ ...phase.phase, network: { ...phase.phase.network, nodes } });
    if (plan.problems.length > 0) throw new PublishRefused(plan.problems.join('; '));

    await fs.promises.rm(workDir, { recursive: true, force: true });
    await fs.promises.mkdir(workDir, { recursive: true });
    source = await ctx.storage.localCopy(work.media.storagePath);
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
        current = await runProcess(process, current, path.join(workDir, `${chainIndex}-${stepIndex}`), {
          signal: job.signal,
          onProgress,
        });
        done++;
        await change({
          log: [`${publishModule(process.moduleId)?.name ?? process.moduleId}: done`],
        });
      }
      outputs.push(
        await deliver(ctx, chain.destination, current.file, {
          accountName: work.accountName,
          nodeName: node.name,
          nodePath: nodePath ?? '',
          publishId: id,
          button: { id: publish.buttonId, name: button.name },
          mediaId: work.media.id,
          signal: job.signal,
        }),
      );
      done++;
      await change({
        log: [`${publishModule(chain.destination.moduleId)?.name}: ${outputs.at(-1)?.location}`],
      });
    }
    for (const post of plan.post) {
      if (post.moduleId !== 'email-notify')
        throw new PublishRefused(
          PUBLISH_RUN_MESSAGES.cannotRunYet(publishModule(post.moduleId)?.name ?? post.moduleId),
        );
      const to = String(post.options.to ?? '');
      await ctx.db.transaction((tx) =>
        ctx.mail.enqueue(tx, [
          {
            to,
            subject: `Media Cloud: ${node.name} published with ${button.name}`,
            text: `${nodePath} was published with ${button.name}:\n${outputs.map((output) => `- ${output.location}`).join('\n')}\n`,
          },
        ]),
      );
      await change({ log: [`Email notification: sent to ${to}`] });
    }
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
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

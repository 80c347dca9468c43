import {
  accountPath,
  CHANNELS,
  NODE_MESSAGES,
  PUBLISH_RUN_MESSAGES,
  type PublishOutput,
  publishedItemsLink,
  publishHelpLink,
  publishModule,
  publishRunPlan,
  publishSourceFileOf,
  withPublishData,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { requestClipRender } from '../nodes/clip-render.ts';
import { notifyUser } from '../notifications/service.ts';
import { emitPublishEvent } from '../webhooks/payloads.ts';
import { PublishRefused } from './destinations/index.ts';
import * as repo from './run-repo.ts';

// The steps of a publish that the cloud's run (runs.ts) and an edge server's agent (edge-runs.ts) share: its
// plan, each change shown live, the post modules, and its end with the notification of who published.

export type PublishWork = NonNullable<Awaited<ReturnType<typeof repo.findPublishWork>>>;

/** The node's path as people see it (/{account}/…), or null once the node is deleted. */
export const nodePathOf = (work: PublishWork) =>
  work.node ? accountPath(work.accountName, work.node.path) : null;

/** Each change shows at once on the account's published items (CHANNELS.publishes). */
export const changePublish = async (ctx: AppContext, work: PublishWork, update: repo.PublishChange) => {
  // A run started (not started again by a retry), delivered or failed tells the webhooks, with the change.
  const event =
    update.status === 'running' && work.publish.status !== 'running'
      ? 'publish.started'
      : update.status === 'done'
        ? 'publish.done'
        : update.status === 'failed'
          ? 'publish.failed'
          : undefined;
  await ctx.db.transaction(async (tx) => {
    await repo.updatePublish(tx, work.publish.id, update);
    if (event) await emitPublishEvent(ctx, tx, event, work.publish.id);
  });
  await ctx.publish(CHANNELS.publishes(work.publish.accountId), [work.publish.id]);
};

/**
 * The button's first phase network with what the person gave when publishing filling what the button left
 * empty (notEnoughPublishData), and the order it runs in; no check of the media.
 */
export const networkPlan = (work: PublishWork) => {
  const [phase] = work.button.phases;
  if (!phase) return undefined;
  const nodes = phase.phase.network.nodes.map((node) => ({
    ...node,
    options: withPublishData(node.options, work.publish.options),
  }));
  const network = { ...phase.phase.network, nodes };
  return { network, ...publishRunPlan({ ...phase.phase, network }) };
};

/**
 * What a run does, or why it cannot: no media file, or a network whose destination nothing feeds, fails it
 * at once; a clip without its file yet (being rendered, or saved before clips were rendered) is rendered, and
 * the run tried again once it is there (the job's retries with backoff).
 */
export const planPublish = async (ctx: AppContext, work: PublishWork) => {
  const { node, media } = work;
  if (!node || !media) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
  if (media.type === 'edl' && !media.storagePath && media.status !== 'failed') {
    await requestClipRender(ctx, media.id);
    throw new Error(PUBLISH_RUN_MESSAGES.notRendered);
  }
  const plan = networkPlan(work);
  if (!plan) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
  if (plan.problems.length > 0) throw new PublishRefused(plan.problems.join('; '));
  return { ...plan, node, media: { ...media, storagePath: publishedFileKey(work) } };
};

/**
 * The storage key of the file a run publishes: the playable proxy (a clip's render), or the original when
 * the button's source asks for it and the cloud keeps it; a refusal saying which is missing otherwise.
 */
export const publishedFileKey = (work: PublishWork) => {
  const { node, media } = work;
  if (!node || !media) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
  const network = work.button.phases[0]?.phase.network;
  if (network && media.type !== 'edl' && publishSourceFileOf(network) === 'source') {
    if (!media.sourcePath) throw new PublishRefused(PUBLISH_RUN_MESSAGES.originalNotKept(node.name));
    return media.sourcePath;
  }
  if (!media.storagePath) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noSource);
  return media.storagePath;
};

/** The post modules, once the destinations have the result: an e-mail to whom the module names. */
export const runPostModules = async (
  ctx: AppContext,
  work: PublishWork,
  post: { moduleId: string; options: Record<string, unknown> }[],
  outputs: PublishOutput[],
) => {
  const { button, node } = work;
  for (const step of post) {
    if (step.moduleId !== 'email-notify')
      throw new PublishRefused(
        PUBLISH_RUN_MESSAGES.cannotRunYet(publishModule(step.moduleId)?.name ?? step.moduleId),
      );
    const to = String(step.options.to ?? '');
    await ctx.db.transaction((tx) =>
      ctx.mail.enqueue(tx, [
        {
          to,
          subject: `Media Cloud: ${node?.name} published with ${button.name}`,
          text: `${nodePathOf(work)} was published with ${button.name}:\n${outputs.map((output) => `- ${output.location}`).join('\n')}\n`,
        },
      ]),
    );
    await changePublish(ctx, work, { log: [`Email notification: sent to ${to}`] });
  }
};

/** A publish ends, done with its outputs or failed with the reason; who published is notified (Done, Problems). */
export const endPublish = async (
  ctx: AppContext,
  work: PublishWork,
  outcome: { outputs: PublishOutput[] } | { error: string },
) => {
  const failed = 'error' in outcome;
  // Notified first: whoever sees the publish finished finds its notification there too.
  const nodePath = nodePathOf(work);
  if (work.publish.userId !== null)
    await notifyUser(ctx, work.publish.userId, {
      type: failed ? 'problem' : 'done',
      message: failed
        ? `Publishing ${nodePath ?? 'a deleted node'} with ${work.button.name} failed: ${outcome.error}`
        : NODE_MESSAGES.publishedOn(`${nodePath} (${work.button.name})`),
      // A failure links to the item's help (what to do, Publish again); a success to the button's place in
      // the media tree, where the item shows with its result.
      link: failed
        ? publishHelpLink(work.publish.id)
        : publishedItemsLink(work.accountName, work.button.name),
    });
  await changePublish(ctx, work, {
    status: failed ? 'failed' : 'done',
    progress: failed ? null : 100,
    finished: true,
    ...(failed
      ? { error: outcome.error, log: [`Failed: ${outcome.error}`] }
      : { outputs: outcome.outputs, log: ['Done'] }),
  });
};

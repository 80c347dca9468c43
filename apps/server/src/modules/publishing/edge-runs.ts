import {
  AGENT_PUBLISH_MESSAGES,
  type AgentPublish,
  type AgentPublishProgress,
  CHANNELS,
  EDGE_INSTALLED_MODULES,
  PUBLISH_MESSAGES,
  publishModule,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { storedContent } from '../../platform/http/stored-content.ts';
import { isSafeKey } from '../../platform/storage/index.ts';
import { usableRange } from '../nodes/media.ts';
import { emitPublishEvent } from '../webhooks/payloads.ts';
import { msgUnknownLocation } from './buttons.ts';
import { PublishRefused } from './destinations/index.ts';
import * as edgeRepo from './edge-run-repo.ts';
import * as repo from './run-repo.ts';
import {
  changePublish,
  endPublish,
  networkPlan,
  type PublishWork,
  planPublish,
  publishedFileKey,
  runPostModules,
} from './run-steps.ts';

// A publish whose button runs on an edge server (DESIGN "Publishing"): the cloud's job checks it and hands it
// over; that edge server's agent lists, claims and carries it out through /api/agent/publishes, reporting
// progress the same way, and the cloud ends it (post modules, notification) when the agent says it is done.

/** The edge server an agent's token names. */
export type PublishingEdge = { id: number; name: string };

/**
 * The run job's part for an edge location: what the run would refuse, and a module the edge server does not
 * have installed, fail it at once; otherwise it waits, queued, for that edge server's agent.
 */
export const handToEdge = async (ctx: AppContext, work: PublishWork) => {
  const { location } = work.button;
  const plan = await planPublish(ctx, work);
  const name = location.id === null ? undefined : await edgeRepo.findEdgeServerName(ctx.db, location.id);
  if (location.id === null || name === undefined) throw new PublishRefused(msgUnknownLocation(location));
  for (const node of [
    ...plan.chains.flatMap((chain) => [...chain.processes, chain.destination]),
    ...plan.post,
  ])
    if (EDGE_INSTALLED_MODULES[node.moduleId] === undefined)
      throw new PublishRefused(
        PUBLISH_MESSAGES.locationNotRunnable(
          name,
          PUBLISH_MESSAGES.moduleNotInstalled(publishModule(node.moduleId)?.name ?? node.moduleId),
        ),
      );
  // Claimed already (the job ran again after a crash): its agent has it.
  if (work.publish.status === 'running' && work.publish.edgeServerId === location.id) return;
  await changePublish(ctx, work, { edgeServerId: location.id, log: [AGENT_PUBLISH_MESSAGES.waiting(name)] });
};

/** A publish handed over to this edge server; another edge server's, or none, is a 404. */
const requireEdgePublish = async (ctx: AppContext, edge: PublishingEdge, id: number) => {
  const work = await repo.findPublishWork(ctx.db, id);
  if (!work || work.publish.edgeServerId !== edge.id || work.publish.deletedAt !== null)
    throw notFound('Published item');
  return work;
};

const requireUnderWay = (work: PublishWork, statuses: string[]) => {
  if (!statuses.includes(work.publish.status))
    throw conflict(AGENT_PUBLISH_MESSAGES.notRunning(work.publish.status));
};

const agentPublishOf = (work: PublishWork, status: AgentPublish['status']): AgentPublish => {
  const plan = networkPlan(work);
  return {
    id: work.publish.id,
    status,
    nodeName: work.node?.name ?? '',
    media: { duration: work.media?.duration ?? null, contentType: work.media?.contentType ?? null },
    network: plan?.network ?? { nodes: [], connections: [] },
    chains: plan?.chains ?? [],
  };
};

/** GET /api/agent/publishes: what the edge server's agent has to carry out, its unfinished ones first. */
export const listEdgePublishes = async (options: {
  ctx: AppContext;
  edge: PublishingEdge;
  limit: number;
}) => {
  const { ctx, edge } = options;
  const answers: AgentPublish[] = [];
  for (const id of await edgeRepo.findEdgePublishIds(ctx.db, edge.id, options.limit)) {
    const work = await repo.findPublishWork(ctx.db, id);
    if (work && (work.publish.status === 'queued' || work.publish.status === 'running'))
      answers.push(agentPublishOf(work, work.publish.status));
  }
  return answers;
};

/**
 * POST /api/agent/publishes/{id}/claim: the agent starts the publish (queued → running); its own running
 * publish claimed again (the agent stopped in the middle) starts again from the beginning.
 */
export const claimEdgePublish = async (options: { ctx: AppContext; edge: PublishingEdge; id: number }) => {
  const { ctx, edge, id } = options;
  const work = await requireEdgePublish(ctx, edge, id);
  requireUnderWay(work, ['queued', 'running']);
  const from = work.publish.status === 'running' ? 'running' : 'queued';
  const log = (from === 'queued' ? AGENT_PUBLISH_MESSAGES.started : AGENT_PUBLISH_MESSAGES.startedAgain)(
    edge.name,
  );
  const claimed = await ctx.db.transaction(async (tx) => {
    if (!(await edgeRepo.claimPublish(tx, { id, edgeServerId: edge.id, from, log }))) return false;
    if (from === 'queued') await emitPublishEvent(ctx, tx, 'publish.started', id);
    return true;
  });
  if (!claimed) throw conflict(AGENT_PUBLISH_MESSAGES.notRunning(from === 'queued' ? 'running' : 'ended'));
  await ctx.publish(CHANNELS.publishes(work.publish.accountId), [id]);
  return agentPublishOf(work, 'running');
};

/** GET /api/agent/publishes/{id}/source: the node's playable file, the one a cloud run uses, with byte ranges. */
export const edgePublishSource = async (options: {
  ctx: AppContext;
  edge: PublishingEdge;
  id: number;
  request: { range?: string; ifRange?: string; ifNoneMatch?: string };
}) => {
  const { ctx, edge, id } = options;
  const work = await requireEdgePublish(ctx, edge, id);
  requireUnderWay(work, ['queued', 'running']);
  // Refused when the file is missing; the job checked the plan before the agent saw the publish.
  const key = (() => {
    try {
      return publishedFileKey(work);
    } catch {
      return undefined;
    }
  })();
  const stat = key && isSafeKey(key) ? await ctx.storage.stat(key).catch(() => undefined) : undefined;
  const answer =
    key && stat
      ? await storedContent(ctx.storage, key, {
          ...options.request,
          range: usableRange(options.request.range, stat.size),
          contentType: key === work.media?.storagePath ? (work.media?.contentType ?? null) : null,
        })
      : undefined;
  if (!answer) throw notFound('Media file');
  return answer;
};

/**
 * POST /api/agent/publishes/{id}: the agent's progress and log lines on its running publish, then how it
 * ended. Done runs the post modules on the cloud and ends it as a cloud run does (the same notification).
 * A publish no longer running (a person deleted it, or it ended) is a 409: the agent stops.
 */
export const reportEdgePublish = async (options: {
  ctx: AppContext;
  edge: PublishingEdge;
  id: number;
  report: AgentPublishProgress;
}) => {
  const { ctx, edge, id, report } = options;
  const work = await requireEdgePublish(ctx, edge, id);
  requireUnderWay(work, ['running']);
  const outputs = report.outputs ?? [];
  if (report.status === 'done' && outputs.length === 0)
    throw badRequest(AGENT_PUBLISH_MESSAGES.doneWithoutOutputs, {
      outputs: AGENT_PUBLISH_MESSAGES.doneWithoutOutputs,
    });
  if (report.status === 'failed' && !report.error?.trim())
    throw badRequest(AGENT_PUBLISH_MESSAGES.failedWithoutError, {
      error: AGENT_PUBLISH_MESSAGES.failedWithoutError,
    });
  if (report.log?.length || (report.progress !== undefined && !report.status))
    await changePublish(ctx, work, {
      log: report.log,
      ...(report.progress !== undefined && !report.status ? { progress: Math.min(99, report.progress) } : {}),
    });
  if (report.status === 'failed') await endPublish(ctx, work, { error: report.error as string });
  if (report.status === 'done') {
    try {
      await runPostModules(ctx, work, networkPlan(work)?.post ?? [], outputs);
    } catch (error) {
      if (!(error instanceof PublishRefused)) throw error;
      await endPublish(ctx, work, { error: error.message });
      return { ok: true as const, status: 'failed' as const };
    }
    await endPublish(ctx, work, { outputs });
  }
  return { ok: true as const, status: report.status ?? ('running' as const) };
};

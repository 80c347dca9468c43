import { CHANNELS } from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import * as repo from './repo.ts';
import type { AgentEdge } from './service.ts';

/** A file the agent found in an endpoint but cannot ingest: listed once for the edge server's managers. */
export const reportUnprocessedFile = async (options: {
  ctx: AppContext;
  edge: AgentEdge;
  endpointId: number;
  path: string;
}) => {
  const { ctx, edge } = options;
  const endpoint = await repo.findEdgeEndpoint(ctx.db, edge.id, options.endpointId);
  if (!endpoint) throw notFound('Endpoint');
  const [created] = await repo.upsertUnprocessedFile(ctx.db, endpoint.id, options.path);
  if (created) await ctx.publish(CHANNELS.unprocessedFiles(edge.id), [endpoint.id]);
  return { ok: true as const };
};

import { Readable } from 'node:stream';
import {
  AGENT_LIVE_SEGMENT_MAX_BYTES,
  agentLiveSegmentQuerySchema,
  CHANNELS,
  EDGE_RULE_MESSAGES,
  ERROR_CODES,
  okSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { results } from '../../platform/http/envelope.ts';
import { edgeMayLandIn } from '../arrivals/service.ts';
import { publishItemChanges } from '../ingest/live.ts';
import { addLiveSegment } from '../nodes/live.ts';
import { addLiveMedia } from '../nodes/service.ts';
import * as itemFiles from './item-files-repo.ts';
import * as repo from './repo.ts';
import type { AgentEdge } from './service.ts';

const liveSegmentParamsSchema = z.strictObject({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  sequence: z.coerce.number().int().min(0).max(99_999),
});

/**
 * The live rendition of a recording (issue 16): the agent uploads each segment as ffmpeg finishes it; the
 * first one makes the stream's node in its arrivals folder, playing live (`lifestream`) until the recording
 * lands on it. Registered in the agent scope, so the edge server is the one the token names.
 */
export const registerAgentLiveRoutes = (
  scope: FastifyInstance,
  ctx: AppContext,
  edgeOf: (request: FastifyRequest) => AgentEdge,
) => {
  scope.addContentTypeParser('video/mp2t', (_request, payload, done) => done(null, payload));
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.put(
    '/queueItems/:id/live/:sequence',
    {
      bodyLimit: AGENT_LIVE_SEGMENT_MAX_BYTES,
      schema: {
        tags: ['edge agent'],
        description:
          'One live segment of a stream the agent records, as video/mp2t (the same sequence replaces)',
        params: liveSegmentParamsSchema,
        querystring: agentLiveSegmentQuerySchema,
        consumes: ['video/mp2t'],
        response: { 200: okSchema },
      },
    },
    async (request) => {
      // Only the video/mp2t parser above hands over a stream; any other type arrives parsed.
      const body = request.body instanceof Readable ? request.body : undefined;
      if (!body) throw new AppError(ERROR_CODES.unsupportedMediaType, 'A live segment must be video/mp2t');
      const edge = edgeOf(request);
      const { id, sequence } = request.params;
      const item = await repo.findAgentItem(ctx.db, edge.id, id);
      if (!item) throw new AppError(ERROR_CODES.notFound, 'Queue item not found');
      if (!item.isStream || item.status !== 'ingesting')
        throw new AppError(ERROR_CODES.conflict, `The item is ${item.status}; it records no live stream`);
      const ingested = await repo.findIngestedItem(ctx.db, id);
      if (!ingested?.accountId)
        throw new AppError(ERROR_CODES.conflict, 'The stream feeds no account: there is no node to play it');
      const accountId = ingested.accountId;
      // Live media lands too: only where the edge server may send media (edgeMayLandIn, issue 30).
      const target = {
        accountId,
        arrivalsFolderId: item.arrivalsFolderId,
        arrivalsSetBy: item.arrivalsSetBy,
      };
      if (!(await edgeMayLandIn(ctx.db, edge, target)))
        throw forbidden(EDGE_RULE_MESSAGES.edgeMayNotLandInAccount);
      const targetFolder = ingested.folderOptions?.targetFolder;
      const live = await ctx.db.transaction(async (tx) => {
        const added = await addLiveMedia(tx, {
          accountId,
          ingestQueueItemId: id,
          targetFolder: typeof targetFolder === 'string' ? targetFolder : null,
          folderName: ingested.folderName,
          name: ingested.clipName || ingested.sourceName,
          sourcePath: ingested.sourceName,
        });
        if (added?.created) await itemFiles.setLiveNode(tx, id, added.nodeId);
        return added;
      });
      if (!live) throw new AppError(ERROR_CODES.conflict, 'The recording has landed: it is no longer live');
      await addLiveSegment(ctx, {
        mediaId: live.mediaId,
        accountId,
        sequence,
        duration: request.query.duration,
        discontinuity: request.query.discontinuity === '1',
        stream: body,
      });
      if (live.created) {
        await ctx.publish(CHANNELS.nodes(accountId), [live.nodeId]);
        await publishItemChanges(ctx, [{ id, edgeServerId: edge.id, accountId }]);
      }
      return results({ ok: true as const });
    },
  );
};

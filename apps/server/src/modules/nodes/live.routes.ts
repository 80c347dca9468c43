import { idParamSchema } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { contentRequestOf, sendStoredContent } from '../../platform/http/stored-content.ts';
import * as service from './service.ts';

const liveSegmentParamsSchema = z.strictObject({
  id: idParamSchema.shape.id,
  segment: z
    .string()
    .regex(/^\d{1,5}\.ts$/, 'A live segment is named {sequence}.ts')
    .transform((name) => Number(name.slice(0, -3))),
});

/**
 * A stream being recorded, played live (issue 16; spec3 §3 `lifestream`): its HLS playlist and segments, to
 * the viewers of its account. Not found once the recording has landed (the media then plays as a file).
 */
export const registerLiveRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['media tree'];
  app.get(
    '/media/:id/live.m3u8',
    {
      schema: {
        tags,
        description: 'The HLS playlist of a stream being recorded (viewers of its account)',
        params: idParamSchema,
      },
    },
    async (request, reply) => {
      const playlist = await service.livePlaylist({
        ctx,
        actor: requireActor(request),
        id: request.params.id,
      });
      return reply
        .header('content-type', 'application/vnd.apple.mpegurl')
        .header('cache-control', 'no-cache')
        .send(playlist);
    },
  );
  app.get(
    '/media/:id/live/:segment',
    {
      schema: {
        tags,
        description: 'One segment of a stream being recorded, as video/mp2t, with byte ranges',
        params: liveSegmentParamsSchema,
      },
    },
    async (request, reply) => {
      const answer = await service.liveSegmentFile({
        ctx,
        actor: requireActor(request),
        id: request.params.id,
        sequence: request.params.segment,
        request: contentRequestOf(request),
      });
      return sendStoredContent(reply, answer);
    },
  );
};

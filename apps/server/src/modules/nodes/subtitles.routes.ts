import {
  CHANNELS,
  collectionOf,
  idParamSchema,
  okSchema,
  resultsOf,
  SUBTITLE_MAX_BYTES,
  SUBTITLE_MESSAGES,
  subtitleParamsSchema,
  subtitleSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { MULTIPART_FRAMING_BYTES, refuseDeclaredLengthOver } from '../../platform/http/declared-length.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

/**
 * The subtitles of a media, one file per language. The PUT's body is the file itself (any content type:
 * the service tells SubRip from WebVTT by the content), so in this scope every body is read as bytes.
 */
export const registerSubtitleRoutes = async (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  await fastify.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // A little over the limit, so that the service answers a file just over it with its own message.
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: SUBTITLE_MAX_BYTES + MULTIPART_FRAMING_BYTES },
      (_request, body, done) => done(null, body),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['media tree'];

    app.get(
      '/media/:id/subtitles',
      {
        schema: {
          tags,
          description: 'The languages the media has subtitles in (viewers of its account)',
          params: idParamSchema,
          response: { 200: collectionOf(subtitleSchema) },
        },
      },
      async (request) => {
        const { rows, accountId } = await service.listSubtitles({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
        });
        return collection(rows, rows.length, CHANNELS.nodes(accountId));
      },
    );
    app.put(
      '/media/:id/subtitles/:language',
      {
        schema: {
          tags,
          description:
            "Attach (or replace) the media's subtitles in a language: the body is the file, SubRip or WebVTT in UTF-8 (by content), at most 1 MB (those who may edit a node's metadata)",
          params: subtitleParamsSchema,
          response: { 200: resultsOf(subtitleSchema) },
        },
        onRequest: refuseDeclaredLengthOver(SUBTITLE_MAX_BYTES, SUBTITLE_MESSAGES.tooLarge),
      },
      async (request) =>
        results(
          await service.putSubtitles({
            ctx,
            actor: requireActor(request),
            ...request.params,
            content: Buffer.isBuffer(request.body) ? request.body : undefined,
          }),
        ),
    );
    app.delete(
      '/media/:id/subtitles/:language',
      {
        schema: {
          tags,
          description: "Remove the media's subtitles in a language (those who may edit a node's metadata)",
          params: subtitleParamsSchema,
          response: { 200: okSchema },
        },
      },
      async (request) =>
        results(await service.deleteSubtitles({ ctx, actor: requireActor(request), ...request.params })),
    );
  });
};

import { idParamSchema, signedDownloadQuerySchema } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { contentRequestOf, sendStoredContent } from '../../platform/http/stored-content.ts';
import { signedDownload } from './download-links.ts';

/** Signed download links (issue 33): no session, the link's signature is the right. */
export const registerDownloadRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/media/:id/download',
    {
      schema: {
        tags: ['media'],
        description:
          "A media's proxy or original through a signed link of a webhook delivery, with byte ranges; 403 when the link has expired or is not valid",
        params: idParamSchema,
        querystring: signedDownloadQuerySchema,
      },
    },
    async (request, reply) => {
      const answer = await signedDownload(ctx, {
        mediaId: request.params.id,
        file: request.query.file,
        expires: request.query.expires,
        signature: request.query.signature,
        request: contentRequestOf(request),
      });
      return sendStoredContent(reply, answer);
    },
  );
};

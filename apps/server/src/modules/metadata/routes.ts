import {
  MEDIA_UPDATE_API_VERSION,
  METADATA_IMPORT_MAX_BYTES,
  metadataExportQuerySchema,
  metadataImportQuerySchema,
  metadataImportResultSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { requireApiVersion } from '../../platform/http/api-version.ts';
import { attachment } from '../../platform/http/attachment.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

/** spec1 §7 Metadata import/export. */
export const registerMetadataRoutes = async (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  await fastify.register(async (scope) => {
    // The import's body is the CSV itself (spec1 §7), read as text up to its own limit.
    scope.addContentTypeParser(
      'text/csv',
      { parseAs: 'string', bodyLimit: METADATA_IMPORT_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['metadata'];

    app.get(
      '/media',
      {
        schema: {
          tags,
          description:
            "Every media node of the account with its path, identity and the account's file columns, as a streamed XLSX or CSV download (account managers)",
          querystring: metadataExportQuerySchema,
        },
      },
      async (request, reply) => {
        const download = await service.exportMetadata({
          ctx,
          actor: requireActor(request),
          query: request.query,
        });
        return reply
          .type(download.contentType)
          .header('content-disposition', attachment(download.fileName))
          .header('cache-control', 'no-store')
          .send(download.stream);
      },
    );

    app.post(
      '/mediaUpdate',
      {
        onRequest: requireApiVersion([MEDIA_UPDATE_API_VERSION]),
        bodyLimit: METADATA_IMPORT_MAX_BYTES,
        schema: {
          tags,
          description:
            'Change media metadata from an edited export (raw CSV, Content-Type text/csv, X-Api-Version 20210705): a dry run says what would change; the import does it all or nothing (account managers)',
          querystring: metadataImportQuerySchema,
          body: z.string(),
          response: { 200: resultsOf(metadataImportResultSchema) },
        },
      },
      async (request) =>
        results(
          await service.importMetadata({
            ctx,
            actor: requireActor(request),
            accountId: request.query.accountId,
            dryRun: request.query.dryRun,
            csv: request.body,
          }),
        ),
    );
  });
};

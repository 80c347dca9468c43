import multipart from '@fastify/multipart';
import {
  CHANNELS,
  idParamSchema,
  MSG_UPLOAD_NO_FILE,
  MSG_UPLOAD_TOO_LARGE,
  resultsOf,
  uploadFileParamsSchema,
  uploadQuerySchema,
  uploadSchema,
  uploadsQuerySchema,
  uploadsResponseSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { attachment } from '../../platform/http/attachment.ts';
import { refuseDeclaredLengthOver } from '../../platform/http/declared-length.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { contentRequestOf, sendStoredContent } from '../../platform/http/stored-content.ts';
import * as service from './service.ts';

/** The spec's field name of the file part (spec1 §7). */
const FILE_FIELD = 'uploadfile';

/** Reads the one file part of a multipart request; anything else is a clear 400. */
const fileOf =
  (request: FastifyRequest, maxBytes: number) => async (): Promise<service.IncomingFile | undefined> => {
    if (!request.isMultipart()) throw badRequest(MSG_UPLOAD_NO_FILE);
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part) return undefined;
    if (part.fieldname !== FILE_FIELD) {
      part.file.resume();
      throw badRequest(MSG_UPLOAD_NO_FILE);
    }
    return { fileName: part.filename, contentType: part.mimetype, stream: part.file };
  };

/** Web upload and metadata mapping upload of an account; multipart is parsed only on these routes. */
export const registerUploadRoutes = async (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  await fastify.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: ctx.config.uploadMaxBytes, files: 1, fields: 10 },
    });
    // A declared length over the limit is refused before its body is read (nothing reaches DATA_DIR/tmp).
    scope.addHook(
      'onRequest',
      refuseDeclaredLengthOver(ctx.config.uploadMaxBytes, MSG_UPLOAD_TOO_LARGE(ctx.config.uploadMaxBytes)),
    );
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['uploads'];
    for (const [path, target, description] of [
      ['uploads', 'web', 'Web upload of a media file or document (multipart field uploadfile)'],
      [
        'metadataMappings',
        'metadataMapping',
        'Upload of a metadata mapping CSV file (multipart field uploadfile)',
      ],
    ] as const) {
      app.post(
        `/accounts/:id/${path}`,
        {
          schema: {
            tags,
            description,
            params: idParamSchema,
            querystring: uploadQuerySchema,
            consumes: ['multipart/form-data'],
            response: { 200: resultsOf(uploadSchema) },
          },
        },
        async (request) =>
          results(
            await service.receiveUpload({
              ctx,
              actor: requireActor(request),
              accountId: request.params.id,
              target,
              query: request.query,
              readFile: fileOf(request, ctx.config.uploadMaxBytes),
            }),
          ),
      );
    }
    app.get(
      '/accounts/:id/uploads/:uploadId/file',
      {
        schema: {
          tags,
          description: "An upload's stored file as a download, with byte ranges (404 for another account's)",
          params: uploadFileParamsSchema,
        },
      },
      async (request, reply) => {
        const { answer, fileName } = await service.uploadFile({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          uploadId: request.params.uploadId,
          request: contentRequestOf(request),
        });
        reply.header('content-disposition', attachment(fileName));
        return sendStoredContent(reply, answer);
      },
    );
    app.get(
      '/accounts/:id/uploads',
      {
        schema: {
          tags,
          description: "The account's uploads, newest first; metadata mappings only for its managers",
          params: idParamSchema,
          querystring: uploadsQuerySchema,
          response: { 200: uploadsResponseSchema },
        },
      },
      async (request) => {
        const page = await service.listUploads({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          ...request.query,
        });
        return {
          ...collection(page.rows, page.total, CHANNELS.uploads(request.params.id)),
          mayUpload: page.mayUpload,
        };
      },
    );
  });
};

import { Readable } from 'node:stream';
import {
  AGENT_THUMBNAIL_MAX_BYTES,
  agentCommandDoneSchema,
  agentConfigurationSchema,
  agentHeartbeatSchema,
  agentProgressAnswerSchema,
  agentQueueItemCreateSchema,
  agentQueueItemProgressSchema,
  agentQueueItemSchema,
  agentUnprocessedFileSchema,
  ERROR_CODES,
  idParamSchema,
  okSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { requireApiVersion } from '../../platform/http/api-version.ts';
import { noteAudit } from '../../platform/http/audit.ts';
import { results } from '../../platform/http/envelope.ts';
import { hijackWithHeaders } from '../../platform/http/security-headers.ts';
import { registerAgentLiveRoutes } from './live-routes.ts';
import { registerAgentPublishRoutes } from './publish-routes.ts';
import * as service from './service.ts';
import { createAgentTusServer, rememberEdge } from './tus.ts';
import { reportUnprocessedFile } from './unprocessed-files.ts';

declare module 'fastify' {
  interface FastifyRequest {
    agentEdge?: service.AgentEdge;
  }
}

const edgeOf = (request: FastifyRequest) => {
  if (!request.agentEdge) throw new Error('The agent hook did not run');
  return request.agentEdge;
};

/** Passes an upload on as it arrives and stops it once it passes the limit. */
async function* limitBytes(source: Readable, maxBytes: number) {
  let seen = 0;
  for await (const chunk of source) {
    seen += (chunk as Buffer).length;
    if (seen > maxBytes) throw new AppError(ERROR_CODES.tooLarge, 'The thumbnail is too large');
    yield chunk as Buffer;
  }
}

/**
 * The edge agent's calls (DESIGN.md): a bearer token instead of a session, the ingest API version
 * header, and no anti-forgery check (no cookie is involved, so there is nothing to forge).
 */
export const registerAgentRoutes = async (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  await fastify.register(
    async (scope) => {
      scope.addContentTypeParser('image/jpeg', (_request, payload, done) => done(null, payload));
      // tus reads the bytes of an upload itself, from the raw request.
      scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
      scope.addHook('onRequest', requireApiVersion());
      scope.addHook('onRequest', async (request) => {
        const edge = await service.authenticateAgent(ctx, request.headers.authorization);
        request.agentEdge = edge;
        request.machineActor = { type: 'agent', id: edge.id, name: edge.name };
      });
      const app = scope.withTypeProvider<ZodTypeProvider>();
      const tags = ['edge agent'];

      app.post(
        '/heartbeat',
        {
          schema: {
            tags,
            description: 'The agent is alive; answers its endpoints, pending commands and file decisions',
            body: agentHeartbeatSchema,
            response: { 200: resultsOf(agentConfigurationSchema) },
          },
        },
        async (request) =>
          results(
            await service.heartbeat({
              ctx,
              edge: edgeOf(request),
              endpointVersions: request.body.endpointVersions,
              endpointReports: request.body.endpointReports,
            }),
          ),
      );
      app.post(
        '/commands/:id',
        {
          schema: {
            tags,
            description: 'The answer to a command (machine load, speed test, service restart)',
            params: idParamSchema,
            body: agentCommandDoneSchema,
            response: { 200: okSchema },
          },
        },
        async (request) =>
          results(
            await service.completeCommand({
              ctx,
              edge: edgeOf(request),
              commandId: request.params.id,
              result: request.body.result,
            }),
          ),
      );
      app.get(
        '/queueItems',
        {
          schema: {
            tags,
            description: "The edge's queued items, in the operators' order",
            querystring: z.object({
              limit: z.coerce.number().int().min(1).max(100).default(10),
              /** ingesting: what this edge had under way, taken up again after its agent restarted. */
              status: z.enum(['queued', 'ingesting']).default('queued'),
            }),
            response: { 200: resultsOf(z.array(agentQueueItemSchema)) },
          },
        },
        async (request) =>
          results(
            await service.queuedItems({
              ctx,
              edge: edgeOf(request),
              limit: request.query.limit,
              status: request.query.status,
            }),
          ),
      );
      app.post(
        '/queueItems',
        {
          schema: {
            tags,
            description:
              'A file or stream the agent found; the same endpoint and queueId answer the existing item',
            body: agentQueueItemCreateSchema,
            response: { 200: resultsOf(agentQueueItemSchema) },
          },
        },
        async (request) =>
          results(await service.registerQueueItem({ ctx, edge: edgeOf(request), ...request.body })),
      );
      app.post(
        '/queueItems/:id',
        {
          schema: {
            tags,
            description:
              'Progress of an item the agent works on; answers the status it now has (duplicated when the folder already holds its content)',
            params: idParamSchema,
            body: agentQueueItemProgressSchema,
            response: { 200: resultsOf(agentProgressAnswerSchema) },
          },
        },
        async (request) => {
          const { statusChanged, ...answer } = await service.reportProgress({
            ctx,
            edge: edgeOf(request),
            id: request.params.id,
            change: request.body,
          });
          // Progress while the item stays as it was (about once a second): no audit row; a new status writes one.
          if (!statusChanged) noteAudit(request, { routine: true });
          return results(answer);
        },
      );
      app.put(
        '/queueItems/:id/thumbnail',
        {
          bodyLimit: AGENT_THUMBNAIL_MAX_BYTES,
          schema: {
            tags,
            description: 'The thumbnail of an item, as image/jpeg',
            params: idParamSchema,
            consumes: ['image/jpeg'],
            response: { 200: okSchema },
          },
        },
        async (request) => {
          // Only the image/jpeg parser above hands over a stream; any other type arrives parsed.
          const body = request.body instanceof Readable ? request.body : undefined;
          if (!body) throw new AppError(ERROR_CODES.unsupportedMediaType, 'A thumbnail must be image/jpeg');
          return results(
            await service.storeThumbnail({
              ctx,
              edge: edgeOf(request),
              id: request.params.id,
              contentType: request.headers['content-type'],
              stream: Readable.from(limitBytes(body, AGENT_THUMBNAIL_MAX_BYTES)),
            }),
          );
        },
      );
      // Resumable uploads of proxies, thumbnails and sources (tus 1.0), handed to @tus/server as they are.
      // Made at the first upload: its file store touches DATA_DIR/tus in the background when it is made.
      let tus: ReturnType<typeof createAgentTusServer> | undefined;
      for (const url of ['/uploads', '/uploads/:uploadId'])
        scope.route({
          method: ['POST', 'HEAD', 'PATCH', 'DELETE'],
          url,
          schema: { hide: true },
          handler: async (request, reply) => {
            rememberEdge(request.raw, edgeOf(request));
            // A chunk appended (every 8 MB of a file) is data arriving: the upload is the row of its creation.
            if (request.method === 'PATCH') noteAudit(request, { routine: true });
            hijackWithHeaders(reply);
            tus ??= createAgentTusServer(ctx, { path: '/api/agent/uploads' });
            await tus.handle(request.raw, reply.raw);
          },
        });
      app.post(
        '/unprocessedFiles',
        {
          schema: {
            tags,
            description: 'A file the agent could not queue by itself (status missingFiles)',
            body: agentUnprocessedFileSchema,
            response: { 200: okSchema },
          },
        },
        async (request) =>
          results(await reportUnprocessedFile({ ctx, edge: edgeOf(request), ...request.body })),
      );
      registerAgentPublishRoutes(scope, ctx, edgeOf);
      registerAgentLiveRoutes(scope, ctx, edgeOf);
    },
    // An agent calls in every few seconds: its routine requests are not worth a log line each.
    { prefix: '/agent', logLevel: 'warn' },
  );
};

import {
  API_VERSION_HEADER,
  API_VERSIONS,
  clipRenderRequestSchema,
  clipRenderStateSchema,
  ERROR_CODES,
  edlDataQuerySchema,
  edlDataSchema,
  edlSourceSchema,
  edlVersionSchema,
  edlVersionsQuerySchema,
  idParamSchema,
  idTextSchema,
  MSG_API_VERSION,
  mediaCreateSchema,
  nodeDetailsSchema,
  nodePostSchema,
  nodeSchema,
  nodesQuerySchema,
  nodesResponseSchema,
  nodesTransferSchema,
  nodesTransferTypeSchema,
  playerMediaInfoSchema,
  resultsOf,
  transferResultSchema,
  transferTypesSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { contentRequestOf, sendStoredContent } from '../../platform/http/stored-content.ts';
import * as service from './service.ts';

/**
 * Node calls send X-Api-Version (spec3 §7); a version this server does not support is a 400 code
 * apiversion. A call without the header is served, so an <img> or a <video> can load a file.
 */
const checkApiVersion = async (request: FastifyRequest) => {
  const sent = request.headers[API_VERSION_HEADER.toLowerCase()];
  if (typeof sent === 'string' && !API_VERSIONS.supported.includes(sent))
    throw new AppError(ERROR_CODES.apiVersion, `${MSG_API_VERSION}: ${sent}`);
};

const thumbParamsSchema = z.object({ thumbId: idTextSchema });
const contentQuerySchema = z.object({ accountId: idTextSchema.optional() });

/** The media tree (nodes, transfers), player media info, media files and thumbnails (spec3 §7). */
export const registerNodeRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['media tree'];

  app.get(
    '/nodes',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'The node at path, its ancestors and a page of its children (or, with search clauses, its matching descendants); with getDetails=1&id={editor node id} the node with its media and edl',
        querystring: nodesQuerySchema,
        response: { 200: z.union([nodesResponseSchema, resultsOf(nodeDetailsSchema)]) },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      const { query } = request;
      if (query.getDetails && query.id !== undefined)
        return results(await service.nodeDetails({ ctx, actor, id: query.id }));
      return service.listNodes({ ctx, actor, query });
    },
  );
  app.post(
    '/nodes',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'Create a folder, clip (edl) or sequence (parentPath…), set a metadata field (key, value, accountId, path), save folder permissions (path, permissions) or rename (path, name)',
        body: nodePostSchema,
        response: { 200: resultsOf(nodeSchema) },
      },
    },
    async (request) =>
      results(await service.postNode({ ctx, actor: requireActor(request), body: request.body })),
  );
  app.post(
    '/nodesTransferType',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Which transfers (move, copy) the caller may make from the sources to the destination',
        body: nodesTransferTypeSchema,
        response: { 200: resultsOf(transferTypesSchema) },
      },
    },
    async (request) =>
      results(await service.transferTypes({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.post(
    '/nodesTransfer',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'Move or copy nodes (with their subtrees) into a folder of the same account, all or nothing',
        body: nodesTransferSchema,
        response: { 200: resultsOf(transferResultSchema) },
      },
    },
    async (request) =>
      results(await service.transfer({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.get(
    '/media/:id',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'What the player needs to play a piece of media (viewers of its account)',
        params: idParamSchema,
        response: { 200: resultsOf(playerMediaInfoSchema) },
      },
    },
    async (request) =>
      results(await service.mediaInfo({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.get(
    '/media/:id/content',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "The media's file, with byte ranges (viewers of its account); 404 when it has none",
        params: idParamSchema,
        querystring: contentQuerySchema,
      },
    },
    async (request, reply) => {
      const answer = await service.mediaFile({
        ctx,
        actor: requireActor(request),
        id: request.params.id,
        accountId: request.query.accountId,
        request: contentRequestOf(request),
      });
      return sendStoredContent(reply, answer);
    },
  );
  app.get(
    '/edls/:id/sources',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "The media a clip's or sequence's pieces play parts of, in edl order (viewers)",
        params: idParamSchema,
        querystring: contentQuerySchema,
        response: { 200: resultsOf(z.array(edlSourceSchema)) },
      },
    },
    async (request) =>
      results(
        await service.edlSources({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          accountId: request.query.accountId,
        }),
      ),
  );
  app.get(
    '/edls/:id/content',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "A clip's or sequence's rendered file, with byte ranges (viewers); 404 until rendered",
        params: idParamSchema,
        querystring: contentQuerySchema,
      },
    },
    async (request, reply) =>
      sendStoredContent(
        reply,
        await service.edlFile({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          accountId: request.query.accountId,
          request: contentRequestOf(request),
        }),
      ),
  );
  app.get(
    '/edls/:id/previousVersions',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'The edls that later saves of the clip at path replaced, newest first (viewers)',
        params: idParamSchema,
        querystring: edlVersionsQuerySchema,
        response: { 200: resultsOf(z.array(edlVersionSchema)) },
      },
    },
    async (request) =>
      results(
        await service.edlPreviousVersions({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          path: request.query.path,
        }),
      ),
  );
  app.get(
    '/edls/:id/render',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "Whether a clip's or sequence's file is rendered, being rendered or failed (viewers)",
        params: idParamSchema,
        querystring: contentQuerySchema,
        response: { 200: resultsOf(clipRenderStateSchema) },
      },
    },
    async (request) =>
      results(
        await service.clipRenderState({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          accountId: request.query.accountId,
        }),
      ),
  );
  app.post(
    '/edls/:id/render',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          "Render a clip or sequence into a playable file when it has none (editors of its account): the floating player's export",
        params: idParamSchema,
        body: clipRenderRequestSchema,
        response: { 200: resultsOf(clipRenderStateSchema) },
      },
    },
    async (request) =>
      results(
        await service.renderClipFile({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          accountId: request.body.accountId,
        }),
      ),
  );
  app.post(
    '/media',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'Make a clip or sequence as media from its edl in the folder at parentPath (editors there); it is rendered into a playable file by a job',
        body: mediaCreateSchema,
        response: { 200: resultsOf(nodeSchema) },
      },
    },
    async (request) =>
      results(await service.createNode({ ctx, actor: requireActor(request), create: request.body })),
  );
  app.post(
    '/media/:id/data',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'Save a new edl for the clip or sequence at path (editors there); the replaced edl is kept and the clip rendered again',
        params: idParamSchema,
        querystring: edlDataQuerySchema,
        body: edlDataSchema,
        response: { 200: resultsOf(nodeSchema) },
      },
    },
    async (request) =>
      results(
        await service.saveEdlData({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          path: request.query.path,
          accountId: request.query.accountId,
          edl: request.body.edl,
        }),
      ),
  );
  app.get(
    '/thumbs/:thumbId/image.jpg',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'A node thumbnail as image/jpeg, with an ETag (304 when current)',
        params: thumbParamsSchema,
      },
    },
    async (request, reply) => {
      const { etag, image } = await service.thumbImage({
        ctx,
        actor: requireActor(request),
        id: request.params.thumbId,
        ifNoneMatch: request.headers['if-none-match'],
      });
      reply.header('cache-control', 'private, no-cache').header('etag', etag);
      return image ? reply.type('image/jpeg').send(image) : reply.status(304).send();
    },
  );
};

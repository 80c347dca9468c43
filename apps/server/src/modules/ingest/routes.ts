import {
  API_VERSION_HEADER,
  API_VERSIONS,
  acceptingReadFields,
  collectionOf,
  ERROR_CODES,
  idParamSchema,
  ingestQueueItemActionsSchema,
  ingestQueueItemSchema,
  ingestQueueItemUpdateSchema,
  ingestQueuePageSchema,
  ingestQueueQuerySchema,
  ingestStatusChangesSchema,
  ingestTrashSchema,
  MSG_API_VERSION,
  okSchema,
  pageQuerySchema,
  rankEntriesSchema,
  resultsOf,
  thumbnailQuerySchema,
  unprocessedFileSchema,
  unprocessedForceSchema,
  unprocessedTrashSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';
import * as unprocessed from './unprocessed-files.ts';

/** The address segment of each queue owner. */
const QUEUES = [
  { path: 'edgeServers', kind: 'edgeServer', who: "the edge server's managers" },
  { path: 'arrivalsFolders', kind: 'arrivalsFolder', who: "the account's managers" },
  { path: 'accounts', kind: 'account', who: "the account's managers" },
] as const;

/** The queue of one endpoint (the queue area's endpoint id input, spec2 §1) reads and ranks like the others. */
const ALL_QUEUES = [
  ...QUEUES,
  { path: 'endpoints', kind: 'endpoint', who: 'edge or account managers' },
] as const;

/**
 * Ingest calls send X-Api-Version (spec2 §7); a version this server does not support is a 400 code
 * apiversion (DESIGN.md). A call without the header is served, so an <img> can load a thumbnail.
 */
const checkApiVersion = async (request: FastifyRequest) => {
  const sent = request.headers[API_VERSION_HEADER.toLowerCase()];
  if (typeof sent === 'string' && !API_VERSIONS.supported.includes(sent))
    throw new AppError(ERROR_CODES.apiVersion, `${MSG_API_VERSION}: ${sent}`);
};

/** The ingest queue, its items' actions, thumbnails and logs, and unprocessed files (spec2 §7). */
export const registerIngestRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['ingest queue'];

  for (const queue of ALL_QUEUES)
    app.get(
      `/${queue.path}/:id/ingestQueueItems`,
      {
        onRequest: checkApiVersion,
        schema: {
          tags,
          description: `One page of the ingest queue (${queue.who}). filters 'a|b': statuses OR-ed, kinds (files, streams, schedules) OR-ed, the groups AND-ed; sinceVersion answers only the items changed since, deleted ones included`,
          params: idParamSchema,
          querystring: ingestQueueQuerySchema,
          response: { 200: ingestQueuePageSchema },
        },
      },
      async (request) =>
        service.listQueue({
          ctx,
          actor: requireActor(request),
          owner: { kind: queue.kind, id: request.params.id },
          query: request.query,
        }),
    );

  for (const queue of ALL_QUEUES) {
    app.post(
      `/${queue.path}/:id/ingestQueueItemRanks`,
      {
        onRequest: checkApiVersion,
        schema: {
          tags,
          description: `Set the order of items of this queue (${queue.who}): ranks from 1; every item must be in the queue; all or nothing`,
          params: idParamSchema,
          body: rankEntriesSchema,
          response: { 200: okSchema },
        },
      },
      async (request) =>
        results(
          await service.setRanks({
            ctx,
            actor: requireActor(request),
            owner: { kind: queue.kind, id: request.params.id },
            ranks: request.body,
          }),
        ),
    );
    app.get(
      `/${queue.path}/:id/ingestQueueItemActions`,
      {
        onRequest: checkApiVersion,
        schema: {
          tags,
          description:
            'The manual status changes (spec2 §4) and the actions of queue items; clients cache it',
          params: idParamSchema,
          response: { 200: resultsOf(ingestQueueItemActionsSchema) },
        },
      },
      async (request) =>
        results(
          await service.queueActions({
            ctx,
            actor: requireActor(request),
            owner: { kind: queue.kind, id: request.params.id },
          }),
        ),
    );
  }

  app.post(
    '/ingestQueueItems/:id',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          'Change an item: a status (spec2 §4), an action (start, stop, reschedule, status, abort) or its names (when editable)',
        params: idParamSchema,
        body: acceptingReadFields(ingestQueueItemUpdateSchema, ingestQueueItemSchema),
        response: { 200: resultsOf(ingestQueueItemSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateItem({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          update: request.body,
        }),
      ),
  );
  app.post(
    '/ingestQueueItems',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Change the status of several items, all or nothing',
        body: ingestStatusChangesSchema,
        response: { 200: resultsOf(z.array(ingestQueueItemSchema)) },
      },
    },
    async (request) =>
      results(await service.changeStatuses({ ctx, actor: requireActor(request), list: request.body })),
  );
  app.post(
    '/ingestQueueItems/:id/trash',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Mark a trashable item deleted',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.trashItem({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/ingestQueueItems/trash',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description:
          "Trash (mark deleted) or purge (remove) items named 'edgeServerId:endpointId:queueId', all or nothing",
        body: ingestTrashSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.trashItems({ ctx, actor: requireActor(request), ...request.body })),
  );
  app.get(
    '/ingestQueueItems/:id/thumbnail',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "The item's thumbnail as image/jpeg, fitted into width x height; 404 when it has none",
        params: idParamSchema,
        querystring: thumbnailQuerySchema,
      },
    },
    async (request, reply) => {
      const { etag, image } = await service.itemThumbnail({
        ctx,
        actor: requireActor(request),
        id: request.params.id,
        ...request.query,
        ifNoneMatch: request.headers['if-none-match'],
      });
      reply.header('cache-control', 'private, no-cache').header('etag', etag);
      return image ? reply.type('image/jpeg').send(image) : reply.status(304).send();
    },
  );
  app.get(
    '/ingestQueueItems/:id/log',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: "The item's ingest log",
        params: idParamSchema,
        response: { 200: resultsOf(z.object({ log: z.string() })) },
      },
    },
    async (request) =>
      results(await service.itemLog({ ctx, actor: requireActor(request), id: request.params.id })),
  );

  app.get(
    '/endpoints/:id/unprocessedFiles',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Files the endpoint saw but could not queue (status missingFiles)',
        params: idParamSchema,
        querystring: pageQuerySchema,
        response: { 200: collectionOf(unprocessedFileSchema) },
      },
    },
    async (request) => {
      const page = await unprocessed.listUnprocessedFiles({
        ctx,
        actor: requireActor(request),
        endpointId: request.params.id,
        page: request.query,
      });
      return collection(page.rows, page.total, page.channel);
    },
  );
  app.post(
    '/unprocessedFiles',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Force files (or stop forcing them): a list of { id, forced }, all or nothing',
        body: unprocessedForceSchema,
        response: { 200: resultsOf(z.array(unprocessedFileSchema)) },
      },
    },
    async (request) =>
      results(await unprocessed.forceFiles({ ctx, actor: requireActor(request), list: request.body })),
  );
  app.post(
    '/unprocessedFiles/trash',
    {
      onRequest: checkApiVersion,
      schema: {
        tags,
        description: 'Forget files so the edge scans them again (rescan): a list of ids, all or nothing',
        body: unprocessedTrashSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await unprocessed.rescanFiles({ ctx, actor: requireActor(request), ids: request.body })),
  );
};

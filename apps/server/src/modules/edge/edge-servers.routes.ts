import {
  acceptingReadFields,
  collectionOf,
  EDGE_ACTIONS,
  EDGE_SERVER_TYPES,
  edgeActionResultSchema,
  edgeServerCreatedSchema,
  edgeServerCreateSchema,
  edgeServerSchema,
  edgeServersQuerySchema,
  edgeServerTypeSchema,
  edgeServerUpdateSchema,
  edgeSupportConnectionSchema,
  idParamSchema,
  okSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as edgeServers from './edge-servers.service.ts';
import { checkBody } from './request-checks.ts';

const edgeActionParamsSchema = idParamSchema.extend({ action: z.enum(EDGE_ACTIONS) });

/** Edge servers: lists (cloud, site, user), types, one, create, save, trash, support connection, actions. */
export const registerEdgeServerRoutes = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['edge servers'];

  app.get(
    '/edgeServers',
    {
      schema: {
        tags,
        description: 'Every edge server of the cloud, by name (administrators)',
        querystring: edgeServersQuerySchema,
        response: { 200: collectionOf(edgeServerSchema) },
      },
    },
    async (request) => {
      const page = await edgeServers.listEdgeServers({
        ctx,
        actor: requireActor(request),
        context: 'cloud',
        query: request.query,
      });
      return collection(page.rows, page.total, page.channel);
    },
  );
  for (const context of ['site', 'user'] as const)
    app.get(
      `/${context}s/:id/edgeServers`,
      {
        schema: {
          tags,
          description:
            context === 'site'
              ? "A site's edge servers, by name (its managers and above)"
              : "A user's own edge servers, by name (the user, administrators)",
          params: idParamSchema,
          querystring: edgeServersQuerySchema,
          response: { 200: collectionOf(edgeServerSchema) },
        },
      },
      async (request) => {
        const page = await edgeServers.listEdgeServers({
          ctx,
          actor: requireActor(request),
          context,
          id: request.params.id,
          query: request.query,
        });
        return collection(page.rows, page.total, page.channel);
      },
    );

  app.get(
    '/edgeServerTypes',
    {
      schema: {
        tags,
        description: 'The kinds of edge server',
        response: { 200: resultsOf(z.array(edgeServerTypeSchema)) },
      },
    },
    async (request) => {
      requireActor(request);
      return results([...EDGE_SERVER_TYPES]);
    },
  );

  app.get(
    '/edgeServers/:id',
    {
      schema: {
        tags,
        description: 'One edge server (its owner, administrators, its site managers)',
        params: idParamSchema,
        response: { 200: resultsOf(edgeServerSchema) },
      },
    },
    async (request) =>
      results(await edgeServers.getEdgeServer({ ctx, actor: requireActor(request), id: request.params.id })),
  );

  app.post(
    '/users/:id/edgeServers',
    {
      attachValidation: true,
      schema: {
        tags,
        description:
          'Create an edge server owned by the user (yourself, or anyone for administrators). The answer carries the agent token, shown this once.',
        params: idParamSchema,
        body: edgeServerCreateSchema,
        response: { 200: resultsOf(edgeServerCreatedSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await edgeServers.createEdgeServer({
          ctx,
          actor: requireActor(request),
          userId: request.params.id,
          body: request.body,
        }),
      );
    },
  );

  app.post(
    '/edgeServers/:id',
    {
      attachValidation: true,
      schema: {
        tags,
        description:
          "Save the whole edge server, or rename it with { id, name }; the body's id is the address's",
        params: idParamSchema,
        body: acceptingReadFields(edgeServerUpdateSchema, edgeServerSchema),
        response: { 200: resultsOf(edgeServerSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await edgeServers.updateEdgeServer({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          body: request.body,
        }),
      );
    },
  );

  app.post(
    '/edgeServers/:id/trash',
    {
      schema: {
        tags,
        description: 'Delete the edge server with its services, endpoints and queue items',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await edgeServers.trashEdgeServer({ ctx, actor: requireActor(request), id: request.params.id }),
      ),
  );

  app.post(
    '/edgeServers/:id/supportConnection',
    {
      schema: {
        tags,
        description:
          'Open the support connection of the edge server (or close it with supportConnection false)',
        params: idParamSchema,
        body: edgeSupportConnectionSchema.optional(),
        response: { 200: resultsOf(edgeServerSchema) },
      },
    },
    async (request) =>
      results(
        await edgeServers.setSupportConnection({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          supportConnection: request.body?.supportConnection ?? true,
        }),
      ),
  );

  app.post(
    '/edgeServers/:id/actions/:action',
    {
      schema: {
        tags,
        description:
          "Ask the edge server's agent for its machine load or a new speed test; getEdgeSpeedTestResults answers the latest speed test",
        params: edgeActionParamsSchema,
        response: { 200: resultsOf(edgeActionResultSchema) },
      },
    },
    async (request) =>
      results(
        await edgeServers.runEdgeAction({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          action: request.params.action,
        }),
      ),
  );
};

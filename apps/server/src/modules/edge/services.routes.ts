import {
  acceptingReadFields,
  collectionOf,
  edgeActionResultSchema,
  idParamSchema,
  okSchema,
  resultsOf,
  SERVICE_ACTIONS,
  SERVICE_QUERIES,
  serviceCreateSchema,
  serviceGroupSchema,
  serviceGroupsQuerySchema,
  serviceSchema,
  serviceSummarySchema,
  serviceTemplateSchema,
  serviceTypeSchema,
  serviceUpdateSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { checkBody, typeIdParamSchema } from './request-checks.ts';
import * as services from './services.service.ts';

const serviceActionParamsSchema = idParamSchema.extend({ action: z.enum(SERVICE_ACTIONS) });
const serviceQueryParamsSchema = idParamSchema.extend({ query: z.enum(SERVICE_QUERIES) });
const serviceQuerySchema = z.object({
  data: z.string().max(10_000).optional().describe('The query parameters as JSON'),
});

/** The services of edge servers: types, templates, one, create, save, trash, actions, queries. */
export const registerServiceRoutes = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['edge services'];

  app.get(
    '/edgeServers/:id/services',
    {
      schema: {
        tags,
        description: 'The services of an edge server, by name',
        params: idParamSchema,
        response: { 200: collectionOf(serviceSchema) },
      },
    },
    async (request) => {
      const list = await services.listServices({
        ctx,
        actor: requireActor(request),
        edgeServerId: request.params.id,
      });
      return collection(list.rows, list.total, list.channel);
    },
  );
  app.get(
    '/edgeServers/:id/serviceTypes',
    {
      schema: {
        tags,
        description: 'The service types this edge server can run',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(serviceTypeSchema)) },
      },
    },
    async (request) =>
      results(
        await services.listServiceTypesOfEdge({
          ctx,
          actor: requireActor(request),
          edgeServerId: request.params.id,
        }),
      ),
  );
  app.get(
    '/edgeServers/:id/serviceGroups',
    {
      schema: {
        tags,
        description:
          'The fail-over groups a new service of typeId on this edge server may join (serviceGroupId on create): services of that type on edge servers the caller manages, by group',
        params: idParamSchema,
        querystring: serviceGroupsQuerySchema,
        response: { 200: resultsOf(z.array(serviceGroupSchema)) },
      },
    },
    async (request) =>
      results(
        await services.listServiceGroups({
          ctx,
          actor: requireActor(request),
          edgeServerId: request.params.id,
          typeId: request.query.typeId,
        }),
      ),
  );
  app.get(
    '/edgeServers/:id/serviceTemplates',
    {
      schema: {
        tags,
        description: 'Ready-made services for this edge server (ids template-1, template-2, ...)',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(serviceTemplateSchema)) },
      },
    },
    async (request) =>
      results(
        await services.listServiceTemplates({
          ctx,
          actor: requireActor(request),
          edgeServerId: request.params.id,
        }),
      ),
  );
  app.get(
    '/serviceTypes/:id',
    {
      schema: {
        tags,
        description: 'One service type with its option definitions and endpoint types',
        params: typeIdParamSchema,
        response: { 200: resultsOf(serviceTypeSchema) },
      },
    },
    async (request) => {
      requireActor(request);
      return results(services.getServiceType(request.params.id));
    },
  );
  app.get(
    '/services/:id',
    {
      schema: {
        tags,
        description: 'One service',
        params: idParamSchema,
        response: { 200: resultsOf(serviceSchema) },
      },
    },
    async (request) =>
      results(await services.getService({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/edgeServers/:id/services',
    {
      attachValidation: true,
      schema: {
        tags,
        description:
          "Create a service; serviceGroupId joins another service's fail-over group, else the service starts its own",
        params: idParamSchema,
        body: serviceCreateSchema,
        response: { 200: resultsOf(serviceSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await services.createService({
          ctx,
          actor: requireActor(request),
          edgeServerId: request.params.id,
          body: request.body,
        }),
      );
    },
  );
  app.post(
    '/services/:id',
    {
      attachValidation: true,
      schema: {
        tags,
        description: 'Save the service, or rename it with { name }',
        params: idParamSchema,
        body: acceptingReadFields(serviceUpdateSchema, serviceSchema),
        response: { 200: resultsOf(serviceSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await services.updateService({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          body: request.body,
        }),
      );
    },
  );
  app.post(
    '/services/:id/trash',
    {
      schema: {
        tags,
        description: 'Delete the service with its endpoints',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await services.trashService({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/services/:id/actions/:action',
    {
      schema: {
        tags,
        description: "Ask the edge server's agent to restart the service or rescan its endpoints",
        params: serviceActionParamsSchema,
        response: { 200: resultsOf(edgeActionResultSchema) },
      },
    },
    async (request) =>
      results(
        await services.runServiceAction({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          action: request.params.action,
        }),
      ),
  );
  app.get(
    '/services/:id/queries/:query',
    {
      schema: {
        tags,
        description:
          'summary: counts of the endpoints and queue items of the service; data is JSON ({accountId?})',
        params: serviceQueryParamsSchema,
        querystring: serviceQuerySchema,
        response: { 200: resultsOf(serviceSummarySchema) },
      },
    },
    async (request) =>
      results(
        await services.queryServiceSummary({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          data: request.query.data,
        }),
      ),
  );
};

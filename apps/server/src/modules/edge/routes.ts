import {
  accountEndpointsQuerySchema,
  collectionOf,
  EDGE_ACTIONS,
  EDGE_MESSAGES,
  EDGE_SERVER_TYPES,
  ENDPOINT_ACTIONS,
  edgeActionResultSchema,
  edgeServerCreatedSchema,
  edgeServerCreateSchema,
  edgeServerSchema,
  edgeServersQuerySchema,
  edgeServerTypeSchema,
  edgeServerUpdateSchema,
  edgeSupportConnectionSchema,
  endpointCreateSchema,
  endpointSchema,
  endpointTypeSchema,
  endpointUpdateSchema,
  idParamSchema,
  okSchema,
  resultsOf,
  SERVICE_ACTIONS,
  SERVICE_QUERIES,
  serviceCreateSchema,
  serviceSchema,
  serviceSummarySchema,
  serviceTemplateSchema,
  serviceTypeSchema,
  serviceUpdateSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AppServices, requireActor } from '../../app.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import * as service from './service.ts';

const typeIdParamSchema = z.object({ id: z.string().min(1).max(60) });
const edgeActionParamsSchema = idParamSchema.extend({ action: z.enum(EDGE_ACTIONS) });
const serviceActionParamsSchema = idParamSchema.extend({ action: z.enum(SERVICE_ACTIONS) });
const serviceQueryParamsSchema = idParamSchema.extend({ query: z.enum(SERVICE_QUERIES) });
const serviceQuerySchema = z.object({
  data: z.string().max(10_000).optional().describe('The query parameters as JSON'),
});
const endpointActionParamsSchema = idParamSchema.extend({ action: z.enum(ENDPOINT_ACTIONS) });

/**
 * Bodies with a name answer the name's own message when the name is what is wrong (spec2 §5: exactly
 * 'Name too long'; 'This field is required' when empty or missing); other problems answer as usual.
 */
const checkBody = (request: FastifyRequest) => {
  const error = request.validationError;
  if (!error) return;
  if (error.validationContext === 'body' && hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation.find(
      (candidate: { instancePath: string }) => candidate.instancePath === '/name',
    );
    if (issue) {
      const missing = (request.body as { name?: unknown } | undefined)?.name === undefined;
      const message = missing ? EDGE_MESSAGES.required : issue.message;
      throw badRequest(message, { name: message });
    }
  }
  throw error;
};

/** The API of edge servers, their services and endpoints (spec2 §7). */
export const registerEdgeRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['edge servers'];

  // ---- edge servers ------------------------------------------------------------------------------

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
      const page = await service.listEdgeServers({
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
        const page = await service.listEdgeServers({
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
      results(await service.getEdgeServer({ ctx, actor: requireActor(request), id: request.params.id })),
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
        await service.createEdgeServer({
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
        body: edgeServerUpdateSchema,
        response: { 200: resultsOf(edgeServerSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await service.updateEdgeServer({
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
      results(await service.trashEdgeServer({ ctx, actor: requireActor(request), id: request.params.id })),
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
        await service.setSupportConnection({
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
        await service.runEdgeAction({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          action: request.params.action,
        }),
      ),
  );

  // ---- services ----------------------------------------------------------------------------------

  const serviceTags = ['edge services'];

  app.get(
    '/edgeServers/:id/services',
    {
      schema: {
        tags: serviceTags,
        description: 'The services of an edge server, by name',
        params: idParamSchema,
        response: { 200: collectionOf(serviceSchema) },
      },
    },
    async (request) => {
      const list = await service.listServices({
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
        tags: serviceTags,
        description: 'The service types this edge server can run',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(serviceTypeSchema)) },
      },
    },
    async (request) =>
      results(
        await service.listServiceTypesOfEdge({
          ctx,
          actor: requireActor(request),
          edgeServerId: request.params.id,
        }),
      ),
  );
  app.get(
    '/edgeServers/:id/serviceTemplates',
    {
      schema: {
        tags: serviceTags,
        description: 'Ready-made services for this edge server (ids template-1, template-2, ...)',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(serviceTemplateSchema)) },
      },
    },
    async (request) =>
      results(
        await service.listServiceTemplates({
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
        tags: serviceTags,
        description: 'One service type with its option definitions and endpoint types',
        params: typeIdParamSchema,
        response: { 200: resultsOf(serviceTypeSchema) },
      },
    },
    async (request) => {
      requireActor(request);
      return results(service.getServiceType(request.params.id));
    },
  );
  app.get(
    '/services/:id',
    {
      schema: {
        tags: serviceTags,
        description: 'One service',
        params: idParamSchema,
        response: { 200: resultsOf(serviceSchema) },
      },
    },
    async (request) =>
      results(await service.getService({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/edgeServers/:id/services',
    {
      attachValidation: true,
      schema: {
        tags: serviceTags,
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
        await service.createService({
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
        tags: serviceTags,
        description: 'Save the service, or rename it with { name }',
        params: idParamSchema,
        body: serviceUpdateSchema,
        response: { 200: resultsOf(serviceSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await service.updateService({
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
        tags: serviceTags,
        description: 'Delete the service with its endpoints',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.trashService({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/services/:id/actions/:action',
    {
      schema: {
        tags: serviceTags,
        description: "Ask the edge server's agent to restart the service or rescan its endpoints",
        params: serviceActionParamsSchema,
        response: { 200: resultsOf(edgeActionResultSchema) },
      },
    },
    async (request) =>
      results(
        await service.runServiceAction({
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
        tags: serviceTags,
        description:
          'summary: counts of the endpoints and queue items of the service; data is JSON ({accountId?})',
        params: serviceQueryParamsSchema,
        querystring: serviceQuerySchema,
        response: { 200: resultsOf(serviceSummarySchema) },
      },
    },
    async (request) =>
      results(
        await service.queryServiceSummary({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          data: request.query.data,
        }),
      ),
  );

  // ---- endpoints ---------------------------------------------------------------------------------

  const endpointTags = ['edge endpoints'];
  const endpointList = collectionOf(endpointSchema);

  app.get(
    '/endpointTypes/:id',
    {
      schema: {
        tags: endpointTags,
        description: 'One endpoint type with its option definitions',
        params: typeIdParamSchema,
        response: { 200: resultsOf(endpointTypeSchema) },
      },
    },
    async (request) => {
      requireActor(request);
      return results(service.getEndpointType(request.params.id));
    },
  );
  app.get(
    '/services/:id/endpointTypes',
    {
      schema: {
        tags: endpointTags,
        description: 'The endpoint types the service takes',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(endpointTypeSchema)) },
      },
    },
    async (request) =>
      results(
        await service.listEndpointTypesOfService({
          ctx,
          actor: requireActor(request),
          serviceId: request.params.id,
        }),
      ),
  );
  app.get(
    '/endpoints/:id',
    {
      schema: {
        tags: endpointTags,
        description: "One endpoint (its edge server's managers, its account's managers)",
        params: idParamSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) =>
      results(await service.getEndpoint({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.get(
    '/services/:id/endpoints',
    {
      schema: {
        tags: endpointTags,
        description: 'The endpoints of a service, by name',
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await service.listEndpointsOfService({
        ctx,
        actor: requireActor(request),
        serviceId: request.params.id,
      });
      return collection(list.rows, list.total, list.channel);
    },
  );
  app.get(
    '/edgeServers/:id/endpoints',
    {
      schema: {
        tags: endpointTags,
        description: 'The endpoints of every service of an edge server, by name',
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await service.listEndpointsOfEdgeServer({
        ctx,
        actor: requireActor(request),
        edgeServerId: request.params.id,
      });
      return collection(list.rows, list.total, list.channel);
    },
  );
  app.get(
    '/arrivalsFolders/:id/endpoints',
    {
      schema: {
        tags: endpointTags,
        description:
          "The endpoints assigned to an arrivals folder (the account's managers; others see those on edge servers they manage, and are refused when there are none)",
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await service.listEndpointsOfArrivalsFolder({
        ctx,
        actor: requireActor(request),
        arrivalsFolderId: request.params.id,
      });
      return collection(list.rows, list.total, list.channel);
    },
  );
  app.get(
    '/accounts/:id/endpoints',
    {
      schema: {
        tags: endpointTags,
        description:
          "The endpoints of an account; withSite=1 adds those of the account's site that have no account. For the account's managers; others see those on edge servers they manage, and are refused when there are none.",
        params: idParamSchema,
        querystring: accountEndpointsQuerySchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await service.listEndpointsOfAccount({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
        withSite: request.query.withSite === '1',
      });
      return collection(list.rows, list.total, list.channel);
    },
  );
  app.post(
    '/services/:id/endpoints',
    {
      attachValidation: true,
      schema: {
        tags: endpointTags,
        description: 'Create an endpoint of a type the service takes',
        params: idParamSchema,
        body: endpointCreateSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await service.createEndpoint({
          ctx,
          actor: requireActor(request),
          serviceId: request.params.id,
          body: request.body,
        }),
      );
    },
  );
  app.post(
    '/endpoints/:id',
    {
      attachValidation: true,
      schema: {
        tags: endpointTags,
        description:
          'Save the endpoint, or rename it with { name }; pendingSettings becomes its online value',
        params: idParamSchema,
        body: endpointUpdateSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await service.updateEndpoint({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          body: request.body,
        }),
      );
    },
  );
  app.post(
    '/endpoints/:id/actions/:action',
    {
      schema: {
        tags: endpointTags,
        description: 'enable (status ok), disable (status disabled) or reset the endpoint; the agent is told',
        params: endpointActionParamsSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) =>
      results(
        await service.runEndpointAction({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          action: request.params.action,
        }),
      ),
  );
  app.post(
    '/endpoints/:id/trash',
    {
      schema: {
        tags: endpointTags,
        description: 'Delete the endpoint',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.trashEndpoint({ ctx, actor: requireActor(request), id: request.params.id })),
  );
};

import {
  acceptingReadFields,
  accountEndpointsQuerySchema,
  collectionOf,
  ENDPOINT_ACTIONS,
  endpointCreateSchema,
  endpointSchema,
  endpointTypeSchema,
  endpointUpdateSchema,
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
import * as endpoints from './endpoints.service.ts';
import { checkBody, typeIdParamSchema } from './request-checks.ts';

const endpointActionParamsSchema = idParamSchema.extend({ action: z.enum(ENDPOINT_ACTIONS) });

/**
 * The endpoints of services: types, one, lists (service, edge server, arrivals folder, account), create,
 * save, actions, trash.
 */
export const registerEndpointRoutes = (fastify: FastifyInstance, ctx: AppContext) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['edge endpoints'];

  const endpointList = collectionOf(endpointSchema);

  app.get(
    '/endpointTypes/:id',
    {
      schema: {
        tags,
        description: 'One endpoint type with its option definitions',
        params: typeIdParamSchema,
        response: { 200: resultsOf(endpointTypeSchema) },
      },
    },
    async (request) => {
      requireActor(request);
      return results(endpoints.getEndpointType(request.params.id));
    },
  );
  app.get(
    '/services/:id/endpointTypes',
    {
      schema: {
        tags,
        description: 'The endpoint types the service takes',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(endpointTypeSchema)) },
      },
    },
    async (request) =>
      results(
        await endpoints.listEndpointTypesOfService({
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
        tags,
        description: "One endpoint (its edge server's managers, its account's managers)",
        params: idParamSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) =>
      results(await endpoints.getEndpoint({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.get(
    '/services/:id/endpoints',
    {
      schema: {
        tags,
        description: 'The endpoints of a service, by name',
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await endpoints.listEndpointsOfService({
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
        tags,
        description: 'The endpoints of every service of an edge server, by name',
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await endpoints.listEndpointsOfEdgeServer({
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
        tags,
        description:
          "The endpoints assigned to an arrivals folder (the account's managers; others see those on edge servers they manage, and are refused when there are none)",
        params: idParamSchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await endpoints.listEndpointsOfArrivalsFolder({
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
        tags,
        description:
          "The endpoints of an account; withSite=1 adds those of the account's site that have no account. For the account's managers; others see those on edge servers they manage, and are refused when there are none.",
        params: idParamSchema,
        querystring: accountEndpointsQuerySchema,
        response: { 200: endpointList },
      },
    },
    async (request) => {
      const list = await endpoints.listEndpointsOfAccount({
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
        tags,
        description: 'Create an endpoint of a type the service takes',
        params: idParamSchema,
        body: endpointCreateSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await endpoints.createEndpoint({
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
        tags,
        description:
          'Save the endpoint, or rename it with { name }; pendingSettings becomes its online value',
        params: idParamSchema,
        body: acceptingReadFields(endpointUpdateSchema, endpointSchema),
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) => {
      checkBody(request);
      return results(
        await endpoints.updateEndpoint({
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
        tags,
        description: 'enable (status ok), disable (status disabled) or reset the endpoint; the agent is told',
        params: endpointActionParamsSchema,
        response: { 200: resultsOf(endpointSchema) },
      },
    },
    async (request) =>
      results(
        await endpoints.runEndpointAction({
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
        tags,
        description: 'Delete the endpoint',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await endpoints.trashEndpoint({ ctx, actor: requireActor(request), id: request.params.id })),
  );
};

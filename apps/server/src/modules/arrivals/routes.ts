import {
  acceptingReadFields,
  arrivalsAssignmentSchema,
  arrivalsAssignmentsBodySchema,
  arrivalsFolderCreateSchema,
  arrivalsFolderSchema,
  arrivalsFolderTypeSchema,
  arrivalsFolderUpdateSchema,
  CHANNELS,
  collectionOf,
  idParamSchema,
  okSchema,
  resultsOf,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

const asList = <T>(body: T | T[]) => (Array.isArray(body) ? body : [body]);

/** Arrivals folders of an account and the assignments of endpoints to them (spec2 §7). */
export const registerArrivalsRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['arrivals'];

  app.get(
    '/accounts/:id/arrivalsFolderTypes',
    {
      schema: {
        tags,
        description: 'The kinds of arrivals folder and their options (account managers)',
        params: idParamSchema,
        response: { 200: resultsOf(z.array(arrivalsFolderTypeSchema)) },
      },
    },
    async (request) =>
      results(
        await service.listFolderTypes({ ctx, actor: requireActor(request), accountId: request.params.id }),
      ),
  );
  app.get(
    '/accounts/:id/arrivalsFolders',
    {
      schema: {
        tags,
        description: 'The arrivals folders of an account, by name (account managers; others get 403)',
        params: idParamSchema,
        response: { 200: collectionOf(arrivalsFolderSchema) },
      },
    },
    async (request) => {
      const rows = await service.listFolders({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
      });
      return collection(rows, rows.length, CHANNELS.arrivalsFolders(request.params.id));
    },
  );
  app.post(
    '/accounts/:id/arrivalsFolders',
    {
      schema: {
        tags,
        description:
          "Create an arrivals folder from a name (default 'New arrivals folder') or the full folder; the type defaults to the first",
        params: idParamSchema,
        body: arrivalsFolderCreateSchema,
        response: { 200: resultsOf(arrivalsFolderSchema) },
      },
    },
    async (request) =>
      results(
        await service.createFolder({
          ctx,
          actor: requireActor(request),
          accountId: request.params.id,
          folder: request.body,
        }),
      ),
  );
  app.get(
    '/arrivalsFolders/:id',
    {
      schema: {
        tags,
        description: 'One arrivals folder',
        params: idParamSchema,
        response: { 200: resultsOf(arrivalsFolderSchema) },
      },
    },
    async (request) =>
      results(await service.getFolder({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.post(
    '/arrivalsFolders/:id',
    {
      schema: {
        tags,
        description:
          'Save the full folder, or rename it with { id, name }; the body id must match the address',
        params: idParamSchema,
        body: acceptingReadFields(arrivalsFolderUpdateSchema, arrivalsFolderSchema),
        response: { 200: resultsOf(arrivalsFolderSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateFolder({
          ctx,
          actor: requireActor(request),
          id: request.params.id,
          change: request.body,
        }),
      ),
  );
  app.post(
    '/arrivalsFolders/:id/trash',
    {
      schema: {
        tags,
        description: 'Delete the folder; its endpoints and queue items stay, with no arrivals folder',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.trashFolder({ ctx, actor: requireActor(request), id: request.params.id })),
  );
  app.get(
    '/accounts/:id/arrivalsFolderEndpointAssignments',
    {
      schema: {
        tags,
        description: 'Which endpoint feeds which arrivals folder of the account',
        params: idParamSchema,
        response: { 200: collectionOf(arrivalsAssignmentSchema) },
      },
    },
    async (request) => {
      const rows = await service.listAccountAssignments({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
      });
      return collection(rows, rows.length, CHANNELS.arrivalsFolders(request.params.id));
    },
  );
  app.get(
    '/services/:id/arrivalsFolderEndpointAssignments',
    {
      schema: {
        tags,
        description: "The arrivals folder assignments of a service's endpoints (the edge server's managers)",
        params: idParamSchema,
        response: { 200: collectionOf(arrivalsAssignmentSchema) },
      },
    },
    async (request) => {
      const { edgeServerId, rows } = await service.listServiceAssignments({
        ctx,
        actor: requireActor(request),
        serviceId: request.params.id,
      });
      return collection(rows, rows.length, CHANNELS.endpoints(edgeServerId));
    },
  );
  app.post(
    '/arrivalsFolderEndpointAssignments',
    {
      schema: {
        tags,
        description:
          "Assign endpoints to arrivals folders (one or a list), all or nothing; an endpoint of no account joins the folder's",
        body: arrivalsAssignmentsBodySchema,
        response: { 200: resultsOf(z.array(arrivalsAssignmentSchema)) },
      },
    },
    async (request) =>
      results(await service.assign({ ctx, actor: requireActor(request), list: asList(request.body) })),
  );
  app.post(
    '/arrivalsFolderEndpointAssignments/trash',
    {
      schema: {
        tags,
        description: 'Remove assignments (one or a list), all or nothing',
        body: arrivalsAssignmentsBodySchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(await service.unassign({ ctx, actor: requireActor(request), list: asList(request.body) })),
  );
};

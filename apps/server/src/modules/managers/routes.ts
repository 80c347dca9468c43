import {
  CHANNELS,
  collectionOf,
  managerAddSchema,
  managerDeleteQuerySchema,
  managerParamsSchema,
  managerSchema,
  managersQuerySchema,
  managerTypeParamsSchema,
  okSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerManagerRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['managers'];

  app.get(
    '/managers/:type',
    {
      schema: {
        tags,
        description:
          'Managers of a type (admin, reseller, sitegroup, site, account) for one scope, optionally only those with roleId',
        params: managerTypeParamsSchema,
        querystring: managersQuerySchema,
        response: { 200: collectionOf(managerSchema) },
      },
    },
    async (request) => {
      const page = await service.listManagers({
        ctx,
        actor: requireActor(request),
        type: request.params.type,
        ...request.query,
      });
      return collection(page.rows, page.total, CHANNELS.managers(request.params.type, request.query.scopeId));
    },
  );
  app.post(
    '/managers/:type/:userId',
    {
      schema: {
        tags,
        description: 'Make a user a manager of the type (and scope)',
        params: managerParamsSchema,
        body: managerAddSchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.addManager({
          ctx,
          actor: requireActor(request),
          type: request.params.type,
          userId: request.params.userId,
          ...request.body,
        }),
      ),
  );
  app.delete(
    '/managers/:type/:userId',
    {
      schema: {
        tags,
        description: 'Stop a user being a manager of the type (and scope); the last administrator stays',
        params: managerParamsSchema,
        querystring: managerDeleteQuerySchema,
        response: { 200: okSchema },
      },
    },
    async (request) =>
      results(
        await service.removeManager({
          ctx,
          actor: requireActor(request),
          type: request.params.type,
          userId: request.params.userId,
          scopeId: request.query.scopeId,
        }),
      ),
  );
};

import { CHANNELS, collectionOf, pageQuerySchema, roleSchema } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AppServices, requireActor } from '../../app.ts';
import type { AppContext } from '../../platform/context.ts';
import { collection } from '../../platform/http/envelope.ts';
import * as service from './service.ts';

export const registerRoleRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/roles',
    {
      schema: {
        tags: ['access'],
        description: 'The roles offered on every site, sorted by name',
        querystring: pageQuerySchema,
        response: { 200: collectionOf(roleSchema) },
      },
    },
    async (request) => {
      const page = await service.listRoles({ db: ctx.db, actor: requireActor(request), ...request.query });
      return collection(page.rows, page.total, CHANNELS.roles);
    },
  );
};

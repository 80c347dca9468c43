import { idParamSchema, resultsOf, statusItemSchema } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

/** Status of the edge servers, services and endpoints that concern a site or an account (spec2 §7). */
export const registerStatusRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['status'];
  const response = { 200: resultsOf(z.array(statusItemSchema)) };

  app.get(
    '/sites/:id/status',
    {
      schema: {
        tags,
        description:
          "Status items of the site's edge servers and wherever its endpoints run, each edge followed by its services and endpoints (site managers)",
        params: idParamSchema,
        response,
      },
    },
    async (request) =>
      results(await service.siteStatus({ ctx, actor: requireActor(request), siteId: request.params.id })),
  );
  app.get(
    '/accounts/:id/status',
    {
      schema: {
        tags,
        description:
          "Status items of the account's endpoints (own or feeding its arrivals folders), their services and edge servers (account managers)",
        params: idParamSchema,
        response,
      },
    },
    async (request) =>
      results(
        await service.accountStatus({ ctx, actor: requireActor(request), accountId: request.params.id }),
      ),
  );
};

import { accountDashboardSchema, diagnosticsSchema, idParamSchema, resultsOf } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

/** The diagnostic page and the account dashboard (spec2 §1, spec3 §2 page areas). */
export const registerDiagnosticsRoutes = (
  fastify: FastifyInstance,
  ctx: AppContext,
  _services: AppServices,
) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/diagnostics',
    {
      schema: {
        tags: ['diagnostics'],
        description:
          'Versions, connectivity checks with their times, durable job counts, storage and edge servers (administrators)',
        response: { 200: resultsOf(diagnosticsSchema) },
      },
    },
    async (request) => results(await service.diagnostics({ ctx, actor: requireActor(request) })),
  );
  app.get(
    '/accounts/:id/dashboard',
    {
      schema: {
        tags: ['accounts'],
        description:
          "The account's media counts by type, recent nodes, storage use and, for its managers, ingest queue counts and changes",
        params: idParamSchema,
        response: { 200: resultsOf(accountDashboardSchema) },
      },
    },
    async (request) =>
      results(
        await service.accountDashboard({ ctx, actor: requireActor(request), accountId: request.params.id }),
      ),
  );
};

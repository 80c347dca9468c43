import { auditFilterSchema, auditPageSchema, auditQuerySchema, ownAuditQuerySchema } from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { attachment } from '../../platform/http/attachment.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { startAuditRetention } from './retention.ts';
import * as service from './service.ts';

export const registerAuditRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['audit log'];
  const stopRetention = startAuditRetention(ctx.db, ctx.config.auditRetentionDays, ctx.log);
  fastify.addHook('onClose', stopRetention);

  app.get(
    '/auditLog',
    {
      schema: {
        tags,
        description:
          'Who changed what, newest first: administrators read all, reseller, site group, site and account managers their places; filtered, paged by time (`next` gives the older page)',
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => service.listLog({ ctx, actor: requireActor(request), query: request.query }),
  );
  app.get(
    '/auditLog/export',
    {
      schema: {
        tags,
        description: 'Every row of the log the filters match, as a streamed CSV file',
        querystring: auditFilterSchema,
      },
    },
    async (request, reply) => {
      const download = await service.exportLog({ ctx, actor: requireActor(request), filter: request.query });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(download.fileName))
        .header('cache-control', 'no-store')
        .send(download.stream);
    },
  );
  app.get(
    '/me/auditLog',
    {
      schema: {
        tags,
        description:
          'What other people, agents and the system did to your user (your own changes are not listed), newest first',
        querystring: ownAuditQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => service.listOwn({ ctx, actor: requireActor(request), query: request.query }),
  );
};

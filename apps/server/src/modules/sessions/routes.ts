import {
  accessPageQuerySchema,
  accountSessionSchema,
  CHANNELS,
  collectionOf,
  disconnectionSchema,
  idParamSchema,
  messageResponseSchema,
  sessionParamsSchema,
  sessionTrashSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerSessionRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];

  app.get(
    '/accounts/:id/sessions',
    {
      schema: {
        tags,
        description:
          'Sessions opened in the account (launched into it) by users you may manage, most recently seen first',
        params: idParamSchema,
        querystring: accessPageQuerySchema,
        response: { 200: collectionOf(accountSessionSchema) },
      },
    },
    async (request) => {
      const page = await service.listSessions({
        ctx,
        actor: requireActor(request),
        accountId: request.params.id,
        ...request.query,
      });
      return collection(page.rows, page.total, CHANNELS.sessions(request.params.id));
    },
  );
  app.post(
    '/accounts/:id/sessions/:sessionId/trash',
    {
      schema: {
        tags,
        description: 'Disconnect a session the list shows, with a message its user sees (404 for any other)',
        params: sessionParamsSchema,
        body: sessionTrashSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.disconnect({
          ctx,
          sessions: services.sessions,
          actor: requireActor(request),
          accountId: request.params.id,
          sessionId: request.params.sessionId,
          message: request.body.disconnectmessage,
        }),
      ),
  );
  app.post(
    '/disconnection',
    {
      schema: {
        tags,
        description: 'Disconnect a session of an account (byUserId must be the signed-in user)',
        body: disconnectionSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.disconnectBy({
          ctx,
          sessions: services.sessions,
          actor: requireActor(request),
          accountId: request.body.accountId,
          sessionId: request.body.sessionId,
          message: request.body.message,
          byUserId: request.body.byUserId,
        }),
      ),
  );
};

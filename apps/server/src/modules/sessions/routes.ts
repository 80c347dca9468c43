import {
  accessPageQuerySchema,
  accountSessionSchema,
  CHANNELS,
  collectionOf,
  disconnectionSchema,
  idParamSchema,
  messageResponseSchema,
  ownSessionListSchema,
  ownSessionParamsSchema,
  reauthRequestSchema,
  reauthResponseSchema,
  sessionParamsSchema,
  sessionsEndedSchema,
  sessionTrashSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
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

  const emptyBody = z.strictObject({}).optional();
  app.get(
    '/me/sessions',
    {
      schema: {
        tags,
        description: 'Your live sessions (device, address, started, last seen), this one first',
        response: { 200: ownSessionListSchema },
      },
    },
    async (request) => results(await service.listOwn(ctx, requireActor(request))),
  );
  app.post(
    '/me/sessions/:id/trash',
    {
      schema: {
        tags,
        description:
          'End another of your sessions (this one ends by signing out); needs a sign-in from the last 5 minutes',
        params: ownSessionParamsSchema,
        body: emptyBody,
        response: { 200: sessionsEndedSchema },
      },
    },
    async (request) =>
      results(
        await service.endOwn({
          ctx,
          sessions: services.sessions,
          actor: requireActor(request),
          sessionId: request.params.id,
        }),
      ),
  );
  app.post(
    '/me/sessions/trash',
    {
      schema: {
        tags,
        description: 'End all your sessions but this one; needs a sign-in from the last 5 minutes',
        body: emptyBody,
        response: { 200: sessionsEndedSchema },
      },
    },
    async (request) =>
      results(await service.endOwnOthers({ ctx, sessions: services.sessions, actor: requireActor(request) })),
  );
  app.post(
    '/me/reauth',
    {
      schema: {
        tags,
        description:
          'Enter your password (and second factor) again: a change of e-mail, second factor, API tokens or sessions needs it within 5 minutes (401 reauth)',
        body: reauthRequestSchema,
        response: { 200: reauthResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.reauthenticate({
          ctx,
          sessions: services.sessions,
          actor: requireActor(request),
          ip: request.ip,
          request: request.body,
        }),
      ),
  );
  app.post(
    '/users/:id/sessions/trash',
    {
      schema: {
        tags,
        description: 'End every session of a user (administrators; your own current session stays)',
        params: idParamSchema,
        body: emptyBody,
        response: { 200: sessionsEndedSchema },
      },
    },
    async (request) =>
      results(
        await service.endAsAdministrator({
          ctx,
          sessions: services.sessions,
          actor: requireActor(request),
          userId: request.params.id,
        }),
      ),
  );
  app.post(
    '/sessions/trash',
    {
      schema: {
        tags,
        description: "End everyone's sessions (administrators; your own current session stays)",
        body: emptyBody,
        response: { 200: sessionsEndedSchema },
      },
    },
    async (request) =>
      results(
        await service.endAsAdministrator({ ctx, sessions: services.sessions, actor: requireActor(request) }),
      ),
  );
};

import {
  idParamSchema,
  messageResponseSchema,
  passwordResetRequestSchema,
  passwordRulesSchema,
  passwordRulesUpdateSchema,
  resultsOf,
  setPasswordRequestSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerPasswordRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['passwords'];
  const db = ctx.db;

  app.get(
    '/passwordRules',
    {
      schema: {
        tags,
        description: 'The password rules, each with its enabled flag and value',
        response: { 200: resultsOf(passwordRulesSchema) },
      },
    },
    async () => results(await service.getRules({ db })),
  );
  app.post(
    '/passwordRules',
    {
      schema: {
        tags,
        description: 'Change password rules (administrators)',
        body: passwordRulesUpdateSchema,
        response: { 200: resultsOf(passwordRulesSchema) },
      },
    },
    async (request) =>
      results(
        await service.updateRules({
          db,
          publish: ctx.publish,
          actor: requireActor(request),
          rules: request.body,
        }),
      ),
  );
  app.post(
    '/users/:id/setPassword',
    {
      schema: {
        tags,
        description: 'Set a password: with the current password, or with a reset or registration token',
        params: idParamSchema,
        body: setPasswordRequestSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) =>
      results(
        await service.setPassword({
          db,
          publish: ctx.publish,
          ip: request.ip,
          sessions: services.sessions,
          actor: request.actor,
          unauthenticatedMessage: request.sessionEndedMessage,
          userId: request.params.id,
          request: request.body,
        }),
      ),
  );
  app.post(
    '/passwordReset',
    {
      schema: {
        tags,
        description: 'Mail a password reset link to the user with this user name or email, if there is one',
        body: passwordResetRequestSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => results(await service.requestPasswordReset({ ctx, login: request.body.username })),
  );
};

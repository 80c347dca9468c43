import {
  CHANNELS,
  collectionOf,
  liftLockoutRequestSchema,
  lockoutSchema,
  lockoutsQuerySchema,
  loginRequestSchema,
  loginResponseSchema,
  meResponseSchema,
  okSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from '../../platform/auth/sessions.ts';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { JsonAnswers } from '../../platform/http/json-answers.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import * as service from './service.ts';

export const registerAuthRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  // Read on every page load: kept while the auth epoch stands still (migration 0025 moves it for what it shows).
  const meAnswers = new JsonAnswers<string>(services.authEpoch);
  const stopPruning = service.startLoginFailurePruning(ctx.db, ctx.log);
  fastify.addHook('onClose', stopPruning);

  app.post(
    '/login',
    {
      schema: {
        tags,
        description: 'Sign in',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const outcome = await service.login({
        db: ctx.db,
        publish: ctx.publish,
        sessions: services.sessions,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        ...request.body,
      });
      if (outcome.session) {
        if (request.actor) await services.sessions.end(request.actor.sessionIdHash);
        const secure = request.secure;
        reply.setCookie(SESSION_COOKIE, outcome.session.sessionId, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure,
        });
        services.csrf.setCookie(reply, services.csrf.issue(outcome.session.idHash), secure);
      }
      return results(outcome.result);
    },
  );

  app.post(
    '/logout',
    { schema: { tags, description: 'Sign out', response: { 200: okSchema } } },
    async (request, reply) => {
      if (request.actor) await services.sessions.end(request.actor.sessionIdHash);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      services.csrf.setCookie(reply, services.csrf.issue(), request.secure);
      return results({ ok: true as const });
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags,
        description: 'The signed-in user and their rights',
        response: { 200: meResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return meAnswers.send(request, reply, actor.sessionIdHash, actor.generation, async () =>
        results(await service.me({ db: ctx.db, actor })),
      );
    },
  );

  app.get(
    '/loginLockouts',
    {
      schema: {
        tags,
        description: 'Current sign-in lock-outs (administrators)',
        querystring: lockoutsQuerySchema,
        response: { 200: collectionOf(lockoutSchema) },
      },
    },
    async (request) => {
      const page = await service.listLockouts({ db: ctx.db, actor: requireActor(request), ...request.query });
      return collection(page.items, page.total, CHANNELS.loginLockouts);
    },
  );

  app.post(
    '/loginLockouts/lift',
    {
      schema: {
        tags,
        description: 'Lift a sign-in lock-out (administrators)',
        body: liftLockoutRequestSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.liftLockout({
        db: ctx.db,
        publish: ctx.publish,
        actor: requireActor(request),
        ...request.body,
      });
      return results({ ok: true as const });
    },
  );
};

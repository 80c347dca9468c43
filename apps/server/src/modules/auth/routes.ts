import {
  CHANNELS,
  collectionOf,
  liftLockoutRequestSchema,
  lockoutSchema,
  lockoutsQuerySchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  okSchema,
} from '@media/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { setSessionCookies } from '../../platform/auth/session-cookie.ts';
import { SESSION_COOKIE } from '../../platform/auth/sessions.ts';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { noteAudit } from '../../platform/http/audit.ts';
import { collection, results } from '../../platform/http/envelope.ts';
import { JsonAnswers } from '../../platform/http/json-answers.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { endSessionUrl as endSessionUrlOf } from '../oidc/service.ts';
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
        passwordSignIn: ctx.config.passwordSignIn,
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
        ...request.body,
      });
      if (outcome.session) {
        if (request.actor) await services.sessions.end(request.actor.sessionIdHash);
        setSessionCookies(reply, services.csrf, outcome.session, request.secure);
      }
      // A refused sign-in answers 200 too: the audit row says it failed, or who signed in.
      noteAudit(request, outcome.user ? { actor: outcome.user } : { failed: true });
      return results(outcome.result);
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags,
        description:
          "Sign out; a session that came from the identity provider answers the provider's end-session address too",
        response: { 200: logoutResponseSchema },
      },
    },
    async (request, reply) => {
      const signedInWith = request.actor?.signedInWith;
      if (request.actor && !request.actor.apiToken) await services.sessions.end(request.actor.sessionIdHash);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      services.csrf.setCookie(reply, services.csrf.issue(), request.secure);
      const endSessionUrl =
        signedInWith === 'oidc' && services.oidc
          ? endSessionUrlOf(services.oidc, ctx.config.publicUrl)
          : undefined;
      return results({ ok: true as const, ...(endSessionUrl ? { endSessionUrl } : {}) });
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

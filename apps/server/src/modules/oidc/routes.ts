import {
  idParamSchema,
  isLocalReturnPath,
  linkedIdentityListSchema,
  OIDC_LOGIN_TTL_MINUTES,
  type OidcErrorCode,
  oidcCallbackQuerySchema,
  oidcLoginQuerySchema,
  oidcRedirectSchema,
  okSchema,
} from '@media/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setSessionCookies } from '../../platform/auth/session-cookie.ts';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { noteAudit } from '../../platform/http/audit.ts';
import { results } from '../../platform/http/envelope.ts';
import { requireActor } from '../../platform/http/request-context.ts';
import { findUser } from '../users/repo.ts';
import * as service from './service.ts';

/** The state of the sign-in this browser started: only its own callback is taken (no login forgery). */
const STATE_COOKIE = 'oidc_state';
const STATE_COOKIE_PATH = '/api/oidc';

export const registerOidcRoutes = (fastify: FastifyInstance, ctx: AppContext, services: AppServices) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['sign-in with the identity provider'];

  const rememberState = (request: FastifyRequest, reply: FastifyReply, state: string) =>
    reply.setCookie(STATE_COOKIE, state, {
      path: STATE_COOKIE_PATH,
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level GET, which carries it.
      sameSite: 'lax',
      secure: request.secure,
      maxAge: OIDC_LOGIN_TTL_MINUTES * 60,
    });
  const toLoginPage = (reply: FastifyReply, error: OidcErrorCode) =>
    reply.redirect(`/login?oidcError=${error}`, 302);

  app.get(
    '/oidc/login',
    {
      schema: {
        tags,
        description:
          "Sign in through the identity provider: a redirect to it (returnTo: a path of this site to come back to; invite: an invitation's token to accept)",
        querystring: oidcLoginQuerySchema,
      },
    },
    async (request, reply) => {
      if (!services.oidc) return toLoginPage(reply, 'off');
      const started = await service.startLogin({
        ctx,
        provider: services.oidc,
        returnTo: request.query.returnTo,
        inviteToken: request.query.invite,
        prompt: request.query.prompt,
      });
      rememberState(request, reply, started.state);
      return reply.redirect(started.url, 302);
    },
  );

  app.get(
    '/oidc/callback',
    {
      schema: {
        tags,
        description: "The identity provider's redirect back: a session, then back to returnTo",
        querystring: oidcCallbackQuerySchema,
      },
      // A GET that signs in, links an identity or makes a user: in the audit log as a sign-in is.
      config: { audit: true },
    },
    async (request, reply) => {
      if (!services.oidc) return toLoginPage(reply, 'off');
      const cookieState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: STATE_COOKIE_PATH });
      const outcome = await service.finishLogin({
        ctx,
        provider: services.oidc,
        callbackUrl: new URL(request.url, ctx.config.publicUrl),
        cookieState,
      });
      if (outcome.kind === 'refused') noteAudit(request, { failed: true });
      else {
        const user = await findUser(ctx.db, outcome.userId);
        if (user) noteAudit(request, { actor: { id: user.id, name: user.username } });
      }
      if (outcome.kind === 'refused') {
        if (outcome.returnTo && isLocalReturnPath(outcome.returnTo)) {
          const back = new URL(outcome.returnTo, ctx.config.publicUrl);
          back.searchParams.set('oidcError', outcome.error);
          return reply.redirect(`${back.pathname}${back.search}${back.hash}`, 302);
        }
        return toLoginPage(reply, outcome.error);
      }
      if (outcome.kind === 'signIn') {
        const current = request.actor && !request.actor.apiToken ? request.actor : undefined;
        if (current && current.userId === outcome.userId) {
          // The same person again (prompt=login before a sensitive change): this session's sign-in is now.
          await services.sessions.reauthenticated(current.sessionIdHash);
        } else {
          if (current) await services.sessions.end(current.sessionIdHash);
          const session = await services.sessions.create(
            ctx.db,
            outcome.userId,
            request.ip,
            request.headers['user-agent'] ?? '',
            'oidc',
          );
          setSessionCookies(reply, services.csrf, session, request.secure);
        }
      }
      return reply.redirect(outcome.returnTo, 302);
    },
  );

  app.get(
    '/me/identities',
    {
      schema: {
        tags,
        description: 'Your linked sign-ins at the identity provider',
        response: { 200: linkedIdentityListSchema },
      },
    },
    async (request) => results(await service.listOwn(ctx, requireActor(request))),
  );

  app.post(
    '/me/identities/link',
    {
      schema: {
        tags,
        description:
          "Link your identity at the provider: answers the provider's address to go to (needs a sign-in from the last 5 minutes)",
        body: z.strictObject({
          returnTo: z
            .string()
            .max(2000)
            .refine(isLocalReturnPath, 'returnTo must be a path of this site')
            .optional(),
        }),
        response: { 200: oidcRedirectSchema },
      },
    },
    async (request, reply) => {
      const started = await service.startLink(
        ctx,
        services.oidc,
        requireActor(request),
        request.body.returnTo ?? '/',
      );
      rememberState(request, reply, started.state);
      return results({ url: started.url });
    },
  );

  app.post(
    '/me/identities/:id/trash',
    {
      schema: {
        tags,
        description: 'Unlink one of your sign-ins at the provider (needs a sign-in from the last 5 minutes)',
        params: idParamSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.unlink(ctx, requireActor(request), request.params.id);
      return results({ ok: true as const });
    },
  );
};

import {
  AGENT_PATH_PREFIX,
  API_TOKEN_PREFIX,
  ERROR_CODES,
  MSG_API_TOKEN_IN_ADDRESS,
  MSG_API_TOKEN_INVALID,
  MSG_API_TOKEN_READ_ONLY,
} from '@media/contract';
import type { DoneFuncWithErrOrRes, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SessionActor, TokenActor } from '../auth/actor.ts';
import { type ResolvedSession, SESSION_COOKIE } from '../auth/sessions.ts';
import type { AppServices } from '../context.ts';
import { AppError, badRequest, unauthenticated } from '../errors.ts';
import './request-context.ts'; // request.actor, sessionEndedMessage, secure

/** The one page-shaped path the server answers itself, with the signed-in user's rights. */
const KEY_MAP_DOWNLOAD_PATH = /^\/accounts\/[^/?]+\/generatekeyexpansion(\?|$)/;

const readsSession = (url: string) => url.startsWith('/api/') || KEY_MAP_DOWNLOAD_PATH.test(url);

type Services = Pick<AppServices, 'authEpoch' | 'sessions' | 'apiTokens' | 'rights' | 'csrf'>;

/** `Authorization: Bearer <token>`: the token (the agent's calls use the same header, on their own paths). */
const BEARER = /^Bearer +(\S+)$/i;
/** A token-like value in an address' query: refused, never used (addresses end up in logs and histories). */
const TOKEN_IN_QUERY = new RegExp(`[?&][^=&#]*=${API_TOKEN_PREFIX}[A-Za-z0-9_-]{16,}`);
const READS = new Set(['GET', 'HEAD']);

/**
 * A request with an API token: its user's actor, reading no cookie and needing no anti-forgery header (a
 * browser never sends the header by itself, so there is nothing to forge). Unknown, expired, revoked or of a
 * disabled user: 401; a read token's write: 403 `scope`.
 */
const enterWithToken = async (request: FastifyRequest, services: Services, token: string) => {
  const resolved = await services.apiTokens(token);
  if (!resolved.ok) throw unauthenticated(MSG_API_TOKEN_INVALID);
  if (resolved.scope === 'read' && !READS.has(request.method))
    throw new AppError(ERROR_CODES.scope, MSG_API_TOKEN_READ_ONLY);
  request.actor = new TokenActor(resolved, await services.authEpoch.current(), services.rights);
};

/**
 * Resolves each request's session into `request.actor` (or the reason it ended, with its cookie cleared),
 * then guards the API against forgery and gives a browser without an anti-forgery token one. A callback
 * hook, not an async one: a session this instance has cached (embedded database) is entered without
 * waiting, and a request makes no closures for it (this runs on every request).
 */
export const registerRequestSession = (app: FastifyInstance, services: Services) => {
  app.decorateRequest('actor', null);
  app.decorateRequest('sessionEndedMessage', undefined);
  app.decorateRequest('secure', false);

  const enter = (
    request: FastifyRequest,
    reply: FastifyReply,
    session: ResolvedSession | undefined,
    done: DoneFuncWithErrOrRes,
  ) => {
    try {
      if (session?.ok) request.actor = new SessionActor(session, services.rights);
      else if (session) {
        request.sessionEndedMessage = session.message;
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      }
      if (request.url.startsWith('/api/')) {
        // The agent's calls carry a bearer token and never a cookie, so there is nothing to forge.
        if (!request.url.startsWith(AGENT_PATH_PREFIX))
          services.csrf.check(request, request.actor?.sessionIdHash);
        // Every API answer gives a browser without an anti-forgery token one.
        services.csrf.ensureCookie(request, reply, request.secure);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };

  app.addHook('onRequest', (request, reply, done) => {
    request.secure = request.protocol === 'https';
    if (request.url.startsWith('/api/') && !request.url.startsWith(AGENT_PATH_PREFIX)) {
      if (TOKEN_IN_QUERY.test(request.url)) {
        done(badRequest(MSG_API_TOKEN_IN_ADDRESS));
        return;
      }
      // Another scheme (a proxy's Basic sign-in passed on) is not ours: the request goes on as a browser's.
      const token = request.headers.authorization
        ? BEARER.exec(request.headers.authorization)?.[1]
        : undefined;
      if (token !== undefined) {
        enterWithToken(request, services, token).then(() => done(), done);
        return;
      }
    }
    const sessionId = request.cookies[SESSION_COOKIE];
    if (!sessionId || !readsSession(request.url)) {
      enter(request, reply, undefined, done);
      return;
    }
    const cached = services.sessions.resolveCached(sessionId);
    if (cached) {
      enter(request, reply, cached, done);
      return;
    }
    services.sessions.resolve(sessionId).then(
      (session) => enter(request, reply, session, done),
      (error: unknown) => done(error as Error),
    );
  });
};

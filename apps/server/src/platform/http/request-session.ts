import { AGENT_PATH_PREFIX } from '@media/contract';
import type { DoneFuncWithErrOrRes, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SessionActor } from '../auth/actor.ts';
import { type ResolvedSession, SESSION_COOKIE } from '../auth/sessions.ts';
import type { AppServices } from '../context.ts';
import './request-context.ts'; // request.actor, sessionEndedMessage, secure

/** The one page-shaped path the server answers itself, with the signed-in user's rights. */
const KEY_MAP_DOWNLOAD_PATH = /^\/accounts\/[^/?]+\/generatekeyexpansion(\?|$)/;

const readsSession = (url: string) => url.startsWith('/api/') || KEY_MAP_DOWNLOAD_PATH.test(url);

type Services = Pick<AppServices, 'sessions' | 'rights' | 'csrf'>;

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

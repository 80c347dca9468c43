import type { FastifyReply } from 'fastify';
import type { CsrfGuard } from '../http/csrf.ts';
import { SESSION_COOKIE } from './sessions.ts';

/** A new session's cookie, and the anti-forgery token bound to it (a password or a provider's sign-in). */
export const setSessionCookies = (
  reply: FastifyReply,
  csrf: CsrfGuard,
  session: { sessionId: string; idHash: string },
  secure: boolean,
) => {
  reply.setCookie(SESSION_COOKIE, session.sessionId, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  csrf.setCookie(reply, csrf.issue(session.idHash), secure);
};

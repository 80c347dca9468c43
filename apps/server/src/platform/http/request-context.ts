import type { FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.ts';
import { unauthenticated } from '../errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. */
    actor: Actor | null;
    /** Why a session cookie was refused (a disconnect message), for the 401. */
    sessionEndedMessage: string | undefined;
    /** Whether the request reached us over HTTPS (X-Forwarded-Proto only counts with TRUST_PROXY). */
    secure: boolean;
    /** A machine that signed the request with its own token (an edge server's agent), for the audit log. */
    machineActor?: { type: 'agent' | 'runner'; id: number; name: string };
  }
}

/** The signed-in user or a 401 that the client turns into the re-login dialog. */
export const requireActor = (request: FastifyRequest): Actor => {
  if (!request.actor) throw unauthenticated(request.sessionEndedMessage);
  return request.actor;
};

import {
  CHANNELS,
  ERROR_CODES,
  MSG_CURRENT_PASSWORD_WRONG,
  MSG_DISCONNECTION_SUCCESSFUL,
  MSG_LOGIN_LOCKED,
  MSG_LOGIN_MFA_INVALID,
  MSG_LOGIN_MFA_REQUIRED,
  MSG_REAUTH_BY_TOKEN,
  MSG_SESSION_ENDED_BY_USER,
  MSG_SESSION_IS_CURRENT,
  MSG_SESSION_NOT_FOUND,
  MSG_SESSIONS_ENDED_BY_ADMIN,
  type OwnSession,
  type ReauthRequest,
} from '@media/contract';
import Bowser from 'bowser';
import type { Actor } from '../../platform/auth/actor.ts';
import { verifyPassword } from '../../platform/auth/password-hash.ts';
import { requireRecentSignIn } from '../../platform/auth/reauth.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { manageableBy, requireAccountManagement, requireRight } from '../access/service.ts';
import { checkPasswordAttempt } from '../auth/service.ts';
import { sessions } from '../auth/tables.ts';
import { verifySecondFactor } from '../mfa/service.ts';
import { findUser } from '../users/repo.ts';
import * as repo from './repo.ts';

/** A session seen within this long counts as active; older (but not yet expired) as idle. */
const ACTIVE_WITHIN_MS = 5 * 60_000;

/**
 * The sessions opened in the account (launched into it) by users the actor may manage (DESIGN.md
 * "Managing people"), most recently seen first.
 */
export const listSessions = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  offset: number;
  limit: number;
}) => {
  const { ctx, actor, accountId } = options;
  await requireAccountManagement(ctx, actor, accountId);
  const page = await repo.findAccountSessionsPage(ctx.db, {
    accountId,
    manageable: await manageableBy(ctx.db, actor, sessions.userId),
    idleSince: new Date(Date.now() - ctx.config.sessionIdleMinutes * 60_000),
    offset: options.offset,
    limit: options.limit,
  });
  const now = Date.now();
  return {
    rows: page.rows.map((row) => ({
      id: row.publicId,
      sessionId: row.publicId,
      user: row.userId,
      username: row.username,
      ip: row.ip,
      status: now - row.lastSeenAt.getTime() < ACTIVE_WITHIN_MS ? ('active' as const) : ('idle' as const),
      openedtime: row.createdAt.toISOString(),
      lastSeen: row.lastSeenAt.toISOString(),
      disconnectmessage: row.disconnectMessage,
    })),
    total: page.total,
  };
};

/** Ends the session at once; its next call answers 401 with the message, which its re-login dialog shows. */
export const disconnect = async (options: {
  ctx: AppContext;
  sessions: SessionStore;
  actor: Actor;
  accountId: number;
  sessionId: string;
  message: string;
}) => {
  const { ctx, actor, accountId } = options;
  await requireAccountManagement(ctx, actor, accountId);
  // Only a session the list shows: opened in this account, by a user the actor may manage.
  const session = await repo.findAccountSession(ctx.db, {
    accountId,
    manageable: await manageableBy(ctx.db, actor, sessions.userId),
    publicId: options.sessionId,
  });
  if (!session) throw notFound('Session');
  if (!(await options.sessions.disconnect(ctx.db, options.sessionId, options.message)))
    throw notFound('Session');
  await ctx.publish(CHANNELS.sessions(accountId), [options.sessionId]);
  return { message: MSG_DISCONNECTION_SUCCESSFUL };
};

export const disconnectBy = async (options: Parameters<typeof disconnect>[0] & { byUserId: number }) => {
  // The client names who disconnects; only the signed-in user may be that.
  if (options.byUserId !== options.actor.userId) throw forbidden();
  return disconnect(options);
};

/** "Chrome 131 on Linux" from a user agent; what there is of it when no browser is recognised (a script). */
export const deviceOf = (userAgent: string) => {
  const trimmed = userAgent.trim();
  if (!trimmed) return 'Unknown device';
  const parser = Bowser.getParser(trimmed);
  const browser = parser.getBrowser();
  if (!browser.name) return trimmed.slice(0, 60);
  const major = browser.version?.split('.')[0];
  const system = parser.getOS().name;
  return `${browser.name}${major ? ` ${major}` : ''}${system ? ` on ${system}` : ''}`;
};

const sessionNotFound = () => new AppError(ERROR_CODES.notFound, MSG_SESSION_NOT_FOUND);

/** The sessions of the user themselves (an API token sees its user's sessions and ends none). */
const requireSession = (actor: Actor) => {
  if (actor.apiToken) throw forbidden(MSG_REAUTH_BY_TOKEN);
};

/** GET /api/me/sessions: the signed-in user's live sessions, this one first (ASVS 7.5.2). */
export const listOwn = async (ctx: AppContext, actor: Actor): Promise<OwnSession[]> => {
  const rows = await repo.findUserSessions(ctx.db, {
    userId: actor.userId,
    idleSince: new Date(Date.now() - ctx.config.sessionIdleMinutes * 60_000),
  });
  return rows
    .map((row) => ({
      id: row.publicId,
      device: deviceOf(row.userAgent),
      ip: row.ip,
      startedAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
      current: row.idHash === actor.sessionIdHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
};

/** POST /api/me/sessions/{id}/trash: ends another of the user's sessions (this one ends by signing out). */
export const endOwn = async (options: {
  ctx: AppContext;
  sessions: SessionStore;
  actor: Actor;
  sessionId: string;
}) => {
  const { ctx, actor } = options;
  requireSession(actor);
  requireRecentSignIn(actor, ctx.config);
  const session = await repo.findUserSession(ctx.db, actor.userId, options.sessionId);
  if (!session) throw sessionNotFound();
  if (session.idHash === actor.sessionIdHash) throw badRequest(MSG_SESSION_IS_CURRENT);
  if (!(await options.sessions.disconnect(ctx.db, session.publicId, MSG_SESSION_ENDED_BY_USER)))
    throw sessionNotFound();
  return { ended: 1 };
};

/** POST /api/me/sessions/trash: ends every other session of the user. */
export const endOwnOthers = async (options: { ctx: AppContext; sessions: SessionStore; actor: Actor }) => {
  const { ctx, actor } = options;
  requireSession(actor);
  requireRecentSignIn(actor, ctx.config);
  const ended = await options.sessions.disconnectAll(ctx.db, {
    userId: actor.userId,
    keepIdHash: actor.sessionIdHash,
    message: MSG_SESSION_ENDED_BY_USER,
  });
  return { ended };
};

/**
 * POST /api/users/{id}/sessions/trash (one user) and POST /api/sessions/trash (everyone): administrators
 * end sessions (ASVS 7.4.5); the caller's own session stays. Each ended session's next call answers 401
 * with MSG_SESSIONS_ENDED_BY_ADMIN, on every instance (the auth epoch moves).
 */
export const endAsAdministrator = async (options: {
  ctx: AppContext;
  sessions: SessionStore;
  actor: Actor;
  userId?: number;
}) => {
  const { ctx, actor, userId } = options;
  await requireRight(ctx.db, actor, 'cloud.admin');
  if (userId !== undefined && !(await findUser(ctx.db, userId))) throw notFound('User');
  const ended = await options.sessions.disconnectAll(ctx.db, {
    userId,
    keepIdHash: actor.apiToken ? undefined : actor.sessionIdHash,
    message: MSG_SESSIONS_ENDED_BY_ADMIN,
  });
  return { ended };
};

/**
 * POST /api/me/reauth: the password (and the second factor, when the user has one) again, counted and
 * locked out like a sign-in; the session's sign-in time becomes now.
 */
export const reauthenticate = async (options: {
  ctx: AppContext;
  sessions: SessionStore;
  actor: Actor;
  ip: string;
  request: ReauthRequest;
}) => {
  const { ctx, actor, request } = options;
  requireSession(actor);
  const user = await repo.findUserForReauth(ctx.db, actor.userId);
  if (!user) throw notFound('User');
  // The signed-in user asks for themselves: saying that a code is needed tells nothing to a stranger.
  if (user.mfaSecret && !request.mfaCode?.trim())
    throw badRequest(MSG_LOGIN_MFA_REQUIRED, { mfaCode: MSG_LOGIN_MFA_REQUIRED });
  let passwordRight = false;
  const attempt = await checkPasswordAttempt({
    db: ctx.db,
    publish: ctx.publish,
    username: user.username,
    ip: options.ip,
    check: async () => {
      passwordRight = await verifyPassword(user.passwordHash, request.password);
      if (!passwordRight || !user.mfaSecret) return passwordRight;
      return verifySecondFactor(ctx.db, { id: user.id, mfaSecret: user.mfaSecret }, request.mfaCode ?? '');
    },
  });
  if (attempt === 'locked') throw badRequest(MSG_LOGIN_LOCKED, undefined, 'locked');
  if (attempt === 'wrong')
    throw passwordRight
      ? badRequest(MSG_LOGIN_MFA_INVALID, { mfaCode: MSG_LOGIN_MFA_INVALID })
      : badRequest(MSG_CURRENT_PASSWORD_WRONG, { password: MSG_CURRENT_PASSWORD_WRONG });
  const authenticatedAt = await options.sessions.reauthenticated(actor.sessionIdHash);
  if (!authenticatedAt) throw sessionNotFound();
  return { authenticatedAt: authenticatedAt.toISOString() };
};

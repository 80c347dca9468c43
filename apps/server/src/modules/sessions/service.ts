import { CHANNELS, MSG_DISCONNECTION_SUCCESSFUL } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { manageableBy, requireAccountManagement } from '../access/service.ts';
import { sessions } from '../auth/tables.ts';
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

import {
  CHANNELS,
  type NotificationType,
  renderNotificationText,
  type UserNotification,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { requireUserManagement } from '../access/service.ts';
import * as repo from './repo.ts';
import type { userNotifications } from './tables.ts';

const present = (row: typeof userNotifications.$inferSelect): UserNotification => ({
  id: row.id,
  created: row.createdAt.toISOString(),
  status: row.status,
  type: row.type,
  message: row.message,
  link: row.link,
});

/**
 * A user's own notifications; an administrator may look too. Others are refused (403) before any
 * lookup, so that the answer never tells whether a user id exists.
 */
const requireOwnerOrAdmin = async (ctx: AppContext, actor: Actor, userId: number) => {
  if (actor.userId !== userId && !(await actor.rights()).admin) throw forbidden();
  await requireUserManagement(ctx.db, actor, userId);
};

export const listNotifications = async (options: {
  ctx: AppContext;
  actor: Actor;
  userId: number;
  offset: number;
  limit: number;
}) => {
  await requireOwnerOrAdmin(options.ctx, options.actor, options.userId);
  const page = await repo.findOpenNotificationsPage(
    options.ctx.db,
    options.userId,
    options.offset,
    options.limit,
  );
  return { items: page.rows.map(present), total: page.total };
};

export const acknowledgeNotification = async (options: {
  ctx: AppContext;
  actor: Actor;
  userId: number;
  notificationId: number;
}) => {
  const { ctx } = options;
  // Only the user themself acknowledges.
  if (options.actor.userId !== options.userId) throw forbidden();
  const row = await repo.acknowledge(ctx.db, options.userId, options.notificationId);
  if (!row) throw notFound('Notification');
  await ctx.publish(CHANNELS.userNotifications(options.userId), [row.id]);
  return present(row);
};

/**
 * What other areas call to tell a user something: stored, announced on the user's channel, and mailed
 * when the user has email notifications on (the mail goes in the outbox in the notification's transaction).
 */
export const notifyUser = async (
  ctx: AppContext,
  userId: number,
  notification: { type: NotificationType; message: string; link?: string },
) => {
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await repo.insertNotification(tx, { userId, ...notification });
    const target = await repo.findMailTarget(tx, userId);
    if (inserted && target?.emailOn && target.email) {
      const text = renderNotificationText(notification.message);
      await ctx.mail.enqueue(tx, [
        {
          to: target.email,
          subject: `Media Cloud: ${text.slice(0, 80)}`,
          text: `Hello ${target.fullname || target.username},\n\n${text}\n${notification.link ? `\n${ctx.config.publicUrl}${notification.link}\n` : ''}`,
        },
      ]);
    }
    return inserted;
  });
  if (!row) return;
  await ctx.publish(CHANNELS.userNotifications(userId), [row.id]);
};

/**
 * Alerts every administrator of something about the whole installation (a full or unwritable media storage),
 * as a problem notification; one who still has the same one open is not told again.
 */
export const notifyAdministrators = async (
  ctx: AppContext,
  notification: { type: NotificationType; message: string; link?: string },
) => {
  for (const userId of await repo.findAdministratorIds(ctx.db))
    if (!(await repo.hasOpenNotification(ctx.db, userId, notification.message)))
      await notifyUser(ctx, userId, notification);
};

/** Notifies every user with access to an account. */
export const notifyAccountUsers = async (
  ctx: AppContext,
  accountId: number,
  notification: { type: NotificationType; message: string; link?: string },
) => {
  for (const userId of await repo.findAccountUserIds(ctx.db, accountId))
    await notifyUser(ctx, userId, notification);
};

export const getSettings = async (options: { ctx: AppContext; actor: Actor; userId: number }) => {
  await requireOwnerOrAdmin(options.ctx, options.actor, options.userId);
  return repo.findSettings(options.ctx.db, options.userId);
};

export const updateSettings = async (options: {
  ctx: AppContext;
  actor: Actor;
  userId: number;
  change: { add: { type: 'email' }[] } | { remove: { type: 'email' }[] };
}) => {
  const { ctx, change } = options;
  // Only the user themself changes their settings.
  if (options.actor.userId !== options.userId) throw forbidden();
  await ctx.db.transaction(async (tx) => {
    if ('add' in change)
      await repo.addSettings(
        tx,
        options.userId,
        change.add.map((s) => s.type),
      );
    else
      await repo.removeSettings(
        tx,
        options.userId,
        change.remove.map((s) => s.type),
      );
  });
  return repo.findSettings(ctx.db, options.userId);
};

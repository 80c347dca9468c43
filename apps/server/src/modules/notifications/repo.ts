import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accountAccess, managerGrants } from '../access/tables.ts';
import { users } from '../users/tables.ts';
import { notificationSettings, userNotifications } from './tables.ts';

type NotificationType = 'problem' | 'warning' | 'done' | 'info';

export const findOpenNotificationsPage = async (
  db: DbOrTx,
  userId: number,
  offset: number,
  limit: number,
) => {
  const where = and(eq(userNotifications.userId, userId), eq(userNotifications.status, 'new'));
  const rows = await db
    .select()
    .from(userNotifications)
    .where(where)
    .orderBy(desc(userNotifications.createdAt), desc(userNotifications.id))
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(userNotifications).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const acknowledge = async (db: DbOrTx, userId: number, id: number) => {
  const [row] = await db
    .update(userNotifications)
    .set({ status: 'acknowledged' })
    .where(and(eq(userNotifications.id, id), eq(userNotifications.userId, userId)))
    .returning();
  return row;
};

export const insertNotification = async (
  db: DbOrTx,
  notification: { userId: number; type: NotificationType; message: string; link?: string | null },
) => {
  const [row] = await db.insert(userNotifications).values(notification).returning();
  return row;
};

export const findSettings = async (db: DbOrTx, userId: number) =>
  db
    .select({ type: notificationSettings.type })
    .from(notificationSettings)
    .where(eq(notificationSettings.userId, userId));

export const addSettings = (db: DbOrTx, userId: number, types: 'email'[]) =>
  db
    .insert(notificationSettings)
    .values(types.map((type) => ({ userId, type })))
    .onConflictDoNothing();

export const removeSettings = async (db: DbOrTx, userId: number, types: 'email'[]) => {
  for (const type of types) {
    await db
      .delete(notificationSettings)
      .where(and(eq(notificationSettings.userId, userId), eq(notificationSettings.type, type)));
  }
};

export const findMailTarget = async (db: DbOrTx, userId: number) => {
  const [row] = await db
    .select({
      email: users.email,
      fullname: users.fullname,
      username: users.username,
      emailOn: notificationSettings.type,
    })
    .from(users)
    .leftJoin(
      notificationSettings,
      and(eq(notificationSettings.userId, users.id), eq(notificationSettings.type, 'email')),
    )
    .where(eq(users.id, userId));
  return row;
};

export const findAccountUserIds = async (db: DbOrTx, accountId: number) =>
  (
    await db
      .select({ userId: accountAccess.userId })
      .from(accountAccess)
      .where(eq(accountAccess.accountId, accountId))
  ).map((r) => r.userId);

/** The administrators (manager grant of scope admin). */
export const findAdministratorIds = async (db: DbOrTx) =>
  (
    await db
      .selectDistinct({ userId: managerGrants.userId })
      .from(managerGrants)
      .where(eq(managerGrants.scope, 'admin'))
  ).map((row) => row.userId);

/** Whether the user has a notification of this message not yet acknowledged. */
export const hasOpenNotification = async (db: DbOrTx, userId: number, message: string) => {
  const [row] = await db
    .select({ id: userNotifications.id })
    .from(userNotifications)
    .where(
      and(
        eq(userNotifications.userId, userId),
        eq(userNotifications.status, 'new'),
        eq(userNotifications.message, message),
      ),
    )
    .limit(1);
  return row !== undefined;
};

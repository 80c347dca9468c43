import { and, count, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { sessions } from '../auth/tables.ts';
import { users } from '../users/tables.ts';

/**
 * Live sessions opened in an account (launched into it), narrowed to the users the actor may manage
 * (`manageable`, undefined for all): never the sessions a user opened elsewhere.
 */
const ofAccount = (accountId: number, manageable: SQL | undefined) =>
  and(
    isNull(sessions.endedAt),
    gt(sessions.expiresAt, sql`now()`),
    eq(sessions.accountId, accountId),
    manageable,
  );

export const findAccountSessionsPage = async (
  db: DbOrTx,
  options: { accountId: number; manageable: SQL | undefined; idleSince: Date; offset: number; limit: number },
) => {
  const where = and(
    ofAccount(options.accountId, options.manageable),
    gt(sessions.lastSeenAt, options.idleSince),
  );
  const rows = await db
    .select({
      publicId: sessions.publicId,
      userId: sessions.userId,
      username: users.username,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      disconnectMessage: sessions.disconnectMessage,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(where)
    .orderBy(desc(sessions.lastSeenAt), sessions.publicId)
    .offset(options.offset)
    .limit(options.limit);
  const [total] = await db.select({ n: count() }).from(sessions).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findAccountSession = async (
  db: DbOrTx,
  options: { accountId: number; manageable: SQL | undefined; publicId: string },
) => {
  const [row] = await db
    .select({ publicId: sessions.publicId, userId: sessions.userId, username: users.username })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(ofAccount(options.accountId, options.manageable), eq(sessions.publicId, options.publicId)));
  return row;
};

/** A user's live sessions (not ended, not expired, not idle past the limit), most recently seen first. */
export const findUserSessions = async (db: DbOrTx, options: { userId: number; idleSince: Date }) =>
  db
    .select({
      idHash: sessions.idHash,
      publicId: sessions.publicId,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, options.userId),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql`now()`),
        gt(sessions.lastSeenAt, options.idleSince),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt), sessions.publicId);

/** One live session of a user, by its public id. */
export const findUserSession = async (db: DbOrTx, userId: number, publicId: string) => {
  const [row] = await db
    .select({ idHash: sessions.idHash, publicId: sessions.publicId })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.publicId, publicId), isNull(sessions.endedAt)));
  return row;
};

/** What entering the password again checks. */
export const findUserForReauth = async (db: DbOrTx, userId: number) => {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      mfaSecret: users.mfaSecret,
    })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.disabled, false)));
  return row;
};

import { and, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accountAccess } from '../access/tables.ts';
import { sessions } from '../auth/tables.ts';
import { users } from '../users/tables.ts';

/** Live sessions that concern an account: those of its users, and those that entered it. */
const ofAccount = (db: DbOrTx, accountId: number) =>
  and(
    isNull(sessions.endedAt),
    gt(sessions.expiresAt, sql`now()`),
    or(
      eq(sessions.accountId, accountId),
      inArray(
        sessions.userId,
        db
          .select({ id: accountAccess.userId })
          .from(accountAccess)
          .where(eq(accountAccess.accountId, accountId)),
      ),
    ),
  );

export const findAccountSessionsPage = async (
  db: DbOrTx,
  accountId: number,
  idleSince: Date,
  offset: number,
  limit: number,
) => {
  const where = and(ofAccount(db, accountId), gt(sessions.lastSeenAt, idleSince));
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
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(sessions).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findAccountSession = async (db: DbOrTx, accountId: number, publicId: string) => {
  const [row] = await db
    .select({ publicId: sessions.publicId, userId: sessions.userId, username: users.username })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(ofAccount(db, accountId), eq(sessions.publicId, publicId)));
  return row;
};

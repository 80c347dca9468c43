import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { sessions } from '../../modules/auth/tables.ts';
import { users } from '../../modules/users/tables.ts';
import type { Config } from '../config.ts';
import { randomToken, sha256 } from '../crypto.ts';
import type { Db, DbOrTx } from '../db/client.ts';

export const SESSION_COOKIE = 'sessionid';
/** lastSeenAt is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

export type ResolvedSession =
  | {
      ok: true;
      idHash: string;
      publicId: string;
      userId: number;
      username: string;
      /** The role this session acts as in the account it entered, when not the user's own. */
      acting: { accountId: number; roleId: number } | null;
    }
  | { ok: false; message?: string };

/** Sessions live in the database, so any instance serves any session. */
export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'sessionIdleMinutes' | 'sessionAbsoluteMinutes'>,
  ) {}

  async create(tx: DbOrTx, userId: number, ip: string, userAgent: string) {
    const sessionId = randomToken(32);
    const idHash = sha256(sessionId);
    const publicId = randomToken(12);
    const expiresAt = new Date(Date.now() + this.config.sessionAbsoluteMinutes * 60_000);
    await tx
      .insert(sessions)
      .values({ idHash, publicId, userId, ip, userAgent: userAgent.slice(0, 300), expiresAt });
    return { sessionId, idHash, publicId };
  }

  async resolve(sessionId: string): Promise<ResolvedSession> {
    const idHash = sha256(sessionId);
    const [row] = await this.db
      .select({
        publicId: sessions.publicId,
        userId: sessions.userId,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        endedAt: sessions.endedAt,
        disconnectMessage: sessions.disconnectMessage,
        accountId: sessions.accountId,
        actingRoleId: sessions.actingRoleId,
        username: users.username,
        disabled: users.disabled,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.idHash, idHash))
      .limit(1);
    if (!row) return { ok: false };
    if (row.endedAt) return { ok: false, message: row.disconnectMessage ?? undefined };
    const now = Date.now();
    const idleLimit = row.lastSeenAt.getTime() + this.config.sessionIdleMinutes * 60_000;
    if (row.disabled || row.expiresAt.getTime() <= now || idleLimit <= now) {
      await this.db.delete(sessions).where(eq(sessions.idHash, idHash));
      return { ok: false };
    }
    // A short idle limit needs more frequent writes, or a session in use would expire between them.
    const touchEvery = Math.min(TOUCH_INTERVAL_MS, (this.config.sessionIdleMinutes * 60_000) / 4);
    if (now - row.lastSeenAt.getTime() > touchEvery) {
      await this.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.idHash, idHash));
    }
    return {
      ok: true,
      idHash,
      publicId: row.publicId,
      userId: row.userId,
      username: row.username,
      acting:
        row.accountId !== null && row.actingRoleId !== null
          ? { accountId: row.accountId, roleId: row.actingRoleId }
          : null,
    };
  }

  async end(idHash: string) {
    await this.db.delete(sessions).where(eq(sessions.idHash, idHash));
  }

  /** Ends every other session of a user, as after a password change. */
  async endOthers(tx: DbOrTx, userId: number, keepIdHash?: string) {
    await tx
      .delete(sessions)
      .where(
        keepIdHash
          ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash))
          : eq(sessions.userId, userId),
      );
  }

  /** Ends a session by someone else's hand; its next call answers 401 with the message. */
  async disconnect(tx: DbOrTx, publicId: string, message: string) {
    const ended = await tx
      .update(sessions)
      .set({ endedAt: sql`now()`, disconnectMessage: message })
      .where(and(eq(sessions.publicId, publicId), isNull(sessions.endedAt)))
      .returning({ userId: sessions.userId });
    return ended.length > 0;
  }
}

import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { sessions } from '../../modules/auth/tables.ts';
import { users } from '../../modules/users/tables.ts';
import type { Config } from '../config.ts';
import { randomToken, sha256 } from '../crypto.ts';
import type { Db, DbOrTx } from '../db/client.ts';

export const SESSION_COOKIE = 'sessionid';
/** lastSeenAt is written at most this often per session, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;
/** Touches due are gathered this long and written in one statement, after the requests have answered. */
const TOUCH_FLUSH_MS = 1000;

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

/**
 * Sessions live in the database, so any instance serves any session. Resolving one is one query and
 * nothing is cached: an ended, expired or disabled user's session fails on its next request. The idle
 * clock (lastSeenAt) is written off the request's path: at most once a minute per session, batched.
 */
export class SessionStore {
  /** When this instance last saw each session it has written lastSeenAt for (or is about to). */
  private readonly touched = new Map<string, number>();
  /** Touches not yet written. */
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly touchEvery: number;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'sessionIdleMinutes' | 'sessionAbsoluteMinutes'>,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    // A short idle limit needs more frequent writes, or a session in use would expire between them.
    this.touchEvery = Math.min(TOUCH_INTERVAL_MS, (config.sessionIdleMinutes * 60_000) / 4);
  }

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
    // This instance's latest touch counts too: it may not be written yet.
    const lastSeen = Math.max(row.lastSeenAt.getTime(), this.touched.get(idHash) ?? 0);
    const idleLimit = lastSeen + this.config.sessionIdleMinutes * 60_000;
    if (row.disabled || row.expiresAt.getTime() <= now || idleLimit <= now) {
      this.touched.delete(idHash);
      await this.db.delete(sessions).where(eq(sessions.idHash, idHash));
      return { ok: false };
    }
    if (now - lastSeen > this.touchEvery) this.touch(idHash, now);
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

  /** Notes the session as seen; written with the others due within TOUCH_FLUSH_MS, nobody waits for it. */
  private touch(idHash: string, now: number) {
    this.touched.set(idHash, now);
    this.pending.set(idHash, now);
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(this.onError);
    }, TOUCH_FLUSH_MS);
    this.timer.unref();
  }

  /** Writes the touches due in one statement; one flush at a time. */
  async flush() {
    await this.flushing?.catch(() => {});
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size > 0) {
      const values = sql.join(
        [...batch].map(([idHash, seen]) => sql`(${idHash}, ${new Date(seen).toISOString()}::timestamptz)`),
        sql`, `,
      );
      this.flushing = this.db
        .execute(
          sql`update sessions as s set last_seen_at = v.seen
              from (values ${values}) as v(id_hash, seen)
              where s.id_hash = v.id_hash and s.last_seen_at < v.seen`,
        )
        .then(
          () => {},
          (error: unknown) => {
            // Not written: the next request of these sessions touches again.
            for (const idHash of batch.keys()) this.touched.delete(idHash);
            throw error;
          },
        );
      await this.flushing;
    }
    // Written touches stay only while they keep the next ones away.
    const forgetBefore = Date.now() - this.touchEvery;
    for (const [idHash, seen] of this.touched) if (seen < forgetBefore) this.touched.delete(idHash);
  }

  /** Writes what is pending and stops the timer (the app is closing; the database closes after). */
  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush().catch(this.onError);
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

import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { sessions } from '../../modules/auth/tables.ts';
import { users } from '../../modules/users/tables.ts';
import type { Config } from '../config.ts';
import { randomToken, sha256 } from '../crypto.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { type AuthEpoch, GenerationCache } from './auth-epoch.ts';

export const SESSION_COOKIE = 'sessionid';
/** lastSeenAt is written at most this often per session, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;
/** Touches due are gathered this long and written in one statement, after the requests have answered. */
const TOUCH_FLUSH_MS = 1000;

export type ResolvedSession =
  | {
      ok: true;
      idHash: string;
      /** The auth generation it was resolved in: the request's rights are cached in the same one. */
      generation: number;
      publicId: string;
      userId: number;
      username: string;
      /** When its user last proved who they are in it (sign-in or password again), in ms. */
      authenticatedAt: number;
      signedInWith: 'password' | 'oidc';
      /** The role this session acts as in the account it entered, when not the user's own. */
      acting: { accountId: number; roleId: number } | null;
    }
  | { ok: false; message?: string };

type SessionRow = {
  publicId: string;
  userId: number;
  lastSeenAt: Date;
  authenticatedAt: Date;
  signedInWith: 'password' | 'oidc';
  expiresAt: Date;
  endedAt: Date | null;
  disconnectMessage: string | null;
  accountId: number | null;
  actingRoleId: number | null;
  username: string;
  disabled: boolean;
};

/**
 * Sessions live in the database, so any instance serves any session. A session's row is cached for as long
 * as the auth epoch stands still (AuthEpoch: every end, disconnect, role switch, user change bumps it), so an
 * ended, expired or disabled user's session fails on its next request on any instance. The idle clock
 * (lastSeenAt) is written off the request's path: at most once a minute per session, batched.
 */
export class SessionStore {
  private readonly rows: GenerationCache<string, SessionRow>;
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
    private readonly epoch: AuthEpoch,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.rows = new GenerationCache(epoch);
    // A short idle limit needs more frequent writes, or a session in use would expire between them.
    this.touchEvery = Math.min(TOUCH_INTERVAL_MS, (config.sessionIdleMinutes * 60_000) / 4);
  }

  async create(
    tx: DbOrTx,
    userId: number,
    ip: string,
    userAgent: string,
    signedInWith: 'password' | 'oidc' = 'password',
  ) {
    const sessionId = randomToken(32);
    const idHash = sha256(sessionId);
    const publicId = randomToken(12);
    const expiresAt = new Date(Date.now() + this.config.sessionAbsoluteMinutes * 60_000);
    await tx
      .insert(sessions)
      .values({ idHash, publicId, userId, ip, userAgent: userAgent.slice(0, 300), expiresAt, signedInWith });
    return { sessionId, idHash, publicId };
  }

  /**
   * The session as this instance's cache answers it without waiting (the embedded database pushes the auth
   * epoch, so no read is due), or undefined: then `resolve` answers.
   */
  resolveCached(sessionId: string): ResolvedSession | undefined {
    const generation = this.epoch.known();
    return generation === undefined ? undefined : this.cachedAnswer(sha256(sessionId), generation);
  }

  async resolve(sessionId: string): Promise<ResolvedSession> {
    const idHash = sha256(sessionId);
    const generation = await this.epoch.current();
    const cached = this.cachedAnswer(idHash, generation);
    if (cached) return cached;
    const row = await this.read(idHash, generation);
    if (!row) return { ok: false };
    if (row.endedAt) return { ok: false, message: row.disconnectMessage ?? undefined };
    if (!this.admits(idHash, row)) {
      this.touched.delete(idHash);
      this.rows.delete(idHash);
      await this.db.delete(sessions).where(eq(sessions.idHash, idHash));
      return { ok: false };
    }
    return this.resolved(idHash, generation, row);
  }

  /** A cached row may lag another instance's activity: it only lets a session in; a fresh read ends one. */
  private cachedAnswer(idHash: string, generation: number) {
    const cached = this.rows.get(idHash, generation);
    return cached && this.admits(idHash, cached) ? this.resolved(idHash, generation, cached) : undefined;
  }

  private async read(idHash: string, generation: number) {
    const [row] = await this.db
      .select({
        publicId: sessions.publicId,
        userId: sessions.userId,
        lastSeenAt: sessions.lastSeenAt,
        authenticatedAt: sessions.authenticatedAt,
        signedInWith: sessions.signedInWith,
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
    if (row) this.rows.set(idHash, generation, row);
    return row;
  }

  /** Whether a session's row lets it in now: not ended, expired, idle too long, or of a disabled user. */
  private admits(idHash: string, row: SessionRow) {
    if (row.endedAt || row.disabled) return false;
    const now = Date.now();
    // This instance's latest touch counts too: it may not be written yet.
    const lastSeen = Math.max(row.lastSeenAt.getTime(), this.touched.get(idHash) ?? 0);
    return row.expiresAt.getTime() > now && lastSeen + this.config.sessionIdleMinutes * 60_000 > now;
  }

  /** The session a request acts in; its activity is noted (and kept in the cached row). */
  private resolved(idHash: string, generation: number, row: SessionRow): ResolvedSession {
    const now = Date.now();
    const lastSeen = Math.max(row.lastSeenAt.getTime(), this.touched.get(idHash) ?? 0);
    if (now - lastSeen > this.touchEvery) {
      this.touch(idHash, now);
      row.lastSeenAt = new Date(now);
    }
    return {
      ok: true,
      idHash,
      generation,
      publicId: row.publicId,
      userId: row.userId,
      username: row.username,
      authenticatedAt: row.authenticatedAt.getTime(),
      signedInWith: row.signedInWith,
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

  /**
   * Ends every live session of a user (all users: undefined) but the one kept, as `disconnect` does: each
   * answers its next call 401 with the message. Answers how many ended.
   */
  async disconnectAll(tx: DbOrTx, options: { userId?: number; keepIdHash?: string; message: string }) {
    const live = and(
      isNull(sessions.endedAt),
      options.userId === undefined ? undefined : eq(sessions.userId, options.userId),
      options.keepIdHash === undefined ? undefined : ne(sessions.idHash, options.keepIdHash),
    );
    // An update of no row still moves the auth epoch (a statement trigger), and with it every cache.
    const [any] = await tx.select({ idHash: sessions.idHash }).from(sessions).where(live).limit(1);
    if (!any) return 0;
    const ended = await tx
      .update(sessions)
      .set({ endedAt: sql`now()`, disconnectMessage: options.message })
      .where(live)
      .returning({ userId: sessions.userId });
    return ended.length;
  }

  /** The user proved who they are again in this session (ASVS 7.5.1): answers when. */
  async reauthenticated(idHash: string) {
    const [row] = await this.db
      .update(sessions)
      .set({ authenticatedAt: sql`now()` })
      .where(and(eq(sessions.idHash, idHash), isNull(sessions.endedAt)))
      .returning({ authenticatedAt: sessions.authenticatedAt });
    return row?.authenticatedAt;
  }
}

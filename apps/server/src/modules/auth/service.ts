import {
  CHANNELS,
  LOGIN_FAILURE_WINDOW_MINUTES,
  LOGIN_LOCK_MINUTES,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_USER,
  type Lockout,
  type LoginRequest,
  type LoginResult,
  type Me,
  MSG_LOGIN_INVALID,
  MSG_LOGIN_LOCKED,
  MSG_LOGIN_MFA_INVALID,
  MSG_LOGIN_MFA_REQUIRED,
  maxVideoResolution,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/password-hash.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import type { Publish } from '../../platform/live/publish.ts';
import { requireRight } from '../../platform/permissions.ts';
import { maxVideoValues } from '../accounts/repo.ts';
import { verifySecondFactor } from '../mfa/service.ts';
import { users } from '../users/tables.ts';
import * as repo from './repo.ts';

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

type LoginOutcome = { result: LoginResult; session?: { sessionId: string; idHash: string } };

const failure = (status: LoginResult['status'], error: string): LoginOutcome => ({
  result: { status, error },
});

/** Counts a failure for the user name and the address; locks whichever passed its limit. */
const countFailure = async (db: Db, publish: Publish, userKey: string, ip: string) => {
  const windowStart = minutesFromNow(-LOGIN_FAILURE_WINDOW_MINUTES);
  await repo.pruneStaleFailures(db, windowStart, new Date());
  const lockedUntil = minutesFromNow(LOGIN_LOCK_MINUTES);
  const userFailures = await repo.recordFailure(db, 'user', userKey, windowStart);
  const ipFailures = await repo.recordFailure(db, 'ip', ip, windowStart);
  let locked = false;
  if (userFailures >= LOGIN_MAX_FAILURES_PER_USER) {
    await repo.lock(db, 'user', userKey, lockedUntil);
    locked = true;
  }
  if (ipFailures >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
    await repo.lock(db, 'ip', ip, lockedUntil);
    locked = true;
  }
  if (locked) await publish(CHANNELS.loginLockouts, [`user:${userKey}`, `ip:${ip}`]);
  return locked;
};

export const login = async (
  options: { db: Db; publish: Publish; sessions: SessionStore; ip: string; userAgent: string } & LoginRequest,
): Promise<LoginOutcome> => {
  const { db, ip } = options;
  const user = await repo.findUserForLogin(db, options.username);
  // One key per user however they name themselves (user name or email), so the lock cannot be dodged.
  const userKey = (user?.username ?? options.username).trim().toLowerCase();
  const locks = await repo.findActiveLocks(
    db,
    [
      { kind: 'user', key: userKey },
      { kind: 'ip', key: ip },
    ],
    new Date(),
  );
  if (locks.length > 0) return failure('locked', MSG_LOGIN_LOCKED);

  const passwordOk = user
    ? await verifyPassword(user.passwordHash, options.password)
    : await burnPasswordCheck(options.password).then(() => false);
  if (!user || !passwordOk || user.disabled) {
    const locked = await countFailure(db, options.publish, userKey, ip);
    return locked ? failure('locked', MSG_LOGIN_LOCKED) : failure('invalid', MSG_LOGIN_INVALID);
  }
  if (user.mfaSecret) {
    if (!options.mfaCode) return failure('invalidmfa', MSG_LOGIN_MFA_REQUIRED);
    if (!(await verifySecondFactor(db, { id: user.id, mfaSecret: user.mfaSecret }, options.mfaCode))) {
      const locked = await countFailure(db, options.publish, userKey, ip);
      return locked ? failure('locked', MSG_LOGIN_LOCKED) : failure('invalidmfa', MSG_LOGIN_MFA_INVALID);
    }
  }
  await repo.clearFailures(db, 'user', userKey);
  const session = await options.sessions.create(db, user.id, ip, options.userAgent);
  return { result: { status: 'valid', error: '' }, session };
};

export const me = async (options: { db: Db; actor: Actor }): Promise<Me> => {
  const { db, actor } = options;
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      fullname: users.fullname,
      email: users.email,
      emailverified: users.emailverified,
      mfaSecret: users.mfaSecret,
    })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!user) throw notFound('User');
  const rights = await actor.rights();
  const { mfaSecret, ...rest } = user;
  const maxVideos = await maxVideoValues(db, rights.admin ? 'all' : [...rights.accounts]);
  return {
    ...rest,
    mfaEnabled: mfaSecret != null,
    editor: { maxVideo: maxVideoResolution(maxVideos) },
    rights: {
      // The spec's "admin list": non-empty for administrators.
      admin: rights.admin ? [0] : [],
      resellers: [...rights.resellers],
      siteGroups: [...rights.siteGroups],
      sites: [...rights.sites],
      accountManager: [...rights.accountManager],
      accounts: [...rights.accounts],
    },
  };
};

export const listLockouts = async (options: {
  db: Db;
  actor: Actor;
  offset: number;
  limit: number;
  sort: 'kind' | 'key' | 'failures' | 'lockedUntil';
  desc: '0' | '1';
}) => {
  await requireRight(options.db, options.actor, 'cloud.admin');
  const page = await repo.findLocksPage(options.db, {
    now: new Date(),
    offset: options.offset,
    limit: options.limit,
    sort: options.sort,
    descending: options.desc === '1',
  });
  const items: Lockout[] = page.rows.map((row) => ({
    kind: row.kind,
    key: row.key,
    failures: row.failures,
    lockedUntil: (row.lockedUntil ?? new Date()).toISOString(),
  }));
  return { items, total: page.total };
};

export const liftLockout = async (options: {
  db: Db;
  publish: Publish;
  actor: Actor;
  kind: repo.FailureKind;
  key: string;
}) => {
  await requireRight(options.db, options.actor, 'cloud.admin');
  const key = options.kind === 'user' ? options.key.trim().toLowerCase() : options.key;
  // Only a lock in force can be lifted; failures below the limit are not a lock.
  const removed = await repo.clearActiveLock(options.db, options.kind, key, new Date());
  if (removed === 0) throw notFound('Lock-out');
  await options.publish(CHANNELS.loginLockouts, [`${options.kind}:${key}`]);
};

/**
 * A wrong current password when changing it counts like a failed sign-in, so a stolen session cannot try
 * passwords without limit; answers whether the user or address is now locked.
 */
export const countPasswordFailure = (options: { db: Db; publish: Publish; username: string; ip: string }) =>
  countFailure(options.db, options.publish, options.username.trim().toLowerCase(), options.ip);

/** Whether sign-in (and password checks) are locked for this user name or address. */
export const isLockedOut = async (db: Db, username: string, ip: string) =>
  (
    await repo.findActiveLocks(
      db,
      [
        { kind: 'user', key: username.trim().toLowerCase() },
        { kind: 'ip', key: ip },
      ],
      new Date(),
    )
  ).length > 0;

import { isIPv6 } from 'node:net';
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
  MSG_PASSWORD_SIGN_IN_OFF,
  maxVideoResolution,
  userLockoutKey,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../platform/auth/actor.ts';
import { verifyPassword } from '../../platform/auth/password-hash.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import type { Publish } from '../../platform/live/publish.ts';
import { loadRights, requireRight } from '../access/service.ts';
import { maxVideoValues } from '../accounts/repo.ts';
import { verifySecondFactor } from '../mfa/service.ts';
import { users } from '../users/tables.ts';
import * as repo from './repo.ts';

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

type LoginOutcome = {
  result: LoginResult;
  session?: { sessionId: string; idHash: string };
  /** Who signed in (with the session), for the audit log. */
  user?: { id: number; name: string };
};

const failure = (status: LoginResult['status'], error: string): LoginOutcome => ({
  result: { status, error },
});

/**
 * The address failures count against: an IPv4 address as it is, an IPv6 address by its /64, since one
 * subscriber usually holds a whole /64 and could otherwise take a fresh address for every attempt.
 */
export const addressKey = (ip: string) => {
  const address = ip.split('%')[0] ?? ip; // without an IPv6 zone index
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const [head, tail] = address.split('::');
  const start = groupsOf(head);
  const end = groupsOf(tail);
  // A trailing dotted IPv4 part fills two groups.
  const endLength = end.length + (end.at(-1)?.includes('.') ? 1 : 0);
  const groups =
    tail === undefined ? start : [...start, ...Array(8 - start.length - endLength).fill('0'), ...end];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
};

type FailureKeys = { user: string; ip: string };

/**
 * What a sign-in's failures count against: the user at this address (so a stranger's failures never lock
 * the user out of another address), and the address whatever the user (so one address cannot try many).
 */
const failureKeys = (username: string, ip: string): FailureKeys => {
  const address = addressKey(ip);
  return { user: userLockoutKey(username, address), ip: address };
};

const isLocked = async (db: Db, keys: FailureKeys) =>
  (
    await repo.findActiveLocks(
      db,
      [
        { kind: 'user', key: keys.user },
        { kind: 'ip', key: keys.ip },
      ],
      new Date(),
    )
  ).length > 0;

/** An attempt counted before its check: its counts, and whether it is refused as locked. */
type Reservation = { locked: boolean; userFailures: number; ipFailures: number };

/**
 * Counts an attempt before its password is checked, so that attempts sent at once cannot all pass the
 * lock check before any of them is counted; one that did not fail is taken back. An attempt at a locked
 * key, or beyond a limit, is refused.
 */
const reserveAttempt = async (db: Db, keys: FailureKeys): Promise<Reservation> => {
  if (await isLocked(db, keys)) return { locked: true, userFailures: 0, ipFailures: 0 };
  const windowStart = minutesFromNow(-LOGIN_FAILURE_WINDOW_MINUTES);
  const userFailures = await repo.recordFailure(db, 'user', keys.user, windowStart);
  const ipFailures = await repo.recordFailure(db, 'ip', keys.ip, windowStart);
  return {
    locked: userFailures > LOGIN_MAX_FAILURES_PER_USER || ipFailures > LOGIN_MAX_FAILURES_PER_ADDRESS,
    userFailures,
    ipFailures,
  };
};

/** A failed attempt: locks whichever key reached its limit; answers whether it is now locked. */
const settleFailure = async (db: Db, publish: Publish, keys: FailureKeys, reservation: Reservation) => {
  const lockedUntil = minutesFromNow(LOGIN_LOCK_MINUTES);
  let locked = false;
  if (reservation.userFailures >= LOGIN_MAX_FAILURES_PER_USER) {
    await repo.lock(db, 'user', keys.user, lockedUntil);
    locked = true;
  }
  if (reservation.ipFailures >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
    await repo.lock(db, 'ip', keys.ip, lockedUntil);
    locked = true;
  }
  if (locked) await publish(CHANNELS.loginLockouts, [`user:${keys.user}`, `ip:${keys.ip}`]);
  return locked;
};

/**
 * An attempt that did not fail: taken back from both counts. On `success` the user's failures at this
 * address are forgotten; a right password still waiting for its second factor forgets nothing, else
 * sending it between wrong codes would allow guessing codes without end.
 */
const settleNotFailed = async (db: Db, keys: FailureKeys, success: boolean) => {
  if (success) await repo.clearFailures(db, 'user', keys.user);
  else await repo.takeBackFailure(db, 'user', keys.user);
  await repo.takeBackFailure(db, 'ip', keys.ip);
};

export const login = async (
  options: {
    db: Db;
    publish: Publish;
    sessions: SessionStore;
    /** PASSWORD_SIGN_IN: off, only administrators sign in with a password. */
    passwordSignIn: boolean;
    ip: string;
    userAgent: string;
  } & LoginRequest,
): Promise<LoginOutcome> => {
  const { db } = options;
  const user = await repo.findUserForLogin(db, options.username);
  // One key per user however they name themselves (user name or email), so the lock cannot be dodged.
  const keys = failureKeys(user?.username ?? options.username, options.ip);
  const reservation = await reserveAttempt(db, keys);
  // One password check for every attempt, against a dummy hash when the user has none: how long a refusal
  // takes tells neither whether the user exists, has a password, is disabled nor is locked.
  const passwordOk = await verifyPassword(user?.passwordHash, options.password);
  if (reservation.locked) return failure('locked', MSG_LOGIN_LOCKED);
  const refuse = async (status: 'invalid' | 'invalidmfa', error: string) =>
    (await settleFailure(db, options.publish, keys, reservation))
      ? failure('locked', MSG_LOGIN_LOCKED)
      : failure(status, error);
  if (!user || !passwordOk || user.disabled) return refuse('invalid', MSG_LOGIN_INVALID);
  if (!options.passwordSignIn && !(await loadRights(db, user.id)).admin) {
    await settleNotFailed(db, keys, false);
    return failure('invalid', MSG_PASSWORD_SIGN_IN_OFF);
  }
  if (user.mfaSecret) {
    if (!options.mfaCode) {
      await settleNotFailed(db, keys, false);
      return failure('invalidmfa', MSG_LOGIN_MFA_REQUIRED);
    }
    if (!(await verifySecondFactor(db, { id: user.id, mfaSecret: user.mfaSecret }, options.mfaCode))) {
      return refuse('invalidmfa', MSG_LOGIN_MFA_INVALID);
    }
  }
  await settleNotFailed(db, keys, true);
  const session = await options.sessions.create(db, user.id, options.ip, options.userAgent);
  return { result: { status: 'valid', error: '' }, session, user: { id: user.id, name: user.username } };
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
      passwordHash: users.passwordHash,
    })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!user) throw notFound('User');
  const rights = await actor.rights();
  const { mfaSecret, passwordHash, ...rest } = user;
  const maxVideos = await maxVideoValues(db, rights.admin ? 'all' : [...rights.accounts]);
  return {
    ...rest,
    mfaEnabled: mfaSecret != null,
    hasPassword: passwordHash != null,
    signedInWith: actor.signedInWith ?? 'token',
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
  const key = options.kind === 'user' ? options.key.trim().toLowerCase() : addressKey(options.key.trim());
  // Only a lock in force can be lifted; failures below the limit are not a lock. A user name alone lifts
  // that user's locks at every address.
  const removed = await repo.clearActiveLocks(
    options.db,
    options.kind,
    key,
    new Date(),
    options.kind === 'user' ? userLockoutKey(key, '') : undefined,
  );
  if (removed.length === 0) throw notFound('Lock-out');
  await options.publish(
    CHANNELS.loginLockouts,
    removed.map((removedKey) => `${options.kind}:${removedKey}`),
  );
};

/**
 * A password check other than sign-in (the current password when changing it), under the same lock-out as
 * signing in as that user from that address, so a stolen session cannot try passwords without limit.
 */
export const checkPasswordAttempt = async (options: {
  db: Db;
  publish: Publish;
  username: string;
  ip: string;
  check: () => Promise<boolean>;
}): Promise<'right' | 'wrong' | 'locked'> => {
  const keys = failureKeys(options.username, options.ip);
  const reservation = await reserveAttempt(options.db, keys);
  const right = await options.check();
  if (reservation.locked) return 'locked';
  if (right) {
    await settleNotFailed(options.db, keys, true);
    return 'right';
  }
  return (await settleFailure(options.db, options.publish, keys, reservation)) ? 'locked' : 'wrong';
};

/** How often failures whose window has passed are forgotten. */
export const LOGIN_FAILURE_PRUNE_INTERVAL_MS = 5 * 60_000;
const PRUNE_BATCH_ROWS = 1000;
const PRUNE_MAX_BATCHES = 20;

/** Forgets failures whose window has passed and whose lock has ended, in bounded batches; answers how many. */
export const pruneLoginFailures = async (db: Db) => {
  let pruned = 0;
  for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
    const windowStart = minutesFromNow(-LOGIN_FAILURE_WINDOW_MINUTES);
    const removed = await repo.pruneStaleFailures(db, windowStart, new Date(), PRUNE_BATCH_ROWS);
    pruned += removed;
    if (removed < PRUNE_BATCH_ROWS) break;
  }
  return pruned;
};

/**
 * Prunes on a timer, so that failures (one row per user name and address tried) never pile up, also when
 * nobody fails for a while; answers a stop function that waits for a running prune.
 */
export const startLoginFailurePruning = (db: Db, log: FastifyBaseLogger) => {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= pruneLoginFailures(db)
      .then(() => undefined)
      .catch((error: unknown) => log.warn({ err: error }, 'pruning failed sign-ins failed'))
      .finally(() => {
        running = undefined;
      });
  }, LOGIN_FAILURE_PRUNE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};

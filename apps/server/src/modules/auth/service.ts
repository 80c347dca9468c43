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

/** Counts a failure for the user at the address and for the address; locks whichever passed its limit. */
const countFailure = async (db: Db, publish: Publish, keys: FailureKeys) => {
  const windowStart = minutesFromNow(-LOGIN_FAILURE_WINDOW_MINUTES);
  const lockedUntil = minutesFromNow(LOGIN_LOCK_MINUTES);
  const userFailures = await repo.recordFailure(db, 'user', keys.user, windowStart);
  const ipFailures = await repo.recordFailure(db, 'ip', keys.ip, windowStart);
  let locked = false;
  if (userFailures >= LOGIN_MAX_FAILURES_PER_USER) {
    await repo.lock(db, 'user', keys.user, lockedUntil);
    locked = true;
  }
  if (ipFailures >= LOGIN_MAX_FAILURES_PER_ADDRESS) {
    await repo.lock(db, 'ip', keys.ip, lockedUntil);
    locked = true;
  }
  if (locked) await publish(CHANNELS.loginLockouts, [`user:${keys.user}`, `ip:${keys.ip}`]);
  return locked;
};

export const login = async (
  options: { db: Db; publish: Publish; sessions: SessionStore; ip: string; userAgent: string } & LoginRequest,
): Promise<LoginOutcome> => {
  const { db } = options;
  const user = await repo.findUserForLogin(db, options.username);
  // One key per user however they name themselves (user name or email), so the lock cannot be dodged.
  const keys = failureKeys(user?.username ?? options.username, options.ip);
  const locked = await isLocked(db, keys);
  // One password check for every attempt, against a dummy hash when the user has none: how long a refusal
  // takes tells neither whether the user exists, has a password, is disabled nor is locked.
  const passwordOk = await verifyPassword(user?.passwordHash, options.password);
  if (locked) return failure('locked', MSG_LOGIN_LOCKED);
  if (!user || !passwordOk || user.disabled) {
    return (await countFailure(db, options.publish, keys))
      ? failure('locked', MSG_LOGIN_LOCKED)
      : failure('invalid', MSG_LOGIN_INVALID);
  }
  if (user.mfaSecret) {
    if (!options.mfaCode) return failure('invalidmfa', MSG_LOGIN_MFA_REQUIRED);
    if (!(await verifySecondFactor(db, { id: user.id, mfaSecret: user.mfaSecret }, options.mfaCode))) {
      return (await countFailure(db, options.publish, keys))
        ? failure('locked', MSG_LOGIN_LOCKED)
        : failure('invalidmfa', MSG_LOGIN_MFA_INVALID);
    }
  }
  await repo.clearFailures(db, 'user', keys.user);
  const session = await options.sessions.create(db, user.id, options.ip, options.userAgent);
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
 * A wrong current password when changing it counts like a failed sign-in of that user at that address, so
 * a stolen session cannot try passwords without limit; answers whether the user or address is now locked.
 */
export const countPasswordFailure = (options: { db: Db; publish: Publish; username: string; ip: string }) =>
  countFailure(options.db, options.publish, failureKeys(options.username, options.ip));

/** Whether sign-in (and password checks) are locked for this user name at this address, or for the address. */
export const isLockedOut = (db: Db, username: string, ip: string) => isLocked(db, failureKeys(username, ip));

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

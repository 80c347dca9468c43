import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_USER,
  MSG_LOGIN_LOCKED,
  userLockoutKey,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loginFailures } from '../src/modules/auth/tables.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  type ErrorBody,
  eventually,
  freshAddress,
  login,
  sessionCookie,
  type TestApp,
  testDriver,
} from './harness.ts';

// Wrong passwords can be made slow to check, to hold attempts in flight at once.
const argon2 = vi.hoisted(() => ({ entered: 0, wrongDelayMs: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: async (...args: Parameters<typeof original.verify>) => {
      argon2.entered += 1;
      const right = await original.verify(...args);
      if (!right && argon2.wrongDelayMs)
        await new Promise((resolve) => setTimeout(resolve, argon2.wrongDelayMs));
      return right;
    },
  };
});

type LockoutsBody = { results: { kind: string; key: string; failures: number }[]; total: number };

const _minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe(`sign-in lock-out (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** Fails LOGIN_MAX_FAILURES_PER_USER times from one address; answers the statuses. */
  const failUntilLocked = async (username: string, address = freshAddress()) => {
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      statuses.push(
        (await login(t.client(), { username, password: 'Wrong-Passw0rd' }, address)).body.results.status,
      );
    }
    return statuses;
  };

  it('locks a user at one address after LOGIN_MAX_FAILURES_PER_USER failures from there', async () => {
    const user = await makeUser(t.ctx.db);
    const statuses = await failUntilLocked(user.username);
    expect(statuses).toEqual([...Array(LOGIN_MAX_FAILURES_PER_USER - 1).fill('invalid'), 'locked']);
  });

  it('lets nobody lock another user out: from a clean address the right password signs in, the admin’s too', async () => {
    const user = await makeUser(t.ctx.db);
    const attacker = freshAddress();
    await failUntilLocked(user.username, attacker);
    await failUntilLocked('admin', attacker);
    const body = { username: user.username, password: user.password as string };
    expect((await login(t.client(), body, attacker)).body.results.status).toBe('locked');
    const elsewhere = await login(t.client(), body);
    expect(elsewhere.body.results.status).toBe('valid');
    expect(sessionCookie(elsewhere)).toBeDefined();
    const admin = { username: 'admin', password: ADMIN_TEST_PASSWORD };
    expect((await login(t.client(), admin, attacker)).body.results).toEqual({
      status: 'locked',
      error: MSG_LOGIN_LOCKED,
    });
    expect((await login(t.client(), admin)).body.results.status).toBe('valid');
  });

  it('does not lock a user for failures spread over several addresses', async () => {
    const user = await makeUser(t.ctx.db);
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER + 1; i++) {
      statuses.push(
        (await login(t.client(), { username: user.username, password: 'Wrong-1' })).body.results.status,
      );
    }
    expect(statuses.every((s) => s === 'invalid')).toBe(true);
    const right = await login(t.client(), { username: user.username, password: user.password as string });
    expect(right.body.results.status).toBe('valid');
  });

  it('counts an attempt before checking it, so guesses sent at once cannot slip past the limit', async () => {
    const user = await makeUser(t.ctx.db);
    const address = freshAddress();
    const before = argon2.entered;
    argon2.wrongDelayMs = 1500;
    try {
      const guesses = Array.from({ length: 10 }, (_, i) =>
        login(t.client(), { username: user.username, password: `Wrong-${i}` }, address),
      );
      // Every guess has passed the lock check and is being checked: none has been answered yet.
      await eventually(() => argon2.entered - before >= 10);
      const right = await login(
        t.client(),
        { username: user.username, password: user.password as string },
        address,
      );
      expect(right.body.results.status).toBe('locked');
      const statuses = (await Promise.all(guesses)).map((r) => r.body.results.status);
      expect(statuses.filter((s) => s === 'invalid')).toHaveLength(LOGIN_MAX_FAILURES_PER_USER - 1);
    } finally {
      argon2.wrongDelayMs = 0;
    }
  });

  it('does not forget failed second-factor codes when the right password comes without a code', async () => {
    const secret = generateSecret();
    const user = await makeUser(t.ctx.db, { mfaSecret: secret });
    const address = freshAddress();
    const password = user.password as string;
    const wrongCode = String((Number(await generate({ secret })) + 1) % 1_000_000).padStart(6, '0');
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      if (i > 0) {
        const withoutCode = await login(t.client(), { username: user.username, password }, address);
        expect(withoutCode.body.results.status).toBe('invalidmfa');
      }
      const response = await login(
        t.client(),
        { username: user.username, password, mfaCode: wrongCode },
        address,
      );
      statuses.push(response.body.results.status);
    }
    expect(statuses).toEqual([...Array(LOGIN_MAX_FAILURES_PER_USER - 1).fill('invalidmfa'), 'locked']);
  });

  it('answers locked to the correct password from the locked address, and opens no session', async () => {
    const user = await makeUser(t.ctx.db);
    const address = freshAddress();
    await failUntilLocked(user.username, address);
    const client = t.client();
    const response = await login(
      client,
      { username: user.username, password: user.password as string },
      address,
    );
    expect(response.body.results).toEqual({ status: 'locked', error: MSG_LOGIN_LOCKED });
    expect(sessionCookie(response)).toBeUndefined();
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('counts failures by user name and by email address together, and locks both ways in', async () => {
    const user = await makeUser(t.ctx.db);
    const address = freshAddress();
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const username = i % 2 === 0 ? user.username : user.email;
      statuses.push(
        (await login(t.client(), { username, password: 'Wrong-Passw0rd' }, address)).body.results.status,
      );
    }
    expect(statuses.at(-1)).toBe('locked');
    for (const username of [user.email, user.username.toUpperCase()]) {
      const response = await login(t.client(), { username, password: user.password as string }, address);
      expect(response.body.results.status, username).toBe('locked');
    }
  });

  it('forgets the failures of a user who then signs in successfully from that address', async () => {
    const user = await makeUser(t.ctx.db);
    const address = freshAddress();
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER - 1; i++) {
      await login(t.client(), { username: user.username, password: 'Wrong-Passw0rd' }, address);
    }
    const right = { username: user.username, password: user.password as string };
    expect((await login(t.client(), right, address)).body.results.status).toBe('valid');
    const after = await login(t.client(), { username: user.username, password: 'Wrong-Passw0rd' }, address);
    expect(after.body.results.status).toBe('invalid');
  });

  it('locks a client address after LOGIN_MAX_FAILURES_PER_ADDRESS failures with different user names', async () => {
    const address = freshAddress();
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      const response = await login(t.client(), { username: `ghost-${i}`, password: 'Nope-1234' }, address);
      statuses.push(response.body.results.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 'invalid')).toBe(true);
    expect(statuses.at(-1)).toBe('locked');
    const user = await makeUser(t.ctx.db);
    const fromThere = await login(
      t.client(),
      { username: user.username, password: user.password as string },
      address,
    );
    expect(fromThere.body.results).toEqual({ status: 'locked', error: MSG_LOGIN_LOCKED });
    const elsewhere = await login(t.client(), { username: user.username, password: user.password as string });
    expect(elsewhere.body.results.status).toBe('valid');
  });

  it('counts an IPv6 client by its /64, so fresh addresses of one network do not give fresh tries', async () => {
    const user = await makeUser(t.ctx.db);
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const address = `2001:db8:7:${i === 0 ? '0' : '0000'}:${(i + 1).toString(16)}::${i}`;
      statuses.push(
        (await login(t.client(), { username: user.username, password: 'Wrong-1' }, address)).body.results
          .status,
      );
    }
    expect(statuses.at(-1)).toBe('locked');
    const rows = await t.ctx.db
      .select({ key: loginFailures.key })
      .from(loginFailures)
      .where(eq(loginFailures.key, userLockoutKey(user.username, '2001:db8:7:0::/64')));
    expect(rows).toHaveLength(1);
    const right = { username: user.username, password: user.password as string };
    expect((await login(t.client(), right, '2001:db8:7::99')).body.results.status).toBe('locked');
    expect((await login(t.client(), right, '2001:db8:8::1')).body.results.status).toBe('valid');
  });

  it('lets an administrator see and lift a user lock, after which the user signs in from there', async () => {
    const user = await makeUser(t.ctx.db);
    const address = freshAddress();
    await failUntilLocked(user.username, address);
    const key = userLockoutKey(user.username, address);
    expect(key).toBe(`${user.username.toLowerCase()} from ${address}`);
    const admin = await t.admin();
    const list = await admin.get<LockoutsBody & { channel: string }>('/api/loginLockouts?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.results).toContainEqual(
      expect.objectContaining({ kind: 'user', key, failures: LOGIN_MAX_FAILURES_PER_USER }),
    );
    const lifted = await admin.post<{ results: { ok: boolean } }>('/api/loginLockouts/lift', {
      kind: 'user',
      key,
    });
    expect(lifted.status).toBe(200);
    const after = await admin.get<LockoutsBody>('/api/loginLockouts?limit=100');
    expect(after.body.results.map((r) => r.key)).not.toContain(key);
    const signIn = await login(
      t.client(),
      { username: user.username, password: user.password as string },
      address,
    );
    expect(signIn.body.results.status).toBe('valid');
    const again = await admin.post<ErrorBody>('/api/loginLockouts/lift', { kind: 'user', key });
    expect(again.status).toBe(404);
  });

  it('lifts a user’s locks at every address when an administrator gives the user name alone', async () => {
    const user = await makeUser(t.ctx.db);
    const [first, second] = [freshAddress(), freshAddress()];
    await failUntilLocked(user.username, first);
    await failUntilLocked(user.username, second);
    const bystander = await makeUser(t.ctx.db);
    await failUntilLocked(bystander.username, first);
    const admin = await t.admin();
    expect((await admin.post('/api/loginLockouts/lift', { kind: 'user', key: user.username })).status).toBe(
      200,
    );
    const right = { username: user.username, password: user.password as string };
    expect((await login(t.client(), right, first)).body.results.status).toBe('valid');
    expect((await login(t.client(), right, second)).body.results.status).toBe('valid');
    const stillLocked = { username: bystander.username, password: bystander.password as string };
    expect((await login(t.client(), stillLocked, first)).body.results.status).toBe('locked');
  });

  it('lets an administrator lift an address lock', async () => {
    const address = freshAddress();
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      await login(t.client(), { username: `phantom-${i}`, password: 'Nope-1234' }, address);
    }
    const user = await makeUser(t.ctx.db);
    const body = { username: user.username, password: user.password as string };
    expect((await login(t.client(), body, address)).body.results.status).toBe('locked');
    const admin = await t.admin();
    expect((await admin.post('/api/loginLockouts/lift', { kind: 'ip', key: address })).status).toBe(200);
    expect((await login(t.client(), body, address)).body.results.status).toBe('valid');
  });

  it('refuses lifting with 400 for a bad body, 401 signed out, 403 for a non-administrator, 404 for no such lock', async () => {
    const locked = await makeUser(t.ctx.db);
    const address = freshAddress();
    await failUntilLocked(locked.username, address);
    const admin = await t.admin();
    for (const bad of [
      { kind: 'planet', key: 'x' },
      { kind: 'user' },
      { kind: 'user', key: '' },
      { kind: 'user', key: 'x', extra: 1 },
    ]) {
      const response = await admin.post<ErrorBody>('/api/loginLockouts/lift', bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.error.code).toBe('validation');
    }
    expect(
      (await t.client().post<ErrorBody>('/api/loginLockouts/lift', { kind: 'user', key: locked.username }))
        .status,
    ).toBe(401);
    expect((await t.client().get('/api/loginLockouts')).status).toBe(401);

    const plain = await makeUser(t.ctx.db);
    const plainClient = await t.client().signIn(plain.username, plain.password as string);
    const forbidden = await plainClient.post<ErrorBody>('/api/loginLockouts/lift', {
      kind: 'user',
      key: locked.username,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
    expect((await plainClient.get('/api/loginLockouts')).status).toBe(403);
    // Still locked after the refused calls.
    expect(
      (await login(t.client(), { username: locked.username, password: locked.password as string }, address))
        .body.results.status,
    ).toBe('locked');

    const unknown = await admin.post<ErrorBody>('/api/loginLockouts/lift', {
      kind: 'user',
      key: 'never-locked-at-all',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('answers 404 when lifting a user whose failures are below the limit: that is not a lock', async () => {
    const user = await makeUser(t.ctx.db);
    await login(t.client(), { username: user.username, password: 'Wrong-Passw0rd' });
    const admin = await t.admin();
    expect((await admin.post('/api/loginLockouts/lift', { kind: 'user', key: user.username })).status).toBe(
      404,
    );
  });
});

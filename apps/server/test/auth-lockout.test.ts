import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_USER,
  MSG_LOGIN_LOCKED,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  freshAddress,
  login,
  sessionCookie,
  type TestApp,
  testDriver,
} from './harness.ts';

type LockoutsBody = { results: { kind: string; key: string; failures: number }[]; total: number };

describe(`sign-in lock-out (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const failUntilLocked = async (username: string, addresses: () => string = freshAddress) => {
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      statuses.push(
        (await login(t.client(), { username, password: 'Wrong-Passw0rd' }, addresses())).body.results.status,
      );
    }
    return statuses;
  };

  it('locks a user after LOGIN_MAX_FAILURES_PER_USER failures, from whatever addresses', async () => {
    const user = await makeUser(t.ctx.db);
    const statuses = await failUntilLocked(user.username);
    expect(statuses).toEqual([...Array(LOGIN_MAX_FAILURES_PER_USER - 1).fill('invalid'), 'locked']);
  });

  it('answers locked to the correct password while locked, and opens no session', async () => {
    const user = await makeUser(t.ctx.db);
    await failUntilLocked(user.username);
    const client = t.client();
    const response = await login(client, { username: user.username, password: user.password as string });
    expect(response.body.results).toEqual({ status: 'locked', error: MSG_LOGIN_LOCKED });
    expect(sessionCookie(response)).toBeUndefined();
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('counts failures by user name and by email address together, and locks both ways in', async () => {
    const user = await makeUser(t.ctx.db);
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const username = i % 2 === 0 ? user.username : user.email;
      statuses.push((await login(t.client(), { username, password: 'Wrong-Passw0rd' })).body.results.status);
    }
    expect(statuses.at(-1)).toBe('locked');
    for (const username of [user.email, user.username.toUpperCase()]) {
      const response = await login(t.client(), { username, password: user.password as string });
      expect(response.body.results.status, username).toBe('locked');
    }
  });

  it('forgets the failures of a user who then signs in successfully', async () => {
    const user = await makeUser(t.ctx.db);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER - 1; i++) {
      await login(t.client(), { username: user.username, password: 'Wrong-Passw0rd' });
    }
    expect(
      (await login(t.client(), { username: user.username, password: user.password as string })).body.results
        .status,
    ).toBe('valid');
    const after = await login(t.client(), { username: user.username, password: 'Wrong-Passw0rd' });
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

  it('lets an administrator see and lift a user lock, after which the user signs in', async () => {
    const user = await makeUser(t.ctx.db);
    await failUntilLocked(user.username);
    const admin = await t.admin();
    const list = await admin.get<LockoutsBody & { channel: string }>('/api/loginLockouts?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.results).toContainEqual(
      expect.objectContaining({
        kind: 'user',
        key: user.username.toLowerCase(),
        failures: LOGIN_MAX_FAILURES_PER_USER,
      }),
    );
    const lifted = await admin.post<{ results: { ok: boolean } }>('/api/loginLockouts/lift', {
      kind: 'user',
      key: user.username,
    });
    expect(lifted.status).toBe(200);
    const after = await admin.get<LockoutsBody>('/api/loginLockouts?limit=100');
    expect(after.body.results.map((r) => r.key)).not.toContain(user.username.toLowerCase());
    const signIn = await login(t.client(), { username: user.username, password: user.password as string });
    expect(signIn.body.results.status).toBe('valid');
    const again = await admin.post<ErrorBody>('/api/loginLockouts/lift', {
      kind: 'user',
      key: user.username,
    });
    expect(again.status).toBe(404);
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
    await failUntilLocked(locked.username);
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
      (await login(t.client(), { username: locked.username, password: locked.password as string })).body
        .results.status,
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

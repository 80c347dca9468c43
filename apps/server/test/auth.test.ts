import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_USER,
  MSG_LOGIN_INVALID,
  MSG_LOGIN_LOCKED,
} from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/modules/auth/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  type TestApp,
  type TestClient,
  type TestResponse,
  testDriver,
} from './harness.ts';

type LoginBody = { results: { status: string; error: string } };
type ErrorBody = { error: { code: string; message: string; fields?: Record<string, string> } };
type MeBody = {
  results: { id: number; username: string; mfaEnabled: boolean; rights: Record<string, number[]> };
};
type LockoutsBody = { results: { kind: string; key: string; failures: number }[]; total: number };

let addressCounter = 0;
/** A client address no other test uses, so failures from one test never lock another. */
const freshAddress = () => {
  addressCounter += 1;
  return `10.${Math.floor(addressCounter / 250)}.${addressCounter % 250}.7`;
};

const login = (
  client: TestClient,
  body: { username: string; password: string; mfaCode?: string },
  remoteAddress = freshAddress(),
) => client.post<LoginBody>('/api/login', body, { remoteAddress });

const sessionCookie = (response: TestResponse) => response.raw.cookies.find((c) => c.name === 'sessionid');

describe(`sign-in (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers valid and sets an httpOnly, SameSite=Lax session cookie, not Secure over plain HTTP', async () => {
    const user = await makeUser(t.ctx.db);
    const client = t.client();
    const response = await login(client, { username: user.username, password: user.password as string });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual({ status: 'valid', error: '' });
    const cookie = sessionCookie(response);
    expect(cookie?.value).toBeTruthy();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.secure).toBeFalsy();
    const me = await client.get<MeBody>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.id).toBe(user.id);
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY: the cookie is not Secure', async () => {
    const response = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    expect(response.body.results.status).toBe('valid');
    expect(sessionCookie(response)?.secure).toBeFalsy();
  });

  it('signs in by email address, in any case', async () => {
    const user = await makeUser(t.ctx.db);
    const client = t.client();
    const response = await login(client, {
      username: user.email.toUpperCase(),
      password: user.password as string,
    });
    expect(response.body.results.status).toBe('valid');
    expect((await client.get<MeBody>('/api/me')).body.results.username).toBe(user.username);
  });

  it('answers invalid with the error text for a wrong password, and opens no session', async () => {
    const user = await makeUser(t.ctx.db);
    const client = t.client();
    const response = await login(client, { username: user.username, password: `${user.password}x` });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual({ status: 'invalid', error: MSG_LOGIN_INVALID });
    expect(sessionCookie(response)).toBeUndefined();
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('answers an unknown user exactly as a wrong password', async () => {
    const client = t.client();
    const response = await login(client, { username: 'no-such-user-anywhere', password: 'Whatever1' });
    expect(response.body.results).toEqual({ status: 'invalid', error: MSG_LOGIN_INVALID });
    expect(sessionCookie(response)).toBeUndefined();
  });

  it('answers invalid for a disabled user, even with the right password', async () => {
    const user = await makeUser(t.ctx.db, { disabled: true });
    const client = t.client();
    const response = await login(client, { username: user.username, password: user.password as string });
    expect(response.body.results).toEqual({ status: 'invalid', error: MSG_LOGIN_INVALID });
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('does not sign a blank user name in as a user without an email address', async () => {
    // `admin` has no email address either.
    const user = await makeUser(t.ctx.db, { email: '' });
    for (const password of [ADMIN_TEST_PASSWORD, user.password as string]) {
      const response = await login(t.client(), { username: '   ', password });
      expect(response.body.results.status).toBe('invalid');
    }
  });

  it('refuses a bad sign-in body with 400 and opens no session', async () => {
    const client = t.client();
    const missing = await client.post<ErrorBody>('/api/login', { username: 'admin' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation');
    const extra = await client.post<ErrorBody>('/api/login', {
      username: 'admin',
      password: ADMIN_TEST_PASSWORD,
      rememberMe: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields?.rememberMe).toBe('Unknown field');
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('replaces the session at sign-in: a new session id, and a new anti-forgery token bound to it', async () => {
    const user = await makeUser(t.ctx.db);
    const client = t.client();
    await client.get('/api/passwordRules');
    const anonymousToken = client.csrfToken as string;
    expect(anonymousToken).toBeTruthy();

    await client.signIn(user.username, user.password as string);
    const firstSession = client.cookies.get('sessionid') as string;
    const firstToken = client.csrfToken as string;
    expect(firstToken).not.toBe(anonymousToken);

    await client.signIn(user.username, user.password as string);
    const secondSession = client.cookies.get('sessionid') as string;
    const secondToken = client.csrfToken as string;
    expect(secondSession).not.toBe(firstSession);
    expect(secondToken).not.toBe(firstToken);

    // The replaced session is gone.
    const replay = t.client();
    replay.cookies.set('sessionid', firstSession);
    expect((await replay.get('/api/me')).status).toBe(401);

    // Tokens from before sign-in or from the replaced session no longer pass with the new session.
    for (const stale of [anonymousToken, firstToken]) {
      client.cookies.set('csrftoken', stale);
      const refused = await client.post<ErrorBody>('/api/logout');
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('csrf');
    }
    // Nor does the new token work with another session of the same user.
    const other = await t.client().signIn(user.username, user.password as string);
    other.cookies.set('csrftoken', secondToken);
    expect((await other.post<ErrorBody>('/api/logout')).status).toBe(403);

    client.cookies.set('csrftoken', secondToken);
    expect((await client.post('/api/logout')).status).toBe(200);
  });

  it('ends the session at sign-out: the next GET /api/me answers 401, also with the old cookie', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const old = client.cookies.get('sessionid') as string;
    expect((await client.get('/api/me')).status).toBe(200);
    const out = await client.post<{ results: { ok: boolean } }>('/api/logout');
    expect(out.status).toBe(200);
    expect(out.body.results.ok).toBe(true);
    expect(client.cookies.has('sessionid')).toBe(false);
    expect((await client.get('/api/me')).status).toBe(401);
    const replay = t.client();
    replay.cookies.set('sessionid', old);
    const refused = await replay.get<ErrorBody>('/api/me');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('unauthenticated');
  });

  it('answers the rights of an administrator in GET /api/me: a non-empty admin list', async () => {
    const admin = await t.admin();
    const me = await admin.get<MeBody>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.username).toBe('admin');
    expect(me.body.results.rights.admin?.length).toBeGreaterThan(0);
  });

  it('answers the rights of an account manager in GET /api/me, and of a plain account user', async () => {
    const account = await makeAccount(t.ctx.db);
    const manager = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, manager.id, account.id, 'Account Manager');
    const editor = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, editor.id, account.id, 'Editor');

    const managerMe = await (
      await t.client().signIn(manager.username, manager.password as string)
    ).get<MeBody>('/api/me');
    expect(managerMe.body.results.rights.admin).toEqual([]);
    expect(managerMe.body.results.rights.accountManager).toContain(account.id);
    expect(managerMe.body.results.rights.accounts).toContain(account.id);
    expect(managerMe.body.results.mfaEnabled).toBe(false);

    const editorMe = await (await t.client().signIn(editor.username, editor.password as string)).get<MeBody>(
      '/api/me',
    );
    expect(editorMe.body.results.rights.accountManager).not.toContain(account.id);
    expect(editorMe.body.results.rights.accounts).toContain(account.id);
    expect(editorMe.body.results.rights.admin).toEqual([]);
  });

  it("ends a disabled user's sessions at once", async () => {
    const user = await makeUser(t.ctx.db);
    const first = await t.client().signIn(user.username, user.password as string);
    const second = await t.client().signIn(user.username, user.password as string);
    expect((await first.get('/api/me')).status).toBe(200);
    await t.ctx.db.update(users).set({ disabled: true }).where(eq(users.id, user.id));
    expect((await first.get('/api/me')).status).toBe(401);
    expect((await second.get('/api/me')).status).toBe(401);
    await t.ctx.db.update(users).set({ disabled: false }).where(eq(users.id, user.id));
    expect((await second.get('/api/me')).status).toBe(401);
  });
});

describe(`sign-in behind a trusted proxy (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('marks the session cookie Secure when the proxy says the request came over HTTPS', async () => {
    const response = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    expect(response.body.results.status).toBe('valid');
    expect(sessionCookie(response)?.secure).toBe(true);
    expect(sessionCookie(response)?.httpOnly).toBe(true);
  });

  it('does not mark it Secure when the proxy says plain HTTP', async () => {
    const response = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { headers: { 'x-forwarded-proto': 'http' } },
      );
    expect(response.body.results.status).toBe('valid');
    expect(sessionCookie(response)?.secure).toBeFalsy();
  });
});

describe(`session expiry (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SESSION_IDLE_MINUTES: '1' });
  });
  afterAll(() => t.close());

  /** Moves a user's session timestamps back, as if that much time had passed. */
  const age = (userId: number, column: 'lastSeenAt' | 'expiresAt', seconds: number) =>
    t.ctx.db
      .update(sessions)
      .set({ [column]: sql`${sessions[column]} - make_interval(secs => ${seconds})` })
      .where(eq(sessions.userId, userId));

  it('ends a session idle for longer than SESSION_IDLE_MINUTES', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    expect((await client.get('/api/me')).status).toBe(200);
    await age(user.id, 'lastSeenAt', 2 * 60);
    const response = await client.get<ErrorBody>('/api/me');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthenticated');
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });

  it('keeps a session in use: each call counts as activity for the idle limit', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    for (let step = 0; step < 3; step++) {
      await age(user.id, 'lastSeenAt', 40);
      expect((await client.get('/api/me')).status, `after ${(step + 1) * 40} s in use`).toBe(200);
    }
  });

  it('ends a session past its absolute limit, even when in use', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    await t.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await client.get('/api/me')).status).toBe(401);
  });
});

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

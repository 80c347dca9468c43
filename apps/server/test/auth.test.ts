import { MSG_LOGIN_INVALID } from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/modules/auth/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  type ErrorBody,
  type LoginBody,
  login,
  sessionCookie,
  type TestApp,
  testDriver,
} from './harness.ts';

type MeBody = {
  results: { id: number; username: string; mfaEnabled: boolean; rights: Record<string, number[]> };
};

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

  /**
   * Moves a user's session timestamps back, as if that much time had passed. The instance keeps the sessions
   * it serves (and their last activity) in memory; time that passed without it is announced to it as a change
   * of the session (account_id set to itself bumps the auth epoch, migration 0024).
   */
  const age = (userId: number, column: 'lastSeenAt' | 'expiresAt', seconds: number) =>
    t.ctx.db
      .update(sessions)
      .set({
        [column]: sql`${sessions[column]} - make_interval(secs => ${seconds})`,
        accountId: sql`${sessions.accountId}`,
      })
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

import { LOGIN_MAX_FAILURES_PER_ADDRESS, LOGIN_MAX_FAILURES_PER_USER } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures, sessions } from '../src/modules/auth/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
import { ADMIN_TEST_PASSWORD, buildTestApp, type ErrorBody, type TestApp, testDriver } from './harness.ts';

type LoginBody = { results: { status: string; error: string } };

describe(`sign-in and sessions (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers valid and sets an httpOnly SameSite=Lax session cookie, not Secure over plain HTTP', async () => {
    const client = t.client();
    const response = await client.post<LoginBody>('/api/login', {
      username: 'admin',
      password: ADMIN_TEST_PASSWORD,
    });
    expect(response.body.results).toEqual({ status: 'valid', error: '' });
    const cookie = response.raw.cookies.find((c) => c.name === 'sessionid');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.secure).toBeFalsy();
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it('signs in by email address too', async () => {
    const user = await makeUser(t.ctx.db);
    const response = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.email.toUpperCase(), password: user.password });
    expect(response.body.results.status).toBe('valid');
  });

  it('refuses a sign-in by an identifier that names two users; each signs in by an unambiguous one', async () => {
    // Made before user names and emails were kept apart: one user's user name is another's email.
    const victim = await makeUser(t.ctx.db, { email: 'signin.victim@example.com' });
    const renamed = await makeUser(t.ctx.db, {
      username: 'Signin.Victim@example.com',
      email: 'signin.taker@example.com',
      password: 'Taker-Passw0rd',
    });
    for (const password of [victim.password, renamed.password] as string[]) {
      const response = await t
        .client()
        .post<LoginBody>('/api/login', { username: victim.email, password }, { remoteAddress: '10.8.0.1' });
      expect(response.body.results).toEqual({ status: 'invalid', error: 'Invalid username or password' });
    }
    const byName = await t
      .client()
      .post<LoginBody>('/api/login', { username: victim.username, password: victim.password });
    expect(byName.body.results.status).toBe('valid');
    const byEmail = await t
      .client()
      .post<LoginBody>('/api/login', { username: renamed.email, password: renamed.password });
    expect(byEmail.body.results.status).toBe('valid');
  });

  it('answers invalid with the error text for a wrong password, an unknown user and a disabled user', async () => {
    const disabled = await makeUser(t.ctx.db, { disabled: true });
    const attempts: [string, string][] = [
      ['admin', 'wrong'],
      ['nobody-here', 'whatever'],
      [disabled.username, disabled.password as string],
    ];
    for (const [username, password] of attempts) {
      const client = t.client();
      const response = await client.post<LoginBody>(
        '/api/login',
        { username, password },
        { remoteAddress: `10.9.0.${username.length}` },
      );
      expect(response.body.results).toEqual({ status: 'invalid', error: 'Invalid username or password' });
      expect(client.cookies.has('sessionid')).toBe(false);
    }
  });

  it('replaces the session and the anti-forgery token at sign-in', async () => {
    const client = await t.admin();
    const firstSession = client.cookies.get('sessionid');
    const firstToken = client.csrfToken;
    await client.signIn('admin', ADMIN_TEST_PASSWORD);
    expect(client.cookies.get('sessionid')).not.toBe(firstSession);
    expect(client.csrfToken).not.toBe(firstToken);
    const old = t.client();
    old.cookies.set('sessionid', firstSession as string);
    expect((await old.get('/api/me')).status).toBe(401);
  });

  it('marks the cookie Secure behind a trusted proxy that says HTTPS, and ignores the header otherwise', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: '1' });
    try {
      const response = await proxied
        .client()
        .post(
          '/api/login',
          { username: 'admin', password: ADMIN_TEST_PASSWORD },
          { headers: { 'x-forwarded-proto': 'https' } },
        );
      expect(response.raw.cookies.find((c) => c.name === 'sessionid')?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
    const direct = await t
      .client()
      .post(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    expect(direct.raw.cookies.find((c) => c.name === 'sessionid')?.secure).toBeFalsy();
  });

  it('ends the session at sign-out', async () => {
    const client = await t.admin();
    expect((await client.post('/api/logout')).status).toBe(200);
    expect(client.cookies.has('sessionid')).toBe(false);
    expect((await client.get('/api/me')).status).toBe(401);
  });

  it('reports the rights of an account manager in GET /api/me', async () => {
    const account = await makeAccount(t.ctx.db);
    const user = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, user.id, account.id, 'Account Manager');
    const client = await t.client().signIn(user.username, user.password as string);
    const me = await client.get<{
      results: { username: string; mfaEnabled: boolean; rights: Record<string, number[]> };
    }>('/api/me');
    expect(me.body.results.username).toBe(user.username);
    expect(me.body.results.mfaEnabled).toBe(false);
    expect(me.body.results.rights.accountManager).toEqual([account.id]);
    expect(me.body.results.rights.admin).toEqual([]);
    const admin = await (await t.admin()).get<{ results: { rights: { admin: number[] } } }>('/api/me');
    expect(admin.body.results.rights.admin.length).toBeGreaterThan(0);
  });

  it('ends a session that was idle too long, one past its absolute limit, and those of a disabled user', async () => {
    const db = t.ctx.db;
    const idle = await makeUser(db);
    const idleClient = await t.client().signIn(idle.username, idle.password as string);
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 9 * 3_600_000) })
      .where(eq(sessions.userId, idle.id));
    expect((await idleClient.get('/api/me')).status).toBe(401);

    const old = await makeUser(db);
    const oldClient = await t.client().signIn(old.username, old.password as string);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, old.id));
    expect((await oldClient.get('/api/me')).status).toBe(401);

    const disabled = await makeUser(db);
    const disabledClient = await t.client().signIn(disabled.username, disabled.password as string);
    expect((await disabledClient.get('/api/me')).status).toBe(200);
    await db.update(users).set({ disabled: true }).where(eq(users.id, disabled.id));
    expect((await disabledClient.get('/api/me')).status).toBe(401);
  });

  it('stores only a hash of the session id', async () => {
    const client = await t.admin();
    const raw = client.cookies.get('sessionid') as string;
    const rows = await t.ctx.db.select({ idHash: sessions.idHash }).from(sessions);
    expect(rows.some((r) => r.idHash === raw)).toBe(false);
    expect(raw.length).toBeGreaterThanOrEqual(22);
  });
});

describe(`sign-in lock-out (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('locks a user at an address after repeated wrong passwords, even for the right one, until an administrator lifts it', async () => {
    const user = await makeUser(t.ctx.db);
    const address = '10.1.0.1';
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const r = await t
        .client()
        .post<LoginBody>(
          '/api/login',
          { username: user.username, password: 'wrong' },
          { remoteAddress: address },
        );
      statuses.push(r.body.results.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 'invalid')).toBe(true);
    expect(statuses.at(-1)).toBe('locked');
    const right = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: user.username, password: user.password },
        { remoteAddress: address },
      );
    expect(right.body.results).toEqual({
      status: 'locked',
      error: 'Too many failed sign-in attempts. Please try again later',
    });
    // The lock is the user's at that address only: elsewhere the right password signs in.
    const elsewhere = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: user.username, password: user.password },
        { remoteAddress: '10.1.0.2' },
      );
    expect(elsewhere.body.results.status).toBe('valid');

    const admin = await t.admin();
    const locks = await admin.get<{
      results: { kind: string; key: string }[];
      total: number;
      channel: string;
    }>('/api/loginLockouts');
    expect(locks.status).toBe(200);
    expect(locks.body.results).toContainEqual(
      expect.objectContaining({ kind: 'user', key: `${user.username.toLowerCase()} from ${address}` }),
    );
    expect((await admin.post('/api/loginLockouts/lift', { kind: 'user', key: user.username })).status).toBe(
      200,
    );
    const after = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: user.username, password: user.password },
        { remoteAddress: address },
      );
    expect(after.body.results.status).toBe('valid');
  });

  it('locks a client address after repeated failures across user names', async () => {
    const address = '10.2.0.1';
    let last = '';
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      const r = await t
        .client()
        .post<LoginBody>('/api/login', { username: `ghost${i}`, password: 'x' }, { remoteAddress: address });
      last = r.body.results.status;
    }
    expect(last).toBe('locked');
    const fromThere = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { remoteAddress: address },
      );
    expect(fromThere.body.results.status).toBe('locked');
    const elsewhere = await t
      .client()
      .post<LoginBody>(
        '/api/login',
        { username: 'admin', password: ADMIN_TEST_PASSWORD },
        { remoteAddress: '10.2.0.2' },
      );
    expect(elsewhere.body.results.status).toBe('valid');
  });

  it('pages and sorts the lock-out list on the server', async () => {
    const until = new Date(Date.now() + 600_000);
    await t.ctx.db.insert(loginFailures).values([
      { kind: 'user', key: 'sort-b', failures: 7, lockedUntil: until },
      { kind: 'user', key: 'sort-a', failures: 9, lockedUntil: until },
      { kind: 'user', key: 'sort-c', failures: 5, lockedUntil: until },
      { kind: 'user', key: 'sort-expired', failures: 5, lockedUntil: new Date(Date.now() - 1000) },
    ]);
    const admin = await t.admin();
    type Page = { results: { key: string; failures: number }[]; total: number };
    const byKey = await admin.get<Page>('/api/loginLockouts?sort=key&limit=100');
    const keys = byKey.body.results.map((r) => r.key).filter((k) => k.startsWith('sort-'));
    expect(keys).toEqual(['sort-a', 'sort-b', 'sort-c']);
    const byFailures = await admin.get<Page>('/api/loginLockouts?sort=failures&desc=1&limit=100');
    const failures = byFailures.body.results.map((r) => r.failures);
    expect(failures).toEqual([...failures].sort((x, y) => y - x));
    const firstPage = await admin.get<Page>('/api/loginLockouts?sort=key&limit=1&offset=1');
    expect(firstPage.body.results).toHaveLength(1);
    expect(firstPage.body.total).toBe(byKey.body.total);
  });

  it('keeps the lock-out list and lifting to administrators: 400, 401, 403, 404', async () => {
    const admin = await t.admin();
    expect(
      (await admin.post<ErrorBody>('/api/loginLockouts/lift', { kind: 'planet', key: 'x' })).status,
    ).toBe(400);
    expect(
      (await admin.post<ErrorBody>('/api/loginLockouts/lift', { kind: 'user', key: 'x', extra: 1 })).status,
    ).toBe(400);
    expect((await admin.get('/api/loginLockouts?limit=0')).status).toBe(400);
    expect((await admin.get('/api/loginLockouts?sort=password')).status).toBe(400);
    const notFound = await admin.post<ErrorBody>('/api/loginLockouts/lift', {
      kind: 'user',
      key: 'never-locked',
    });
    expect(notFound.status).toBe(404);
    expect((await t.client().get('/api/loginLockouts')).status).toBe(401);
    expect((await t.client().post('/api/loginLockouts/lift', { kind: 'user', key: 'x' })).status).toBe(401);
    const user = await makeUser(t.ctx.db);
    const plain = await t.client().signIn(user.username, user.password as string);
    expect((await plain.get<ErrorBody>('/api/loginLockouts')).body.error.code).toBe('forbidden');
    expect((await plain.post('/api/loginLockouts/lift', { kind: 'user', key: 'x' })).status).toBe(403);
  });
});

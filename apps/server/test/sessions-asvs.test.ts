import {
  ERROR_CODES,
  MSG_API_TOKEN_BY_TOKEN,
  MSG_CURRENT_PASSWORD_WRONG,
  MSG_LOGIN_MFA_REQUIRED,
  MSG_REAUTH_BY_TOKEN,
  MSG_REAUTH_REQUIRED,
  MSG_SESSION_ENDED_BY_USER,
  MSG_SESSION_IS_CURRENT,
  MSG_SESSION_NOT_FOUND,
  MSG_SESSIONS_ENDED_BY_ADMIN,
  type OwnSession,
} from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/modules/auth/tables.ts';
import { deviceOf } from '../src/modules/sessions/service.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

type Ended = Results<{ ended: number }>;

describe(`sessions to ASVS 5.0 V7 (${testDriver()})`, () => {
  let t: TestApp;
  let admin: TestClient;
  let adminUserId: number;
  beforeAll(async () => {
    // The product's window: the sessions made stale below are older than it.
    t = await buildTestApp({ REAUTH_WINDOW_SECONDS: '300' });
    admin = await t.admin();
    adminUserId = (await admin.get<Results<{ id: number }>>('/api/me')).body.results.id;
  });
  afterAll(() => t.close());

  /** A user signed in from several devices (one client each, with its browser's user agent). */
  const userOnDevices = async (...userAgents: string[]) => {
    const user = await makeUser(t.ctx.db);
    const devices: TestClient[] = [];
    for (const userAgent of userAgents) {
      const client = t.client();
      const answer = await client.post<Results<{ status: string }>>(
        '/api/login',
        { username: user.username, password: user.password },
        { headers: { 'user-agent': userAgent } },
      );
      expect(answer.body.results.status).toBe('valid');
      devices.push(client);
    }
    return { user, password: user.password as string, devices };
  };
  const ownSessions = async (client: TestClient) => {
    const answer = await client.get<Results<OwnSession[]>>('/api/me/sessions');
    expect(answer.status).toBe(200);
    return answer.body.results;
  };
  const expectEndedWith = async (client: TestClient, message: string) => {
    const answer = await client.get<ErrorBody>('/api/me');
    expect(answer.status).toBe(401);
    expect(answer.body.error.message).toBe(message);
  };
  /** Makes every session of a user look signed in `minutes` ago (no waiting for the window to pass). */
  const signedInMinutesAgo = async (userId: number, minutes: number) => {
    await t.ctx.db
      .update(sessions)
      .set({ authenticatedAt: sql`now() - make_interval(mins => ${minutes})` })
      .where(eq(sessions.userId, userId));
  };
  const expectReauth = (answer: { status: number; body: unknown }) => {
    expect(answer.status).toBe(401);
    expect((answer.body as ErrorBody).error).toMatchObject({
      code: ERROR_CODES.reauth,
      message: MSG_REAUTH_REQUIRED,
    });
  };

  it('names a device by its browser and system', () => {
    expect(deviceOf(CHROME_ON_LINUX)).toBe('Chrome 131 on Linux');
    expect(deviceOf(SAFARI_ON_IOS)).toBe('Safari 17 on iOS');
    expect(deviceOf('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceOf('')).toBe('Unknown device');
  });

  it('lists a user’s own sessions, this one first, with device, address and times; never another user’s', async () => {
    const { devices } = await userOnDevices(CHROME_ON_LINUX, SAFARI_ON_IOS);
    const [laptop, phone] = devices as [TestClient, TestClient];
    const listed = await ownSessions(phone);
    expect(listed).toHaveLength(2);
    expect(listed.map((session) => [session.device, session.current])).toEqual([
      ['Safari 17 on iOS', true],
      ['Chrome 131 on Linux', false],
    ]);
    for (const session of listed) {
      expect(session.ip).not.toBe('');
      expect(Date.parse(session.startedAt)).toBeLessThanOrEqual(Date.parse(session.lastSeenAt));
      // The public id only: never the session's secret nor its hash.
      expect(Object.keys(session).sort()).toEqual([
        'current',
        'device',
        'id',
        'ip',
        'lastSeenAt',
        'startedAt',
      ]);
    }
    expect((await ownSessions(laptop)).map((session) => session.current)).toEqual([true, false]);
    const adminIds = (await ownSessions(admin)).map((session) => session.id);
    expect(adminIds).not.toContain(listed[0]?.id);
  });

  it('ends another of one’s sessions (its next call 401 with the reason), refuses this one, an unknown one and another user’s', async () => {
    const { devices } = await userOnDevices(CHROME_ON_LINUX, SAFARI_ON_IOS);
    const [laptop, phone] = devices as [TestClient, TestClient];
    const [current, other] = (await ownSessions(laptop)) as [OwnSession, OwnSession];

    const itself = await laptop.post<ErrorBody>(`/api/me/sessions/${current.id}/trash`);
    expect(itself.status).toBe(400);
    expect(itself.body.error.message).toBe(MSG_SESSION_IS_CURRENT);
    const unknown = await laptop.post<ErrorBody>('/api/me/sessions/no-such-session/trash');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(MSG_SESSION_NOT_FOUND);
    // Another user's session is not found (whether it exists is not told).
    const stranger = await admin.post<ErrorBody>(`/api/me/sessions/${other.id}/trash`);
    expect(stranger.status).toBe(404);
    const badBody = await laptop.post<ErrorBody>(`/api/me/sessions/${other.id}/trash`, { all: true });
    expect(badBody.status).toBe(400);
    expect((await phone.get('/api/me')).status).toBe(200);

    const ended = await laptop.post<Ended>(`/api/me/sessions/${other.id}/trash`);
    expect(ended.status).toBe(200);
    expect(ended.body.results).toEqual({ ended: 1 });
    await expectEndedWith(phone, MSG_SESSION_ENDED_BY_USER);
    expect((await ownSessions(laptop)).map((session) => session.id)).toEqual([current.id]);
  });

  it('ends all of one’s other sessions at once and keeps this one', async () => {
    const { devices } = await userOnDevices(CHROME_ON_LINUX, SAFARI_ON_IOS, 'curl/8.5.0');
    const [laptop, phone, script] = devices as [TestClient, TestClient, TestClient];
    const ended = await phone.post<Ended>('/api/me/sessions/trash');
    expect(ended.status).toBe(200);
    expect(ended.body.results).toEqual({ ended: 2 });
    await expectEndedWith(laptop, MSG_SESSION_ENDED_BY_USER);
    await expectEndedWith(script, MSG_SESSION_ENDED_BY_USER);
    expect((await phone.get('/api/me')).status).toBe(200);
    expect((await phone.post<Ended>('/api/me/sessions/trash')).body.results).toEqual({ ended: 0 });
  });

  it('lets administrators end one user’s sessions (ASVS 7.4.5): 403 for others, 404 for no such user, 400 for a bad id', async () => {
    const { user, devices } = await userOnDevices(CHROME_ON_LINUX, SAFARI_ON_IOS);
    const [laptop, phone] = devices as [TestClient, TestClient];
    const bystander = await userOnDevices(CHROME_ON_LINUX);
    const [bystanderClient] = bystander.devices as [TestClient];

    const refused = await bystanderClient.post<ErrorBody>(`/api/users/${user.id}/sessions/trash`);
    expect(refused.status).toBe(403);
    expect((await laptop.get('/api/me')).status).toBe(200);
    expect((await admin.post(`/api/users/999999/sessions/trash`)).status).toBe(404);
    expect((await admin.post(`/api/users/nobody/sessions/trash`)).status).toBe(400);

    const ended = await admin.post<Ended>(`/api/users/${user.id}/sessions/trash`);
    expect(ended.status).toBe(200);
    expect(ended.body.results).toEqual({ ended: 2 });
    await expectEndedWith(laptop, MSG_SESSIONS_ENDED_BY_ADMIN);
    await expectEndedWith(phone, MSG_SESSIONS_ENDED_BY_ADMIN);
    expect((await bystanderClient.get('/api/me')).status).toBe(200);
    // An administrator ending their own user's sessions stays signed in in this one.
    expect((await admin.post<Ended>(`/api/users/${adminUserId}/sessions/trash`)).status).toBe(200);
    expect((await admin.get('/api/me')).status).toBe(200);
  });

  it('lets administrators end everyone’s sessions but their own; others may not', async () => {
    const { devices } = await userOnDevices(CHROME_ON_LINUX);
    const [someone] = devices as [TestClient];
    const refused = await someone.post<ErrorBody>('/api/sessions/trash');
    expect(refused.status).toBe(403);
    expect((await someone.get('/api/me')).status).toBe(200);

    const ended = await admin.post<Ended>('/api/sessions/trash');
    expect(ended.status).toBe(200);
    expect(ended.body.results.ended).toBeGreaterThanOrEqual(1);
    await expectEndedWith(someone, MSG_SESSIONS_ENDED_BY_ADMIN);
    expect((await admin.get('/api/me')).status).toBe(200);
    expect((await admin.post('/api/sessions/trash', { everyone: true })).status).toBe(400);
  });

  it('ends a disabled user’s sessions and tokens at their next request (ASVS 7.4.2)', async () => {
    const { user, devices } = await userOnDevices(CHROME_ON_LINUX);
    const [laptop] = devices as [TestClient];
    const token = (
      await laptop.post<Results<{ token: string }>>('/api/me/apiTokens', { name: 'Nightly', scope: 'read' })
    ).body.results.token;
    const withToken = () =>
      t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect((await withToken()).statusCode).toBe(200);
    expect((await admin.post(`/api/users/${user.id}`, { disabled: true })).status).toBe(200);
    expect((await laptop.get('/api/me')).status).toBe(401);
    expect((await withToken()).statusCode).toBe(401);
  });

  it('asks for a recent sign-in (401 reauth) before one’s e-mail, second factor, tokens or sessions change', async () => {
    const { user, devices } = await userOnDevices(CHROME_ON_LINUX, SAFARI_ON_IOS);
    const [laptop] = devices as [TestClient, TestClient];
    await signedInMinutesAgo(user.id, 6);

    expectReauth(await laptop.post(`/api/users/${user.id}`, { email: `changed.${user.email}` }));
    expectReauth(await laptop.post(`/api/users/${user.id}/mfa/enrol`));
    expectReauth(await laptop.post(`/api/users/${user.id}/mfa/disable`, { code: '123456' }));
    expectReauth(await laptop.post('/api/me/apiTokens', { name: 'Late', scope: 'read' }));
    expectReauth(await laptop.post('/api/me/sessions/trash'));
    // Nothing changed, and the session itself goes on.
    const me = await laptop.get<Results<{ email: string; mfaEnabled: boolean }>>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results).toMatchObject({ email: user.email, mfaEnabled: false });
    expect((await laptop.get<Results<unknown[]>>('/api/me/apiTokens')).body.results).toEqual([]);
    expect(await ownSessions(laptop)).toHaveLength(2);
    // Other changes of one's own, and an administrator's change of someone's e-mail, are not asked for.
    expect((await laptop.post(`/api/users/${user.id}`, { fullname: 'Still Here' })).status).toBe(200);
    await signedInMinutesAgo(adminUserId, 6);
    expect((await admin.post(`/api/users/${user.id}`, { email: `by.admin.${user.email}` })).status).toBe(200);
  });

  it('takes the password again (wrong: 400, changes nothing), then lets the change through', async () => {
    const { user, password, devices } = await userOnDevices(CHROME_ON_LINUX);
    const [laptop] = devices as [TestClient];
    await signedInMinutesAgo(user.id, 6);

    const wrong = await laptop.post<ErrorBody>('/api/me/reauth', { password: `${password}-wrong` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ password: MSG_CURRENT_PASSWORD_WRONG });
    expectReauth(await laptop.post('/api/me/apiTokens', { name: 'Still late', scope: 'read' }));
    expect((await laptop.post('/api/me/reauth', {})).status).toBe(400);

    const right = await laptop.post<Results<{ authenticatedAt: string }>>('/api/me/reauth', { password });
    expect(right.status).toBe(200);
    expect(Math.abs(Date.parse(right.body.results.authenticatedAt) - Date.now())).toBeLessThan(60_000);
    expect((await laptop.post('/api/me/apiTokens', { name: 'Now', scope: 'read' })).status).toBe(200);
    expect((await laptop.post(`/api/users/${user.id}`, { email: `new.${user.email}` })).status).toBe(200);
  });

  it('takes the second factor too when the user has one; an API token cannot re-authenticate', async () => {
    const { user, password, devices } = await userOnDevices(CHROME_ON_LINUX);
    const [laptop] = devices as [TestClient];
    const { secret } = (await laptop.post<Results<{ secret: string }>>(`/api/users/${user.id}/mfa/enrol`))
      .body.results;
    const confirmed = await laptop.post<Results<{ recoveryCodes: string[] }>>(
      `/api/users/${user.id}/mfa/confirm`,
      { code: await generate({ secret }) },
    );
    expect(confirmed.status).toBe(200);
    const [recoveryCode] = confirmed.body.results.recoveryCodes as [string];
    const token = (
      await laptop.post<Results<{ token: string }>>('/api/me/apiTokens', { name: 'Script', scope: 'write' })
    ).body.results.token;
    await signedInMinutesAgo(user.id, 6);

    const noCode = await laptop.post<ErrorBody>('/api/me/reauth', { password });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.fields).toEqual({ mfaCode: MSG_LOGIN_MFA_REQUIRED });
    expect((await laptop.post('/api/me/reauth', { password, mfaCode: '000000' })).status).toBe(400);
    expectReauth(await laptop.post('/api/me/apiTokens', { name: 'Late', scope: 'read' }));
    expect((await laptop.post('/api/me/reauth', { password, mfaCode: recoveryCode })).status).toBe(200);
    expect((await laptop.post('/api/me/apiTokens', { name: 'Now', scope: 'read' })).status).toBe(200);

    const byToken = (url: string, payload: object = {}) =>
      t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });
    const reauthByToken = await byToken('/api/me/reauth', { password, mfaCode: recoveryCode });
    expect(reauthByToken.statusCode).toBe(403);
    expect(reauthByToken.json().error.message).toBe(MSG_REAUTH_BY_TOKEN);
    expect((await byToken('/api/me/sessions/trash')).statusCode).toBe(403);
    const tokenByToken = await byToken('/api/me/apiTokens', { name: 'From a token', scope: 'read' });
    expect(tokenByToken.json().error.message).toBe(MSG_API_TOKEN_BY_TOKEN);
  });

  it('counts a password change with the current password as the sign-in it proves', async () => {
    const { user, password, devices } = await userOnDevices(CHROME_ON_LINUX);
    const [laptop] = devices as [TestClient];
    await signedInMinutesAgo(user.id, 6);
    const changed = await laptop.post(`/api/users/${user.id}/setPassword`, {
      currentPassword: password,
      newPassword: 'A-new-passw0rd-that-is-long',
    });
    expect(changed.status).toBe(200);
    expect((await laptop.post('/api/me/apiTokens', { name: 'After the change', scope: 'read' })).status).toBe(
      200,
    );
  });
});

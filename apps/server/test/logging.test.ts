import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordToken } from '../src/modules/passwords/service.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  eventually,
  freshTotp,
  readMails,
  type TestApp,
  testDriver,
} from './harness.ts';

type LoginBody = { results: { status: string; error: string } };

describe(`secrets in the log (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LOG_LEVEL: 'trace' });
  });
  afterAll(() => t.close());

  it('never writes a password, a reset token, a session id, an anti-forgery token or a second-factor secret', async () => {
    const password = 'Known-Secret-Passw0rd-42';
    const newPassword = 'Second-Known-Passw0rd-77';
    const wrongPassword = 'Wrong-Guess-Passw0rd-13';
    const user = await makeUser(t.ctx.db, { password });
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const secrets: Record<string, string> = {
      password,
      newPassword,
      wrongPassword,
      token,
      ADMIN_TEST_PASSWORD,
    };

    // Sign in, and use the session for a read and a write.
    const client = await t.client().signIn(user.username, password);
    secrets.sessionCookie = client.cookies.get('sessionid') as string;
    secrets.csrfToken = client.csrfToken as string;
    expect((await client.get('/api/me')).status).toBe(200);
    const enrolment = await client.post<{ results: { secret: string } }>(`/api/users/${user.id}/mfa/enrol`);
    secrets.mfaSecret = enrolment.body.results.secret;
    const confirmation = await client.post<{ results: { recoveryCodes: string[] } }>(
      `/api/users/${user.id}/mfa/confirm`,
      { code: await freshTotp(secrets.mfaSecret) },
    );
    secrets.recoveryCode = confirmation.body.results.recoveryCodes[0] as string;

    // A failed sign-in, and one with a recovery code.
    const failed = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.username, password: wrongPassword });
    expect(failed.body.results.status).toBe('invalid');
    const withRecovery = await t.client().post<LoginBody>('/api/login', {
      username: user.username,
      password,
      mfaCode: secrets.recoveryCode,
    });
    expect(withRecovery.body.results.status).toBe('valid');

    // The reset link opened in the browser, then the token used.
    await t.client().get(`/users/user_settings/${user.id}/?resetToken=${token}&resetType=just_reset`);
    const used = await t.client().post(`/api/users/${user.id}/setPassword`, {
      resetToken: token,
      resetType: 'just_reset',
      newPassword,
    });
    expect(used.status).toBe(200);

    // A mailed reset link and a refused, malformed call carrying secrets.
    await t.client().post('/api/passwordReset', { username: user.username });
    const mail = await eventually(() => readMails(t.config).find((m) => m.includes('resetToken')));
    const mailed = mail.replace(/=\r?\n/g, '').match(/resetToken=([A-Za-z0-9_-]+)/)?.[1];
    expect(mailed).toBeTruthy();
    secrets.mailedToken = mailed as string;
    await t.client().post(`/api/users/${user.id}/setPassword`, {
      resetToken: secrets.mailedToken,
      resetType: 'bogus',
      newPassword: secrets.newPassword,
      password: secrets.password,
    });
    await t.client().signIn('admin', ADMIN_TEST_PASSWORD);

    const logs = t.logs();
    // The log is written, at trace level, with the calls in it: so this test can fail.
    expect(logs.length).toBeGreaterThan(1000);
    expect(t.ctx.log.level).toBe('trace');
    expect(logs).toContain('/api/login');
    expect(logs).toContain(`/users/user_settings/${user.id}/`);
    expect(logs).toContain('resetToken=%5Bredacted%5D');
    for (const line of logs.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      expect(logs.includes(secret), `${name} appears in the log`).toBe(false);
    }
  });
});

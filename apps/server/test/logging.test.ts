import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordToken } from '../src/modules/passwords/service.ts';
import { users } from '../src/modules/users/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { registerErrorHandler } from '../src/platform/http/error-handler.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  type Collection,
  eventually,
  freshTotp,
  makeWorld,
  readMails,
  readMailTexts,
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

  it('writes no invitation token, neither in the API paths nor in the invitation page path', async () => {
    const w = await makeWorld(t);
    const roles = await w.admin.client.get<Collection<{ id: number; name: string }>>(
      `/api/account_roles?siteId=${w.site.id}`,
    );
    const roleId = roles.body.results.find((r) => r.name === 'Viewer')?.id as number;
    const email = 'invited.guest@example.com';
    const made = await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email, roleId }],
    });
    expect(made.status).toBe(200);
    const mail = await eventually(() => readMailTexts(t.config).findLast((m) => m.includes(`To: ${email}`)));
    const token = mail.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1] as string;
    expect(token.length).toBeGreaterThan(16);

    expect((await t.client().get(`/invite/${token}`)).status).toBe(200);
    expect((await t.client().get(`/api/invitations/${token}`)).status).toBe(200);
    await t.client().post(`/api/invitations/${token}/accept`, { fullname: 'Guest' });

    const logs = t.logs();
    expect(logs).toContain('"url":"/invite/[redacted]"');
    expect(logs).toContain('"url":"/api/invitations/[redacted]"');
    expect(logs).toContain('"url":"/api/invitations/[redacted]/accept"');
    expect(logs.includes(token), 'the invitation token appears in the log').toBe(false);
  });

  it('writes a failed query without the values of its parameters', async () => {
    const taken = await makeUser(t.ctx.db, { username: 'param.secret.user' });
    const tokenHash = sha256('a-token-that-must-stay-out-of-the-log');
    const storagePath = 'publishing/accounts/77/icons/secret-storage-path.png';
    // A real failure: the user name is taken (a unique index), so the insert fails with its parameters.
    const error = await t.ctx.db
      .insert(users)
      .values({ username: taken.username.toUpperCase(), fullname: storagePath, email: tokenHash })
      .then(() => undefined)
      .catch((e: unknown) => e as Error & { params?: unknown[] });
    expect(error?.message).toContain('params:');
    expect(error?.message).toContain(tokenHash);
    const secrets = [taken.username.toUpperCase(), tokenHash, storagePath];

    // Written by the context's logger, by Fastify's, and by the error handler of a request that failed.
    t.ctx.log.error({ err: error }, 'job failed');
    t.app.log.error({ err: error }, 'request failed');
    const app = Fastify({ loggerInstance: t.ctx.log });
    registerErrorHandler(app);
    app.get('/failing', async () => {
      await t.ctx.db.execute(sql`select ${tokenHash} as hash, ${storagePath} as path, 1 / 0 as broken`);
      return {};
    });
    const failed = await app.inject({ method: 'GET', url: '/failing' });
    await app.close();
    expect(failed.statusCode).toBe(500);

    const lines = t
      .logs()
      .trim()
      .split('\n')
      .filter((line) => /Failed query/.test(line));
    expect(lines.length).toBe(3);
    for (const line of lines) {
      expect(line).toContain('params: [redacted]');
      expect(line).not.toContain('"params"');
      for (const secret of secrets) expect(line.includes(secret), `${secret} appears in the log`).toBe(false);
    }
  });
});

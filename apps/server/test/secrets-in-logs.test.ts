import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordToken } from '../src/modules/passwords/service.ts';
import { makeUser } from '../src/seed/factories.ts';
import { ADMIN_TEST_PASSWORD, buildTestApp, type TestApp, testDriver } from './harness.ts';

describe(`logging (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LOG_LEVEL: 'trace' });
  });
  afterAll(() => t.close());

  it('never writes a password, a reset token, a session id or an anti-forgery token', async () => {
    const password = 'Known-Secret-Passw0rd-42';
    const user = await makeUser(t.ctx.db, { password });
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const client = await t.client().signIn(user.username, password);
    await client.get('/api/me');
    await t.client().post('/api/login', { username: user.username, password: `${password}-wrong` });
    await t.client().post(`/api/users/${user.id}/setPassword`, {
      resetToken: token,
      resetType: 'just_reset',
      newPassword: `${password}-new`,
    });
    await t.client().get(`/users/user_settings/${user.id}/?resetToken=${token}&resetType=just_reset`);
    await t.client().signIn('admin', ADMIN_TEST_PASSWORD);
    const logs = t.logs();
    expect(logs).toContain('/api/login');
    expect(logs).toContain('resetToken=%5Bredacted%5D');
    for (const secret of [
      password,
      token,
      ADMIN_TEST_PASSWORD,
      client.cookies.get('sessionid'),
      client.csrfToken,
    ]) {
      expect(secret && logs.includes(secret), `a secret appears in the log`).toBe(false);
    }
  });
});

import { PASSWORD_RULE_NAMES } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordToken } from '../src/modules/passwords/service.ts';
import { users } from '../src/modules/users/tables.ts';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, eventually, readMails, type TestApp, testDriver } from './harness.ts';

type MessageBody = { results: { message: string } };
type Rules = Record<string, { enabled: boolean; value: number }>;

const NEW_PASSWORD = 'Brand-New-Passw0rd';

describe(`password rules (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers the six rules, each with its enabled flag and value', async () => {
    const response = await t.client().get<{ results: Rules }>('/api/passwordRules');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.results).sort()).toEqual([...PASSWORD_RULE_NAMES].sort());
    for (const rule of Object.values(response.body.results)) {
      expect(typeof rule.enabled).toBe('boolean');
      expect(typeof rule.value).toBe('number');
    }
  });

  it('lets an administrator change them, and nobody else', async () => {
    const admin = await t.admin();
    const changed = await admin.post<{ results: Rules }>('/api/passwordRules', {
      min_length: { enabled: true, value: 12 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.results.min_length).toEqual({ enabled: true, value: 12 });
    expect(
      (await t.client().get<{ results: Rules }>('/api/passwordRules')).body.results.min_length?.value,
    ).toBe(12);
    expect((await admin.post('/api/passwordRules', { max_length: { enabled: true, value: 3 } })).status).toBe(
      400,
    );
    expect(
      (await admin.post('/api/passwordRules', { min_length: { enabled: 'yes', value: 3 } })).status,
    ).toBe(400);
    expect(
      (await t.client().post('/api/passwordRules', { min_length: { enabled: true, value: 1 } })).status,
    ).toBe(401);
    const user = await makeUser(t.ctx.db);
    const plain = await t.client().signIn(user.username, user.password as string);
    expect((await plain.post('/api/passwordRules', { min_length: { enabled: true, value: 1 } })).status).toBe(
      403,
    );
    expect(
      (await t.client().get<{ results: Rules }>('/api/passwordRules')).body.results.min_length?.value,
    ).toBe(12);
    await admin.post('/api/passwordRules', { min_length: { enabled: true, value: 8 } });
  });
});

describe(`set password with the current password (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('changes the password, keeps this session and ends the other sessions', async () => {
    const user = await makeUser(t.ctx.db);
    const here = await t.client().signIn(user.username, user.password as string);
    const elsewhere = await t.client().signIn(user.username, user.password as string);
    const response = await here.post<MessageBody>(`/api/users/${user.id}/setPassword`, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body.results.message).toBe('Password updated successfully');
    expect((await here.get('/api/me')).status).toBe(200);
    expect((await elsewhere.get('/api/me')).status).toBe(401);
    await t.client().signIn(user.username, NEW_PASSWORD);
  });

  it('refuses a wrong current password and a new one that breaks the rules, changing nothing', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const wrong = await client.post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      currentPassword: 'nope',
      newPassword: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields?.currentPassword).toBe('The current password is not correct');
    for (const weak of [
      'short1A',
      'alllowercase1',
      'ALLUPPERCASE1',
      'NoDigitsHere',
      `${user.username}A1x`,
      '',
    ]) {
      const refused = await client.post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
        currentPassword: user.password,
        newPassword: weak,
      });
      expect(refused.status, weak).toBe(400);
      expect(refused.body.error.fields?.newPassword, weak).toBeTruthy();
    }
    await t.client().signIn(user.username, user.password as string);
  });

  it('answers 401 without a session, 403 for someone else or an unknown user alike, 400 for a bad body', async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const body = { currentPassword: user.password, newPassword: NEW_PASSWORD };
    expect((await t.client().post(`/api/users/${user.id}/setPassword`, body)).status).toBe(401);
    expect((await client.post(`/api/users/${other.id}/setPassword`, body)).status).toBe(403);
    // An unknown id answers like someone else's: the answer never tells that an id exists.
    expect((await client.post(`/api/users/999999/setPassword`, body)).status).toBe(403);
    expect((await client.post(`/api/users/${user.id}/setPassword`, { ...body, extra: 1 })).status).toBe(400);
    expect(
      (await client.post(`/api/users/${user.id}/setPassword`, { newPassword: NEW_PASSWORD })).status,
    ).toBe(400);
  });
});

describe(`password reset and registration (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const linkIn = (mail: string) => {
    const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = unfolded.match(
      /http:\/\/media\.test\/users\/user_settings\/(\d+)\/\?resetToken=([\w-]+)&resetType=(\w+)/,
    );
    if (!match) throw new Error(`no link in mail:\n${mail}`);
    return { userId: Number(match[1]), token: match[2] as string, resetType: match[3] as string };
  };

  it('answers the same for known and unknown users, and mails a single-use link to the Change password page', async () => {
    const user = await makeUser(t.ctx.db);
    const unknown = await t.client().post<MessageBody>('/api/passwordReset', { username: 'nobody-at-all' });
    const known = await t.client().post<MessageBody>('/api/passwordReset', { username: user.email });
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const mail = await eventually(() => readMails(t.config).find((m) => m.includes(user.email)));
    expect(mail).toContain('Subject: Reset your password');
    const link = linkIn(mail);
    expect(link).toMatchObject({ userId: user.id, resetType: 'just_reset' });

    const wrongType = await t.client().post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: link.token,
      resetType: 'registration',
      newPassword: NEW_PASSWORD,
    });
    expect(wrongType.status).toBe(400);
    const done = await t.client().post<MessageBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: link.token,
      resetType: 'just_reset',
      newPassword: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    expect(done.body.results.message).toBe('Your password has been changed as requested');
    await t.client().signIn(user.username, NEW_PASSWORD);
    const again = await t.client().post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: link.token,
      resetType: 'just_reset',
      newPassword: 'Another-Passw0rd',
    });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('This link is not valid or has expired');
    expect(readMails(t.config).some((m) => m.includes('nobody-at-all'))).toBe(false);
  });

  it('refuses an unknown resetType with 400', async () => {
    const user = await makeUser(t.ctx.db);
    const response = await t.client().post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: 'x',
      resetType: 'bogus',
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation');
  });

  it('completes registration with a registration token and marks the email verified', async () => {
    const user = await makeUser(t.ctx.db, { password: null, emailverified: false });
    const token = await createPasswordToken(t.ctx.db, user.id, 'registration');
    const weak = await t.client().post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: token,
      resetType: 'registration',
      newPassword: 'weak',
    });
    expect(weak.status).toBe(400);
    const done = await t.client().post<MessageBody>(`/api/users/${user.id}/setPassword`, {
      resetToken: token,
      resetType: 'registration',
      newPassword: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    const [row] = await t.ctx.db
      .select({ emailverified: users.emailverified })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.emailverified).toBe(true);
    await t.client().signIn(user.username, NEW_PASSWORD);
  });

  it('answers 404 for a token sent to an unknown user id, and refuses a token of another user', async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const body = { resetToken: token, resetType: 'just_reset', newPassword: NEW_PASSWORD };
    expect((await t.client().post('/api/users/999999/setPassword', body)).status).toBe(404);
    expect((await t.client().post(`/api/users/${other.id}/setPassword`, body)).status).toBe(400);
    expect((await t.client().post(`/api/users/${user.id}/setPassword`, body)).status).toBe(200);
  });

  it('refuses a reset request with a bad body', async () => {
    expect((await t.client().post('/api/passwordReset', {})).status).toBe(400);
    expect((await t.client().post('/api/passwordReset', { username: 'a', email: 'b' })).status).toBe(400);
  });
});

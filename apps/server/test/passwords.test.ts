import {
  DEFAULT_PASSWORD_RULES,
  LOGIN_MAX_FAILURES_PER_USER,
  MSG_CURRENT_PASSWORD_WRONG,
  MSG_LOGIN_LOCKED,
  MSG_PASSWORD_UPDATED,
  PASSWORD_RULE_NAMES,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, type TestApp, type TestClient, testDriver } from './harness.ts';

type MessageBody = { results: { message: string } };
type Rules = Record<string, { enabled: boolean; value: number }>;
type LoginBody = { results: { status: string; error: string } };

const NEW_PASSWORD = 'Brand-New-Passw0rd';

const loginStatus = async (t: TestApp, username: string, password: string) =>
  (await t.client().post<LoginBody>('/api/login', { username, password })).body.results.status;

describe(`password rules (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers the six rules to anyone, each with its enabled flag and value', async () => {
    const response = await t.client().get<{ results: Rules }>('/api/passwordRules');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.results).sort()).toEqual(
      [
        'does_not_contain_username',
        'min_digit_num',
        'min_length',
        'min_lowercase_num',
        'min_uppercase_num',
        'not_empty',
      ].sort(),
    );
    expect([...PASSWORD_RULE_NAMES].sort()).toEqual(Object.keys(response.body.results).sort());
    for (const [name, rule] of Object.entries(response.body.results)) {
      expect(Object.keys(rule).sort(), name).toEqual(['enabled', 'value']);
      expect(typeof rule.enabled, name).toBe('boolean');
      expect(Number.isInteger(rule.value), name).toBe(true);
    }
    expect(response.body.results).toEqual(DEFAULT_PASSWORD_RULES);
  });

  it('lets an administrator change rules, and enforces the change on the server', async () => {
    const admin = await t.admin();
    const changed = await admin.post<{ results: Rules }>('/api/passwordRules', {
      min_length: { enabled: true, value: 14 },
      min_digit_num: { enabled: false, value: 1 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.results.min_length).toEqual({ enabled: true, value: 14 });
    expect(changed.body.results.min_digit_num).toEqual({ enabled: false, value: 1 });
    expect(changed.body.results.min_uppercase_num).toEqual(DEFAULT_PASSWORD_RULES.min_uppercase_num);
    const read = await t.client().get<{ results: Rules }>('/api/passwordRules');
    expect(read.body.results).toEqual(changed.body.results);

    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const tooShort = await client.post<ErrorBody>(`/api/users/${user.id}/setPassword`, {
      currentPassword: user.password,
      newPassword: 'Short-Pass1',
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.fields?.newPassword).toContain('At least 14 characters');
    const noDigits = await client.post<MessageBody>(`/api/users/${user.id}/setPassword`, {
      currentPassword: user.password,
      newPassword: 'Long-Enough-No-Digits',
    });
    expect(noDigits.status).toBe(200);

    await admin.post('/api/passwordRules', {
      min_length: DEFAULT_PASSWORD_RULES.min_length,
      min_digit_num: DEFAULT_PASSWORD_RULES.min_digit_num,
    });
  });

  it('refuses an unknown rule, an unknown field and a bad value with 400, changing nothing', async () => {
    const admin = await t.admin();
    const before = (await t.client().get<{ results: Rules }>('/api/passwordRules')).body.results;
    const bodies = [
      { max_length: { enabled: true, value: 3 } },
      { min_length: { enabled: true, value: 3, strict: true } },
      { min_length: { enabled: 'yes', value: 3 } },
      { min_length: { enabled: true, value: -1 } },
      { min_length: { enabled: true, value: 2.5 } },
      { min_length: { enabled: true } },
      { min_length: { enabled: true, value: 3 }, max_length: { enabled: true, value: 3 } },
    ];
    for (const body of bodies) {
      const response = await admin.post<ErrorBody>('/api/passwordRules', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation');
    }
    expect((await t.client().get<{ results: Rules }>('/api/passwordRules')).body.results).toEqual(before);
  });

  it('keeps rule changes to administrators: 401 signed out, 403 otherwise', async () => {
    const body = { min_length: { enabled: false, value: 1 } };
    const anonymous = await t.client().post<ErrorBody>('/api/passwordRules', body);
    expect(anonymous.status).toBe(401);
    const user = await makeUser(t.ctx.db);
    const plain = await t.client().signIn(user.username, user.password as string);
    const forbidden = await plain.post<ErrorBody>('/api/passwordRules', body);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
    expect((await t.client().get<{ results: Rules }>('/api/passwordRules')).body.results.min_length).toEqual(
      DEFAULT_PASSWORD_RULES.min_length,
    );
  });
});

describe(`set password with the current password (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const setPassword = (client: TestClient, userId: number, body: unknown) =>
    client.post<MessageBody & ErrorBody>(`/api/users/${userId}/setPassword`, body);

  it('answers Password updated successfully, ends the other sessions of the user and keeps this one', async () => {
    const user = await makeUser(t.ctx.db);
    const here = await t.client().signIn(user.username, user.password as string);
    const elsewhere = await t.client().signIn(user.username, user.password as string);
    const bystander = await makeUser(t.ctx.db);
    const bystanderClient = await t.client().signIn(bystander.username, bystander.password as string);

    const response = await setPassword(here, user.id, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect(response.body.results.message).toBe(MSG_PASSWORD_UPDATED);
    expect(MSG_PASSWORD_UPDATED).toBe('Password updated successfully');

    expect((await here.get('/api/me')).status).toBe(200);
    expect((await here.post('/api/logout')).status).toBe(200); // its anti-forgery token still works
    expect((await elsewhere.get('/api/me')).status).toBe(401);
    expect((await bystanderClient.get('/api/me')).status).toBe(200);
    expect(await loginStatus(t, user.username, user.password as string)).toBe('invalid');
    expect(await loginStatus(t, user.username, NEW_PASSWORD)).toBe('valid');
  });

  it('refuses a wrong current password with 400 on currentPassword, changing nothing', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const elsewhere = await t.client().signIn(user.username, user.password as string);
    const response = await setPassword(client, user.id, {
      currentPassword: 'Not-The-Passw0rd',
      newPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(MSG_CURRENT_PASSWORD_WRONG);
    expect(response.body.error.fields?.currentPassword).toBe(MSG_CURRENT_PASSWORD_WRONG);
    expect((await elsewhere.get('/api/me')).status).toBe(200);
    expect(await loginStatus(t, user.username, NEW_PASSWORD)).toBe('invalid');
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
  });

  it('counts wrong current passwords toward the sign-in lock-out of the user at that address, which then refuses even the right one', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const address = '10.3.0.1';
    const change = (currentPassword: string) =>
      client.post<MessageBody & ErrorBody>(
        `/api/users/${user.id}/setPassword`,
        { currentPassword, newPassword: NEW_PASSWORD },
        { remoteAddress: address },
      );
    const statuses: string[] = [];
    for (let attempt = 0; attempt < LOGIN_MAX_FAILURES_PER_USER; attempt++) {
      statuses.push((await change(`Wrong-${attempt}`)).body.error.code);
    }
    expect(statuses.at(-1)).toBe('locked');
    const right = await change(user.password as string);
    expect(right.status).toBe(400);
    expect(right.body.error.message).toBe(MSG_LOGIN_LOCKED);
    const signIn = (remoteAddress: string) =>
      t
        .client()
        .post<LoginBody>(
          '/api/login',
          { username: user.username, password: user.password as string },
          { remoteAddress },
        );
    expect((await signIn(address)).body.results.status).toBe('locked');
    // Same key as sign-in: the user at that address, so from another address the right password works.
    expect((await signIn('10.3.0.2')).body.results.status).toBe('valid');
  });

  it('enforces every enabled rule on the server: 400 with fields.newPassword, and the old password still works', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const elsewhere = await t.client().signIn(user.username, user.password as string);
    const weak: [string, string][] = [
      ['Sh0rt-A', 'At least 8 characters'],
      ['no-uppercase-1', 'At least 1 uppercase letter'],
      ['NO-LOWERCASE-1', 'At least 1 lowercase letter'],
      ['No-Digits-Here', 'At least 1 digit'],
      [`X1-${user.username.toUpperCase()}`, 'Does not contain the user name'],
      ['', 'Is not empty'],
    ];
    for (const [newPassword, message] of weak) {
      const response = await setPassword(client, user.id, { currentPassword: user.password, newPassword });
      expect(response.status, newPassword).toBe(400);
      expect(response.body.error.fields?.newPassword, newPassword).toContain(message);
    }
    expect((await elsewhere.get('/api/me')).status).toBe(200);
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
  });

  it("answers 403 for someone else's id and an unknown one alike, and 401 signed out, changing nothing", async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const admin = await t.admin();

    const forbidden = await setPassword(client, other.id, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
    // Knowing the other user's password does not help either, nor being an administrator.
    expect(
      (await setPassword(client, other.id, { currentPassword: other.password, newPassword: NEW_PASSWORD }))
        .status,
    ).toBe(403);
    expect(
      (await setPassword(admin, other.id, { currentPassword: other.password, newPassword: NEW_PASSWORD }))
        .status,
    ).toBe(403);

    const unknown = await setPassword(client, 999999, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    // An unknown id answers like someone else's: the answer never tells that an id exists.
    expect(unknown.status).toBe(403);
    expect(unknown.body.error.code).toBe('forbidden');

    const anonymous = await setPassword(t.client(), user.id, {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthenticated');

    expect(await loginStatus(t, other.username, other.password as string)).toBe('valid');
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
  });

  it('refuses a bad body with 400: unknown fields, a missing new password, both modes at once', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    for (const body of [
      { currentPassword: user.password, newPassword: NEW_PASSWORD, admin: true },
      { currentPassword: user.password },
      { newPassword: NEW_PASSWORD },
      { currentPassword: '', newPassword: NEW_PASSWORD },
      { currentPassword: user.password, resetToken: 'x', resetType: 'just_reset', newPassword: NEW_PASSWORD },
    ]) {
      const response = await setPassword(client, user.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation');
    }
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
  });
});

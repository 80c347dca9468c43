import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, freshTotp, type TestApp, testDriver } from './harness.ts';

type LoginBody = { results: { status: string; error: string } };
type Enrolment = { results: { secret: string; otpauthUri: string; qrCode: string } };

describe(`second factor (TOTP) (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const enrolled = async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const enrolment = await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`);
    const { secret } = enrolment.body.results;
    const confirm = await client.post<{ results: { recoveryCodes: string[] } }>(
      `/api/users/${user.id}/mfa/confirm`,
      {
        code: await freshTotp(secret),
      },
    );
    return { user, client, secret, recoveryCodes: confirm.body.results.recoveryCodes };
  };

  it('enrols with an otpauth URI and QR code, confirmed by a first code, and answers recovery codes once', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    expect(
      (await client.get<{ results: { enabled: boolean } }>(`/api/users/${user.id}/mfa`)).body.results,
    ).toEqual({
      enabled: false,
      pending: false,
      recoveryCodesLeft: 0,
    });
    const enrolment = await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`);
    expect(enrolment.status).toBe(200);
    const { secret, otpauthUri, qrCode } = enrolment.body.results;
    expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauthUri).toContain(`secret=${secret}`);
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    const wrong = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/confirm`, { code: '000000' });
    expect(wrong.status).toBe(400);
    const confirm = await client.post<{ results: { recoveryCodes: string[] } }>(
      `/api/users/${user.id}/mfa/confirm`,
      {
        code: await freshTotp(secret),
      },
    );
    expect(confirm.status).toBe(200);
    expect(confirm.body.results.recoveryCodes).toHaveLength(10);
    expect(new Set(confirm.body.results.recoveryCodes).size).toBe(10);
    const status = await client.get<{ results: { enabled: boolean; recoveryCodesLeft: number } }>(
      `/api/users/${user.id}/mfa`,
    );
    expect(status.body.results).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect((await client.get<{ results: { mfaEnabled: boolean } }>('/api/me')).body.results.mfaEnabled).toBe(
      true,
    );
  });

  it('answers invalidmfa without a code or with a wrong one, and valid with the password and a code', async () => {
    const { user, secret } = await enrolled();
    const client = t.client();
    const withoutCode = await client.post<LoginBody>('/api/login', {
      username: user.username,
      password: user.password,
    });
    expect(withoutCode.body.results.status).toBe('invalidmfa');
    expect(client.cookies.has('sessionid')).toBe(false);
    const wrongCode = await client.post<LoginBody>('/api/login', {
      username: user.username,
      password: user.password,
      mfaCode: '123456',
    });
    expect(wrongCode.body.results).toEqual({
      status: 'invalidmfa',
      error: 'The verification code is not valid',
    });
    const wrongPassword = await client.post<LoginBody>('/api/login', {
      username: user.username,
      password: 'wrong',
      mfaCode: await freshTotp(secret),
    });
    expect(wrongPassword.body.results.status).toBe('invalid');
    const valid = await client.post<LoginBody>('/api/login', {
      username: user.username,
      password: user.password,
      mfaCode: await freshTotp(secret),
    });
    expect(valid.body.results.status).toBe('valid');
    expect((await client.get('/api/me')).status).toBe(200);
  });

  it('accepts a recovery code once, in place of a code', async () => {
    const { user, recoveryCodes } = await enrolled();
    const code = recoveryCodes[0] as string;
    const first = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.username, password: user.password, mfaCode: code });
    expect(first.body.results.status).toBe('valid');
    const again = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.username, password: user.password, mfaCode: code });
    expect(again.body.results.status).toBe('invalidmfa');
  });

  it('disables with a code, after which sign-in needs only the password', async () => {
    const { user, client, secret } = await enrolled();
    expect((await client.post(`/api/users/${user.id}/mfa/disable`, { code: '999999' })).status).toBe(400);
    expect(
      (await client.post(`/api/users/${user.id}/mfa/disable`, { code: await freshTotp(secret) })).status,
    ).toBe(200);
    const login = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.username, password: user.password });
    expect(login.body.results.status).toBe('valid');
  });

  it('lets an administrator reset a second factor, and nobody else', async () => {
    const { user, client } = await enrolled();
    const other = await makeUser(t.ctx.db);
    const otherClient = await t.client().signIn(other.username, other.password as string);
    expect((await otherClient.post<ErrorBody>(`/api/users/${user.id}/mfa/reset`)).status).toBe(403);
    expect((await client.post<ErrorBody>(`/api/users/${user.id}/mfa/reset`)).status).toBe(403);
    const admin = await t.admin();
    expect((await admin.post(`/api/users/${user.id}/mfa/reset`)).status).toBe(200);
    expect((await admin.post(`/api/users/999999/mfa/reset`)).status).toBe(404);
    const login = await t
      .client()
      .post<LoginBody>('/api/login', { username: user.username, password: user.password });
    expect(login.body.results.status).toBe('valid');
  });

  it('refuses bad input (400), no session (401), someone else and unknown users alike (403)', async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    expect(
      (await client.post<ErrorBody>(`/api/users/${user.id}/mfa/confirm`, { code: '123456' })).body.error
        .message,
    ).toBe('Start the enrolment first');
    expect((await client.post(`/api/users/${user.id}/mfa/confirm`, {})).status).toBe(400);
    expect((await client.post(`/api/users/${user.id}/mfa/confirm`, { code: '1', more: true })).status).toBe(
      400,
    );
    expect((await client.post(`/api/users/abc/mfa/enrol`)).status).toBe(400);
    expect((await t.client().post(`/api/users/${user.id}/mfa/enrol`)).status).toBe(401);
    expect((await t.client().get(`/api/users/${user.id}/mfa`)).status).toBe(401);
    expect((await client.post(`/api/users/${other.id}/mfa/enrol`)).status).toBe(403);
    expect((await client.get(`/api/users/${other.id}/mfa`)).status).toBe(403);
    // An unknown id answers like someone else's: the answer never tells that an id exists.
    expect((await client.post(`/api/users/999999/mfa/enrol`)).status).toBe(403);
    expect((await client.get(`/api/users/999999/mfa`)).status).toBe(403);
  });
});

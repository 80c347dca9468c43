import {
  LOGIN_MAX_FAILURES_PER_USER,
  MFA_ISSUER,
  MFA_RECOVERY_CODE_COUNT,
  MSG_LOGIN_LOCKED,
  MSG_LOGIN_MFA_INVALID,
  MSG_LOGIN_MFA_REQUIRED,
  MSG_MFA_ALREADY_ENABLED,
  MSG_MFA_CODE_INVALID,
  MSG_MFA_NOT_ENABLED,
  MSG_MFA_NOT_PENDING,
  MSG_MFA_RESET_NOTIFICATION,
} from '@media/contract';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  freshAddress,
  freshTotp,
  login,
  type TestApp,
  testDriver,
} from './harness.ts';

type Status = { results: { enabled: boolean; pending: boolean; recoveryCodesLeft: number } };
type Enrolment = { results: { secret: string; otpauthUri: string; qrCode: string } };
type Confirmation = { results: { recoveryCodes: string[] } };

/** A six-digit code that is not the current one (nor, very likely, a neighbour). */
const wrongCode = async (secret: string) => {
  const right = await generate({ secret });
  return String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
};

describe(`second factor (TOTP) (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const signedInUser = async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    return { user, password: user.password as string, client };
  };

  /** A user with a confirmed second factor, still signed in from before. */
  const enrolledUser = async () => {
    const { user, password, client } = await signedInUser();
    const enrolment = await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`);
    const { secret } = enrolment.body.results;
    const confirmation = await client.post<Confirmation>(`/api/users/${user.id}/mfa/confirm`, {
      code: await freshTotp(secret),
    });
    expect(confirmation.status).toBe(200);
    return { user, password, client, secret, recoveryCodes: confirmation.body.results.recoveryCodes };
  };

  it('answers the second-factor status of the signed-in user: off, nothing pending, no recovery codes', async () => {
    const { user, client } = await signedInUser();
    const status = await client.get<Status>(`/api/users/${user.id}/mfa`);
    expect(status.status).toBe(200);
    expect(status.body.results).toEqual({ enabled: false, pending: false, recoveryCodesLeft: 0 });
  });

  it('starts enrolment with a secret, an otpauth:// URI and a QR code, and marks it pending', async () => {
    const { user, client } = await signedInUser();
    const enrolment = await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`);
    expect(enrolment.status).toBe(200);
    const { secret, otpauthUri, qrCode } = enrolment.body.results;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauthUri.startsWith('otpauth://totp/')).toBe(true);
    const uri = new URL(otpauthUri);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe(MFA_ISSUER);
    expect(decodeURIComponent(uri.pathname)).toContain(user.username);
    expect(qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    const status = await client.get<Status>(`/api/users/${user.id}/mfa`);
    expect(status.body.results).toEqual({ enabled: false, pending: true, recoveryCodesLeft: 0 });
    // Not yet in force: sign-in needs only the password.
    expect(
      (await login(t.client(), { username: user.username, password: user.password as string })).body.results
        .status,
    ).toBe('valid');
  });

  it('confirms enrolment with a generated code and answers ten different recovery codes', async () => {
    const { user, client } = await signedInUser();
    const { secret } = (await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`)).body.results;
    const confirmation = await client.post<Confirmation>(`/api/users/${user.id}/mfa/confirm`, {
      code: await freshTotp(secret),
    });
    expect(confirmation.status).toBe(200);
    const codes = confirmation.body.results.recoveryCodes;
    expect(codes).toHaveLength(MFA_RECOVERY_CODE_COUNT);
    expect(MFA_RECOVERY_CODE_COUNT).toBe(10);
    expect(new Set(codes).size).toBe(10);
    const status = await client.get<Status>(`/api/users/${user.id}/mfa`);
    expect(status.body.results).toEqual({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    expect((await client.get<{ results: { mfaEnabled: boolean } }>('/api/me')).body.results.mfaEnabled).toBe(
      true,
    );
  });

  it('accepts the code as an authenticator app shows it, with a space in the middle', async () => {
    const { user, client } = await signedInUser();
    const { secret } = (await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`)).body.results;
    const code = await freshTotp(secret);
    const confirmation = await client.post(`/api/users/${user.id}/mfa/confirm`, {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    expect(confirmation.status).toBe(200);
  });

  it('answers invalidmfa to sign-in without a code, keeps no session, then signs in with the same password and a code', async () => {
    const { user, password, secret } = await enrolledUser();
    const client = t.client();
    const withoutCode = await login(client, { username: user.username, password });
    expect(withoutCode.body.results).toEqual({ status: 'invalidmfa', error: MSG_LOGIN_MFA_REQUIRED });
    expect(client.cookies.has('sessionid')).toBe(false);
    expect((await client.get('/api/me')).status).toBe(401);
    const withCode = await login(client, {
      username: user.username,
      password,
      mfaCode: await freshTotp(secret),
    });
    expect(withCode.body.results).toEqual({ status: 'valid', error: '' });
    expect((await client.get<{ results: { id: number } }>('/api/me')).body.results.id).toBe(user.id);
  });

  it('answers invalidmfa to a wrong code, and invalid to a wrong password with a right code', async () => {
    const { user, password, secret } = await enrolledUser();
    const client = t.client();
    const wrong = await login(client, {
      username: user.username,
      password,
      mfaCode: await wrongCode(secret),
    });
    expect(wrong.body.results).toEqual({ status: 'invalidmfa', error: MSG_LOGIN_MFA_INVALID });
    expect(client.cookies.has('sessionid')).toBe(false);
    const garbage = await login(client, { username: user.username, password, mfaCode: 'not-a-code' });
    expect(garbage.body.results.status).toBe('invalidmfa');
    const wrongPassword = await login(client, {
      username: user.username,
      password: `${password}x`,
      mfaCode: await freshTotp(secret),
    });
    expect(wrongPassword.body.results.status).toBe('invalid');
    expect(client.cookies.has('sessionid')).toBe(false);
  });

  it('counts wrong codes as failed sign-ins, so guessing codes locks the user at that address', async () => {
    const { user, password, secret } = await enrolledUser();
    const address = freshAddress();
    const statuses: string[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_USER; i++) {
      const response = await login(
        t.client(),
        { username: user.username, password, mfaCode: await wrongCode(secret) },
        address,
      );
      statuses.push(response.body.results.status);
    }
    expect(statuses.at(-1)).toBe('locked');
    const right = await login(
      t.client(),
      { username: user.username, password, mfaCode: await freshTotp(secret) },
      address,
    );
    expect(right.body.results).toEqual({ status: 'locked', error: MSG_LOGIN_LOCKED });
  });

  it('accepts each code once: a replayed code, even the one that confirmed enrolment, is refused', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const secret = (await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`)).body.results.secret;
    const confirming = await generate({ secret });
    expect((await client.post(`/api/users/${user.id}/mfa/confirm`, { code: confirming })).status).toBe(200);
    const password = user.password as string;
    const replayed = await login(t.client(), { username: user.username, password, mfaCode: confirming });
    expect(replayed.body.results).toEqual({ status: 'invalidmfa', error: MSG_LOGIN_MFA_INVALID });
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    expect(
      (await login(t.client(), { username: user.username, password, mfaCode: next })).body.results.status,
    ).toBe('valid');
    expect(
      (await login(t.client(), { username: user.username, password, mfaCode: next })).body.results.status,
    ).toBe('invalidmfa');
  });

  it('signs in with a recovery code once, and not twice', async () => {
    const { user, password, client, recoveryCodes } = await enrolledUser();
    const code = recoveryCodes[3] as string;
    const first = await login(t.client(), { username: user.username, password, mfaCode: code });
    expect(first.body.results.status).toBe('valid');
    const second = await login(t.client(), { username: user.username, password, mfaCode: code });
    expect(second.body.results).toEqual({ status: 'invalidmfa', error: MSG_LOGIN_MFA_INVALID });
    const status = await client.get<Status>(`/api/users/${user.id}/mfa`);
    expect(status.body.results.recoveryCodesLeft).toBe(9);
    // Another unused code still works, typed in capitals.
    const other = await login(t.client(), {
      username: user.username,
      password,
      mfaCode: (recoveryCodes[4] as string).toUpperCase(),
    });
    expect(other.body.results.status).toBe('valid');
  });

  it('does not take a recovery code of another user', async () => {
    const first = await enrolledUser();
    const second = await enrolledUser();
    const response = await login(t.client(), {
      username: second.user.username,
      password: second.password,
      mfaCode: first.recoveryCodes[0] as string,
    });
    expect(response.body.results.status).toBe('invalidmfa');
  });

  it('disables the second factor with a code; afterwards sign-in needs only the password', async () => {
    const { user, password, client, secret } = await enrolledUser();
    const wrong = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/disable`, {
      code: await wrongCode(secret),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(MSG_MFA_CODE_INVALID);
    expect(wrong.body.error.fields?.code).toBe(MSG_MFA_CODE_INVALID);
    expect((await client.get<Status>(`/api/users/${user.id}/mfa`)).body.results.enabled).toBe(true);

    const disabled = await client.post<{ results: { ok: boolean } }>(`/api/users/${user.id}/mfa/disable`, {
      code: await freshTotp(secret),
    });
    expect(disabled.status).toBe(200);
    expect((await client.get<Status>(`/api/users/${user.id}/mfa`)).body.results).toEqual({
      enabled: false,
      pending: false,
      recoveryCodesLeft: 0,
    });
    expect((await login(t.client(), { username: user.username, password })).body.results.status).toBe(
      'valid',
    );
    // Turned off, there is nothing to check a code against.
    const again = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/disable`, {
      code: await wrongCode(secret),
    });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(MSG_MFA_NOT_ENABLED);
  });

  it('disables the second factor with a recovery code too', async () => {
    const { user, client, recoveryCodes } = await enrolledUser();
    const response = await client.post(`/api/users/${user.id}/mfa/disable`, { code: recoveryCodes[0] });
    expect(response.status).toBe(200);
    expect((await client.get<Status>(`/api/users/${user.id}/mfa`)).body.results.enabled).toBe(false);
  });

  it('lets an administrator reset a second factor, and tells the user', async () => {
    const { user, password, client } = await enrolledUser();
    const admin = await t.admin();
    const adminView = await admin.get<Status>(`/api/users/${user.id}/mfa`);
    expect(adminView.status).toBe(200);
    expect(adminView.body.results.enabled).toBe(true);
    const reset = await admin.post<{ results: { ok: boolean } }>(`/api/users/${user.id}/mfa/reset`);
    expect(reset.status).toBe(200);
    expect((await admin.get<Status>(`/api/users/${user.id}/mfa`)).body.results).toEqual({
      enabled: false,
      pending: false,
      recoveryCodesLeft: 0,
    });
    expect((await login(t.client(), { username: user.username, password })).body.results.status).toBe(
      'valid',
    );
    const notifications = await client.get<{ results: { message: string }[] }>(
      `/api/users/${user.id}/notifications`,
    );
    expect(notifications.body.results.map((n) => n.message)).toContain(MSG_MFA_RESET_NOTIFICATION);
  });

  it('refuses bad input with 400: a bad body, a wrong code, confirming without enrolment, enrolling twice', async () => {
    const { user, client } = await signedInUser();
    const notPending = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/confirm`, { code: '123456' });
    expect(notPending.status).toBe(400);
    expect(notPending.body.error.message).toBe(MSG_MFA_NOT_PENDING);

    const { secret } = (await client.post<Enrolment>(`/api/users/${user.id}/mfa/enrol`)).body.results;
    for (const body of [{}, { code: '' }, { code: 123456 }, { code: '123456', remember: true }]) {
      const response = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/confirm`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation');
    }
    expect((await client.post<ErrorBody>(`/api/users/not-a-number/mfa/enrol`)).status).toBe(400);

    const wrong = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/confirm`, {
      code: await wrongCode(secret),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields?.code).toBe(MSG_MFA_CODE_INVALID);
    // The refused confirmation changed nothing: still pending, still off, and the right code still works.
    expect((await client.get<Status>(`/api/users/${user.id}/mfa`)).body.results).toEqual({
      enabled: false,
      pending: true,
      recoveryCodesLeft: 0,
    });
    expect(
      (await client.post(`/api/users/${user.id}/mfa/confirm`, { code: await freshTotp(secret) })).status,
    ).toBe(200);

    const twice = await client.post<ErrorBody>(`/api/users/${user.id}/mfa/enrol`);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe(MSG_MFA_ALREADY_ENABLED);
  });

  it('answers 401 to every second-factor call without a session', async () => {
    const user = await makeUser(t.ctx.db);
    const anonymous = t.client();
    expect((await anonymous.get<ErrorBody>(`/api/users/${user.id}/mfa`)).status).toBe(401);
    for (const action of ['enrol', 'confirm', 'disable', 'reset']) {
      const body = action === 'confirm' || action === 'disable' ? { code: '123456' } : {};
      const response = await anonymous.post<ErrorBody>(`/api/users/${user.id}/mfa/${action}`, body);
      expect(response.status, action).toBe(401);
      expect(response.body.error.code).toBe('unauthenticated');
    }
  });

  it("answers 403 to enrolling, confirming, disabling or viewing someone else's second factor, and to a non-administrator's reset", async () => {
    const { client } = await signedInUser();
    const victim = await enrolledUser();
    for (const action of ['enrol', 'confirm', 'disable', 'reset']) {
      const body = action === 'confirm' || action === 'disable' ? { code: victim.recoveryCodes[0] } : {};
      const response = await client.post<ErrorBody>(`/api/users/${victim.user.id}/mfa/${action}`, body);
      expect(response.status, action).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
    }
    expect((await client.get(`/api/users/${victim.user.id}/mfa`)).status).toBe(403);
    // Nor may users reset their own.
    expect((await victim.client.post<ErrorBody>(`/api/users/${victim.user.id}/mfa/reset`)).status).toBe(403);
    // Nothing changed, and the recovery code offered above was not spent.
    expect((await victim.client.get<Status>(`/api/users/${victim.user.id}/mfa`)).body.results).toEqual({
      enabled: true,
      pending: false,
      recoveryCodesLeft: 10,
    });
    // An administrator may not enrol someone else either.
    const admin = await t.admin();
    expect((await admin.post(`/api/users/${victim.user.id}/mfa/enrol`)).status).toBe(403);
  });

  it('answers an unknown user id like any other user: 403 to a user, 404 to an administrator', async () => {
    const { client } = await signedInUser();
    const admin = await t.admin();
    expect((await client.get<ErrorBody>('/api/users/999999/mfa')).status).toBe(403);
    expect((await client.post<ErrorBody>('/api/users/999999/mfa/enrol')).status).toBe(403);
    expect((await client.post<ErrorBody>('/api/users/999999/mfa/confirm', { code: '123456' })).status).toBe(
      403,
    );
    expect((await client.post<ErrorBody>('/api/users/999999/mfa/disable', { code: '123456' })).status).toBe(
      403,
    );
    const reset = await admin.post<ErrorBody>('/api/users/999999/mfa/reset');
    expect(reset.status).toBe(404);
    expect(reset.body.error.code).toBe('not_found');
    expect((await admin.get('/api/users/999999/mfa')).status).toBe(404);
  });
});

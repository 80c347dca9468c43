import {
  MSG_PASSWORD_CHANGED_AS_REQUESTED,
  MSG_PASSWORD_RESET_SENT,
  MSG_RESET_TOKEN_INVALID,
  MSG_SET_PASSWORD_BODY,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordToken } from '../src/modules/passwords/service.ts';
import { users } from '../src/modules/users/tables.ts';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, eventually, readMails, type TestApp, testDriver } from './harness.ts';

type MessageBody = { results: { message: string } };
type LoginBody = { results: { status: string; error: string } };

const NEW_PASSWORD = 'Brand-New-Passw0rd';

const loginStatus = async (t: TestApp, username: string, password: string) =>
  (await t.client().post<LoginBody>('/api/login', { username, password })).body.results.status;

describe(`password reset and registration (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const linkIn = (mail: string) => {
    // Quoted-printable: undo soft line breaks and the encoded '='.
    const unfolded = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const match = unfolded.match(
      /http:\/\/media\.test\/users\/user_settings\/(\d+)\/\?resetToken=([A-Za-z0-9_-]+)&resetType=([a-z_]+)/,
    );
    if (!match) throw new Error(`no link in mail:\n${mail}`);
    return { userId: Number(match[1]), token: match[2] as string, resetType: match[3] as string };
  };

  const mailTo = (address: string) =>
    eventually(() => readMails(t.config).find((mail) => mail.includes(`To: ${address}`)));

  const useToken = (userId: number, resetToken: string, resetType: string, newPassword = NEW_PASSWORD) =>
    t.client().post<MessageBody & ErrorBody>(`/api/users/${userId}/setPassword`, {
      resetToken,
      resetType,
      newPassword,
    });

  it('answers the same text for a known and an unknown user, and mails only the known one', async () => {
    const user = await makeUser(t.ctx.db);
    const unknown = await t
      .client()
      .post<MessageBody>('/api/passwordReset', { username: 'nobody-by-this-name' });
    const known = await t.client().post<MessageBody>('/api/passwordReset', { username: user.username });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.results.message).toBe(MSG_PASSWORD_RESET_SENT);
    const mail = await mailTo(user.email);
    expect(mail).toContain('Subject: Reset your password');
    expect(readMails(t.config).some((m) => m.includes('nobody-by-this-name'))).toBe(false);
  });

  it('sends nothing for an identifier that names two users, and still resets by an unambiguous one', async () => {
    // Made before user names and emails were kept apart: one user's user name is another's email.
    const victim = await makeUser(t.ctx.db, { email: 'victim@example.com' });
    const renamed = await makeUser(t.ctx.db, { username: 'VICTIM@example.com', email: 'taker@example.com' });
    const ambiguous = await t
      .client()
      .post<MessageBody>('/api/passwordReset', { username: 'victim@example.com' });
    const unknown = await t
      .client()
      .post<MessageBody>('/api/passwordReset', { username: 'nobody@example.com' });
    expect(ambiguous.status).toBe(200);
    expect(ambiguous.body).toEqual(unknown.body);
    // Resets mail in the background: once a later one has mailed, the ambiguous one has long answered.
    await t.client().post('/api/passwordReset', { username: victim.username });
    const link = linkIn(await mailTo(victim.email));
    expect(link.userId).toBe(victim.id);
    expect(readMails(t.config).filter((m) => m.includes(`To: ${victim.email}`))).toHaveLength(1);
    expect(readMails(t.config).some((m) => m.includes(`To: ${renamed.email}`))).toBe(false);
  });

  it('mails a link to the Change password page that sets the password once', async () => {
    const user = await makeUser(t.ctx.db);
    const signedIn = await t.client().signIn(user.username, user.password as string);
    await t.client().post('/api/passwordReset', { username: user.email.toUpperCase() });
    const link = linkIn(await mailTo(user.email));
    expect(link.userId).toBe(user.id);
    expect(link.resetType).toBe('just_reset');
    expect(link.token.length).toBeGreaterThanOrEqual(32);

    const done = await useToken(user.id, link.token, 'just_reset');
    expect(done.status).toBe(200);
    expect(done.body.results.message).toBe(MSG_PASSWORD_CHANGED_AS_REQUESTED);
    expect(MSG_PASSWORD_CHANGED_AS_REQUESTED).toBe('Your password has been changed as requested');
    expect(await loginStatus(t, user.username, NEW_PASSWORD)).toBe('valid');
    expect(await loginStatus(t, user.username, user.password as string)).toBe('invalid');
    // A reset ends the sessions the user had.
    expect((await signedIn.get('/api/me')).status).toBe(401);

    const again = await useToken(user.id, link.token, 'just_reset', 'Another-Passw0rd');
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(MSG_RESET_TOKEN_INVALID);
    expect(await loginStatus(t, user.username, NEW_PASSWORD)).toBe('valid');
  });

  it('refuses a token with the wrong resetType, and the token still works with its own', async () => {
    const user = await makeUser(t.ctx.db);
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const wrongType = await useToken(user.id, token, 'registration');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe(MSG_RESET_TOKEN_INVALID);
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
    expect((await useToken(user.id, token, 'just_reset')).status).toBe(200);
  });

  it('refuses an unknown resetType value with a 400 validation error', async () => {
    const user = await makeUser(t.ctx.db);
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const response = await useToken(user.id, token, 'bogus');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation');
    expect(response.body.error.message).toContain(MSG_SET_PASSWORD_BODY);
    expect((await useToken(user.id, token, 'just_reset')).status).toBe(200);
  });

  it('refuses a password that breaks the rules and keeps the token usable', async () => {
    const user = await makeUser(t.ctx.db);
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const weak = await useToken(user.id, token, 'just_reset', 'weak');
    expect(weak.status).toBe(400);
    expect(weak.body.error.fields?.newPassword).toContain('At least 8 characters');
    expect(await loginStatus(t, user.username, user.password as string)).toBe('valid');
    expect((await useToken(user.id, token, 'just_reset')).status).toBe(200);
  });

  it("refuses a token sent with another user's id, an unknown token, and answers 404 for an unknown id", async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    const token = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    expect((await useToken(other.id, token, 'just_reset')).status).toBe(400);
    expect((await useToken(user.id, `${token}x`, 'just_reset')).status).toBe(400);
    expect((await useToken(999999, token, 'just_reset')).status).toBe(404);
    expect(await loginStatus(t, other.username, other.password as string)).toBe('valid');
    expect((await useToken(user.id, token, 'just_reset')).status).toBe(200);
  });

  it('completes registration with a registration token and marks the email verified', async () => {
    const user = await makeUser(t.ctx.db, { password: null, emailverified: false });
    const token = await createPasswordToken(t.ctx.db, user.id, 'registration');
    expect((await useToken(user.id, token, 'just_reset')).status).toBe(400);
    const done = await useToken(user.id, token, 'registration');
    expect(done.status).toBe(200);
    expect(done.body.results.message).toBe(MSG_PASSWORD_CHANGED_AS_REQUESTED);
    const [row] = await t.ctx.db
      .select({ emailverified: users.emailverified })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.emailverified).toBe(true);
    expect(await loginStatus(t, user.username, NEW_PASSWORD)).toBe('valid');
    expect((await useToken(user.id, token, 'registration', 'Another-Passw0rd')).status).toBe(400);
  });

  it('spends older links once the password has changed', async () => {
    const user = await makeUser(t.ctx.db);
    const first = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    const second = await createPasswordToken(t.ctx.db, user.id, 'just_reset');
    expect((await useToken(user.id, second, 'just_reset')).status).toBe(200);
    expect((await useToken(user.id, first, 'just_reset', 'Another-Passw0rd')).status).toBe(400);

    const changer = await makeUser(t.ctx.db);
    const pending = await createPasswordToken(t.ctx.db, changer.id, 'just_reset');
    const client = await t.client().signIn(changer.username, changer.password as string);
    const changed = await client.post(`/api/users/${changer.id}/setPassword`, {
      currentPassword: changer.password,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect((await useToken(changer.id, pending, 'just_reset', 'Another-Passw0rd')).status).toBe(400);
    expect(await loginStatus(t, changer.username, NEW_PASSWORD)).toBe('valid');
  });

  it('refuses a reset request with a bad body', async () => {
    expect((await t.client().post<ErrorBody>('/api/passwordReset', {})).status).toBe(400);
    expect((await t.client().post<ErrorBody>('/api/passwordReset', { username: '' })).status).toBe(400);
    expect(
      (await t.client().post<ErrorBody>('/api/passwordReset', { username: 'a', email: 'b' })).status,
    ).toBe(400);
  });
});

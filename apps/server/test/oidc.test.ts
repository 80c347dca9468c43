import { type LinkedIdentity, MSG_PASSWORD_SIGN_IN_OFF, operationIdOf } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/modules/audit/tables.ts';
import { discoverProvider, type OidcSettings } from '../src/modules/oidc/provider.ts';
import { oidcLogins, userIdentities } from '../src/modules/oidc/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  eventually,
  makeWorld,
  type Results,
  readMailTexts,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';
import { OIDC_TEST_CLIENT, signInAtProvider, startOidcProvider } from './oidc-provider.ts';

const PUBLIC_URL = 'http://media.test';
type Me = Results<{ id: number; username: string; email: string; fullname: string }>;

describe(`sign-in with the identity provider (OpenID Connect) (${testDriver()})`, () => {
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let t: TestApp;
  let registering: TestApp;
  const oidcEnv = (extra: Record<string, string> = {}) => ({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    ...extra,
  });
  beforeAll(async () => {
    provider = await startOidcProvider([PUBLIC_URL]);
    t = await buildTestApp(oidcEnv());
    registering = await buildTestApp(oidcEnv({ OIDC_AUTO_REGISTER: '1' }));
  });
  afterAll(async () => {
    await t?.close();
    await registering?.close();
    await provider?.close();
  });

  /** GET through the app (inject), with the client's cookies; the answer's redirect target. */
  const navigate = async (
    app: TestApp,
    client: TestClient,
    url: string,
    cookies: Record<string, string> = {},
  ) => {
    const response = await app.app.inject({
      method: 'GET',
      url,
      cookies: { ...Object.fromEntries(client.cookies), ...cookies },
    });
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() < Date.now()))
        client.cookies.delete(cookie.name);
      else client.cookies.set(cookie.name, cookie.value);
    }
    return {
      status: response.statusCode,
      location: response.headers.location as string | undefined,
      response,
    };
  };
  /** The product's start, the provider's pages, and the way back: where the browser lands. */
  const signInThroughProvider = async (
    app: TestApp,
    client: TestClient,
    subject: string,
    start = '/api/oidc/login',
  ) => {
    const started = await navigate(app, client, start);
    expect(started.status).toBe(302);
    const back = await signInAtProvider(started.location as string, subject);
    const stateCookie = client.cookies.get('oidc_state');
    const landed = await navigate(app, client, `${back.pathname}${back.search}`);
    return { landed, callback: back, stateCookie };
  };
  const subjects = { n: 0 };
  const freshSubject = () => {
    subjects.n += 1;
    return `person-${subjects.n}-${Date.now()}`;
  };

  it('stops the start saying which issuer could not be discovered', async () => {
    // What buildApp does first, before it opens anything.
    const unreachable = loadConfig({
      OIDC_ISSUER: 'http://127.0.0.1:9/nowhere',
      OIDC_CLIENT_ID: 'x',
      OIDC_CLIENT_SECRET: 'y',
    }).oidc;
    await expect(discoverProvider(unreachable as OidcSettings, PUBLIC_URL)).rejects.toThrow(
      /OIDC_ISSUER http:\/\/127\.0\.0\.1:9\/nowhere/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: provider.issuer })).toThrow(
      /OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/,
    );
    expect(() => loadConfig({ PASSWORD_SIGN_IN: '0' })).toThrow(/PASSWORD_SIGN_IN=0 needs OpenID Connect/);
  });

  it('signs a linked person in through the provider, with PKCE, state and nonce, and lands on returnTo', async () => {
    const user = await makeUser(t.ctx.db);
    const subject = freshSubject();
    await t.ctx.db.insert(userIdentities).values({ userId: user.id, issuer: provider.issuer, subject });
    const client = t.client();
    const started = await navigate(t, client, '/api/oidc/login?returnTo=%2Faccounts%3Fpage%3D2');
    const authorization = new URL(started.location as string);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBe(client.cookies.get('oidc_state'));
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/oidc/callback`);
    const back = await signInAtProvider(authorization.toString(), subject);
    const landed = await navigate(t, client, `${back.pathname}${back.search}`);
    expect(landed.location).toBe('/accounts?page=2');
    const me = await client.get<Me>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.id).toBe(user.id);
    // The redirect back is a GET that signs in: in the audit log as the person it signed in.
    const audited = await t.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.operation, operationIdOf('GET', '/api/oidc/callback')));
    expect(audited.map((row) => [row.actorName, row.outcome])).toContainEqual([user.username, 'success']);
    // No secret of the exchange in the log.
    const code = back.searchParams.get('code') as string;
    expect(t.logs()).not.toContain(code);
    expect(t.logs()).not.toContain(OIDC_TEST_CLIENT.secret);
  });

  it('refuses a returnTo that is not a path of this site', async () => {
    for (const returnTo of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'accounts']) {
      const answer = await navigate(
        t,
        t.client(),
        `/api/oidc/login?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(answer.status, returnTo).toBe(400);
    }
  });

  it('never makes a person with an existing user’s e-mail that user: unknown, they are sent to ask for an invitation', async () => {
    const user = await makeUser(t.ctx.db);
    const subject = freshSubject();
    provider.people.set(subject, { email: user.email, name: 'Same Address' });
    const client = t.client();
    const { landed } = await signInThroughProvider(t, client, subject);
    expect(landed.location).toBe('/login?oidcError=unknown');
    expect((await client.get('/api/me')).status).toBe(401);
    expect(await t.ctx.db.select().from(userIdentities).where(eq(userIdentities.subject, subject))).toEqual(
      [],
    );
  });

  it('auto-registers an unknown person (OIDC_AUTO_REGISTER=1) with their claims and no rights; never over an existing e-mail', async () => {
    const subject = freshSubject();
    provider.people.set(subject, {
      email: `${subject}@example.com`,
      name: 'New Person',
      preferred_username: subject,
    });
    const client = registering.client();
    const { landed } = await signInThroughProvider(registering, client, subject);
    expect(landed.location).toBe('/');
    const me =
      await client.get<
        Results<{ username: string; email: string; fullname: string; rights: Record<string, number[]> }>
      >('/api/me');
    expect(me.body.results).toMatchObject({
      username: subject,
      email: `${subject}@example.com`,
      fullname: 'New Person',
    });
    expect(Object.values(me.body.results.rights).every((ids) => ids.length === 0)).toBe(true);

    const existing = await makeUser(registering.ctx.db);
    const taker = freshSubject();
    provider.people.set(taker, { email: existing.email.toUpperCase(), name: 'Taker' });
    const refused = await signInThroughProvider(registering, registering.client(), taker);
    expect(refused.landed.location).toBe('/login?oidcError=unknown');
    const [still] = await registering.ctx.db.select().from(users).where(eq(users.id, existing.id));
    expect(still?.username).toBe(existing.username);
  });

  it('refuses a tampered state, a replayed code and a wrong nonce', async () => {
    const user = await makeUser(t.ctx.db);
    const subject = freshSubject();
    await t.ctx.db.insert(userIdentities).values({ userId: user.id, issuer: provider.issuer, subject });

    // Tampered state: the callback's state is not the one this browser started.
    const tampered = t.client();
    const started = await navigate(t, tampered, '/api/oidc/login');
    const back = await signInAtProvider(started.location as string, subject);
    back.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const refused = await navigate(t, tampered, `${back.pathname}${back.search}`);
    expect(refused.location).toBe('/login?oidcError=failed');
    expect((await tampered.get('/api/me')).status).toBe(401);

    // Replayed: the same answer again, with the same state cookie, after it signed in once.
    const first = t.client();
    const { landed, callback, stateCookie } = await signInThroughProvider(t, first, subject);
    expect(landed.location).toBe('/');
    const replay = t.client();
    const again = await navigate(t, replay, `${callback.pathname}${callback.search}`, {
      oidc_state: stateCookie as string,
    });
    expect(again.location).toBe('/login?oidcError=failed');
    expect((await replay.get('/api/me')).status).toBe(401);

    // Wrong nonce: the ID token's nonce is not the one this sign-in waits for.
    const wrongNonce = t.client();
    const startedAgain = await navigate(t, wrongNonce, '/api/oidc/login');
    await t.ctx.db.update(oidcLogins).set({ nonce: 'not-the-nonce-sent' });
    const backAgain = await signInAtProvider(startedAgain.location as string, subject);
    const nonceRefused = await navigate(t, wrongNonce, `${backAgain.pathname}${backAgain.search}`);
    expect(nonceRefused.location).toBe('/login?oidcError=failed');
    expect((await wrongNonce.get('/api/me')).status).toBe(401);
  });

  it('links from settings (by issuer and subject), lists, signs in with it, and unlinks', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const subject = freshSubject();
    provider.people.set(subject, { email: 'someone.else@example.com' });
    const link = await client.post<Results<{ url: string }>>('/api/me/identities/link', {
      returnTo: `/users/user_settings/${user.id}/`,
    });
    expect(link.status).toBe(200);
    const back = await signInAtProvider(link.body.results.url, subject);
    const landed = await navigate(t, client, `${back.pathname}${back.search}`);
    expect(landed.location).toBe(`/users/user_settings/${user.id}/`);
    const listed = await client.get<Results<LinkedIdentity[]>>('/api/me/identities');
    expect(listed.body.results).toMatchObject([
      { issuer: provider.issuer, subject, email: 'someone.else@example.com' },
    ]);

    const fresh = t.client();
    await signInThroughProvider(t, fresh, subject);
    expect((await fresh.get<Me>('/api/me')).body.results.id).toBe(user.id);

    // Another user cannot link the same identity.
    const other = await makeUser(t.ctx.db);
    const otherClient = await t.client().signIn(other.username, other.password as string);
    const otherLink = await otherClient.post<Results<{ url: string }>>('/api/me/identities/link', {
      returnTo: '/settings',
    });
    const otherBack = await signInAtProvider(otherLink.body.results.url, subject);
    const refused = await navigate(t, otherClient, `${otherBack.pathname}${otherBack.search}`);
    expect(refused.location).toBe('/settings?oidcError=linkedElsewhere');

    // Bad input changes nothing; an API token never links or unlinks.
    expect((await client.post('/api/me/identities/link', { returnTo: 'https://evil.example/' })).status).toBe(
      400,
    );
    expect((await client.post('/api/me/identities/nobody/trash')).status).toBe(400);
    const token = (
      await client.post<Results<{ token: string }>>('/api/me/apiTokens', { name: 'Script', scope: 'write' })
    ).body.results.token;
    const byToken = await t.app.inject({
      method: 'POST',
      url: '/api/me/identities/link',
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(byToken.statusCode).toBe(403);
    const id = listed.body.results[0]?.id as number;
    expect((await client.post(`/api/me/identities/${id + 100000}/trash`)).status).toBe(404);
    expect((await otherClient.post(`/api/me/identities/${id}/trash`)).status).toBe(404);
    expect((await client.post(`/api/me/identities/${id}/trash`)).status).toBe(200);
    expect((await client.get<Results<LinkedIdentity[]>>('/api/me/identities')).body.results).toEqual([]);
    const unlinked = await signInThroughProvider(t, t.client(), subject);
    expect(unlinked.landed.location).toBe('/login?oidcError=unknown');
  });

  it('accepts an invitation through the provider: the invited user gets the access and the identity is linked', async () => {
    const w = await makeWorld(t);
    const roles = await w.admin.client.get<Collection<{ id: number; name: string }>>(
      `/api/account_roles?siteId=${w.site.id}`,
    );
    const viewer = roles.body.results.find((role) => role.name === 'Viewer')?.id as number;
    const email = `invited.${Date.now()}@example.com`;
    const made = await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email, roleId: viewer }],
    });
    expect(made.status).toBe(200);
    const mail = await eventually(() =>
      readMailTexts(t.config).findLast((text) => text.includes(`To: ${email}`)),
    );
    const token = mail.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1] as string;
    const subject = freshSubject();
    // The provider's e-mail claim differs: the invitation, not the claim, says who this is.
    provider.people.set(subject, { email: 'whatever@elsewhere.example', name: 'Invited Person' });
    const client = t.client();
    const { landed } = await signInThroughProvider(t, client, subject, `/api/oidc/login?invite=${token}`);
    expect(landed.location).toBe('/');
    const me =
      await client.get<Results<{ email: string; fullname: string; rights: { accounts: number[] } }>>(
        '/api/me',
      );
    expect(me.body.results).toMatchObject({ email, fullname: 'Invited Person' });
    expect(me.body.results.rights.accounts).toContain(w.account.id);
    expect((await t.client().get(`/api/invitations/${token}`)).status).toBe(404);
    // The invitation's token and the provider's state went through addresses: neither is logged.
    expect(t.logs()).not.toContain(token);
    // Linked: the next sign-in needs no invitation.
    const later = t.client();
    await signInThroughProvider(t, later, subject);
    expect((await later.get<Results<{ email: string }>>('/api/me')).body.results.email).toBe(email);

    // A second invitation (another account) accepted by the identity linked already: its user gets the access.
    const other = await makeWorld(t);
    const otherRoles = await other.admin.client.get<Collection<{ id: number; name: string }>>(
      `/api/account_roles?siteId=${other.site.id}`,
    );
    const otherViewer = otherRoles.body.results.find((role) => role.name === 'Viewer')?.id as number;
    const secondEmail = `second.${email}`;
    await other.accountManager.client.post(`/api/accounts/${other.account.id}/invites`, {
      data: [{ email: secondEmail, roleId: otherViewer }],
    });
    const secondMail = await eventually(() =>
      readMailTexts(t.config).findLast((text) => text.includes(`To: ${secondEmail}`)),
    );
    const secondToken = secondMail.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1] as string;
    const again = t.client();
    await signInThroughProvider(t, again, subject, `/api/oidc/login?invite=${secondToken}`);
    const rights = await again.get<Results<{ id: number; rights: { accounts: number[] } }>>('/api/me');
    expect(rights.body.results.rights.accounts).toEqual(
      expect.arrayContaining([w.account.id, other.account.id]),
    );
    expect((await t.client().get(`/api/invitations/${secondToken}`)).status).toBe(404);
  });

  it('does not ask for the product’s second factor after a provider sign-in; sign-out answers the provider’s end-session address', async () => {
    const user = await makeUser(t.ctx.db);
    await t.ctx.db.update(users).set({ mfaSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, user.id));
    const subject = freshSubject();
    await t.ctx.db.insert(userIdentities).values({ userId: user.id, issuer: provider.issuer, subject });
    const client = t.client();
    await signInThroughProvider(t, client, subject);
    expect((await client.get('/api/me')).status).toBe(200);
    const out = await client.post<Results<{ ok: true; endSessionUrl?: string }>>('/api/logout');
    expect(out.status).toBe(200);
    const endSession = new URL(out.body.results.endSessionUrl as string);
    expect(endSession.origin).toBe(provider.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect((await client.get('/api/me')).status).toBe(401);
    // A password session signs out without the provider.
    const admin = await t.admin();
    expect(
      (await admin.post<Results<{ endSessionUrl?: string }>>('/api/logout')).body.results.endSessionUrl,
    ).toBeUndefined();
  });

  it('PASSWORD_SIGN_IN=0: only administrators sign in with a password', async () => {
    const passwordless = await buildTestApp(oidcEnv({ PASSWORD_SIGN_IN: '0' }));
    try {
      const user = await makeUser(passwordless.ctx.db);
      const answer = await passwordless
        .client()
        .post<Results<{ status: string; error: string }>>('/api/login', {
          username: user.username,
          password: user.password,
        });
      expect(answer.body.results).toEqual({ status: 'invalid', error: MSG_PASSWORD_SIGN_IN_OFF });
      expect((await (await passwordless.admin()).get('/api/me')).status).toBe(200);
      const page = await passwordless.app.inject({ method: 'GET', url: '/login' });
      expect(page.body).toContain('"passwordSignIn":false');
      expect(page.body).toContain('"oidcButtonText":"Sign in with SSO"');
    } finally {
      await passwordless.close();
    }
  });
});

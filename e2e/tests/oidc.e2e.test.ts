import fs from 'node:fs';
import path from 'node:path';
import { MSG_IDENTITY_LAST_WAY_IN, OIDC_BUTTON_TEXT_DEFAULT, OIDC_ERRORS } from '@media/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_TEST_CLIENT, startOidcProvider } from '../../apps/server/test/oidc-provider.ts';
import { apiGet, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  freePort,
  launchBrowser,
  newPage,
  type RunningServer,
  screenshots,
  signIn,
  signOut,
  startServer,
} from '../harness.ts';
import { accessibilityViolations } from '../roles.ts';

/** The sign-in page's button, and what the settings and the prompt make of it. */
const SSO = OIDC_BUTTON_TEXT_DEFAULT;
/** The re-authentication window of the server without password sign-in, in seconds (5 minutes otherwise). */
const REAUTH_WINDOW_SECONDS = 8;

type Me = { id: number; username: string; email: string };

/**
 * What `start` sets going, through the test provider's own pages (oidc-provider's development interactions) as
 * a person goes through them: its login page (any password; the login is the subject), then its consent page.
 * Either may be skipped (the provider remembers this browser's sign-in and grant). Done when the provider has
 * sent the browser back to the product's callback; the caller waits for where that lands.
 */
const throughProvider = async (page: Page, subject: string, start: () => Promise<unknown>) => {
  let returned = false;
  const back = page
    .waitForRequest((request) => new URL(request.url()).pathname === '/api/oidc/callback', {
      timeout: 60_000,
    })
    .then(
      () => {
        returned = true;
      },
      () => undefined,
    );
  await start();
  const login = page.locator('input[name="login"]');
  const consent = page.getByRole('button', { name: 'Continue' });
  for (let step = 0; step < 4 && !returned; step++) {
    let where = '';
    await expect
      .poll(
        async () => {
          if (returned) where = 'back';
          else if (await login.isVisible()) where = 'login';
          else if (await consent.isVisible()) where = 'consent';
          return where;
        },
        { timeout: 30_000 },
      )
      .not.toBe('');
    if (where === 'login') {
      await login.fill(subject);
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await login.waitFor({ state: 'detached' });
    } else if (where === 'consent') {
      await consent.click();
      await consent.waitFor({ state: 'detached' });
    }
  }
  await back;
  expect(returned, `the provider sent the browser back (at ${page.url()})`).toBe(true);
};

/** The provider's button on the sign-in page, then its pages. */
const signInThroughProvider = async (page: Page, productUrl: string, subject: string) => {
  await page.goto(`${productUrl}/login`);
  await throughProvider(page, subject, () => page.getByRole('link', { name: SSO }).click());
};

/** The signed-in user's own settings, from the shell's user link, at the Linked sign-in section. */
const openLinkedSignIn = async (page: Page) => {
  await page.getByTestId('signed-in-user').click();
  await page.getByRole('heading', { name: 'Linked sign-in' }).waitFor();
};

/**
 * Accessibility violations of the page once its sections have loaded (a loading section's Loader carries an
 * aria-label that axe refuses on its span).
 */
const violationsOnceLoaded = async (page: Page) => {
  await expect.poll(() => page.locator('.mantine-Loader-root[aria-label]').count()).toBe(0);
  return accessibilityViolations(page);
};

/** Waits until the session's sign-in is older than the window (reauth.e2e.test.ts): 404 inside, 401 after. */
const untilSignInIsOld = async (context: BrowserContext, baseUrl: string) => {
  const headers = await csrf(context);
  const status = async () =>
    (await context.request.post(`${baseUrl}/api/me/sessions/none/trash`, { data: {}, headers })).status();
  await expect.poll(status, { timeout: (REAUTH_WINDOW_SECONDS + 10) * 1000, interval: 250 }).toBe(401);
};

describe('sign-in with the identity provider (OpenID Connect, issue 32)', () => {
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  /** Password sign-in on, the demo's people. */
  let server: RunningServer;
  /** PASSWORD_SIGN_IN=0, users made at their first sign-in (OIDC_AUTO_REGISTER=1), a short re-authentication window. */
  let providerOnly: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const subject = (name: string) => `${name}-${Date.now()}`;

  beforeAll(async () => {
    // The provider knows the servers' addresses (its redirect URIs) before they start; they discover it at start.
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    provider = await startOidcProvider(urls);
    const oidc = {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    };
    [server, providerOnly, browser] = await Promise.all([
      startServer({
        ...oidc,
        PORT: String(ports[0]),
        PUBLIC_URL: urls[0] as string,
        SEED_DEMO: '1',
        DEMO_PASSWORD: E2E_DEMO_PASSWORD,
      }),
      startServer({
        ...oidc,
        PORT: String(ports[1]),
        PUBLIC_URL: urls[1] as string,
        PASSWORD_SIGN_IN: '0',
        OIDC_AUTO_REGISTER: '1',
        REAUTH_WINDOW_SECONDS: String(REAUTH_WINDOW_SECONDS),
      }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), providerOnly?.stop()]);
    await provider?.close();
  });

  it('links an identity from the settings, signs in with it after signing out, and unlinks it with confirmation', async () => {
    const { context, page } = await newPage(browser);
    const base = server.url;
    const x = subject('linked');
    provider.people.set(x, { email: 'anna.linked@idp.example', name: 'Anna Linked' });

    await signIn(page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await openLinkedSignIn(page);
    const me = await apiGet<Me>(context, `${base}/api/me`);
    await page.getByTestId('linked-identities-empty').waitFor();
    // The provider asks for the password (prompt=login), then brings the browser back to the section.
    await throughProvider(page, x, () => page.getByRole('button', { name: `Link ${SSO}` }).click());
    await page.waitForURL(`${base}/users/user_settings/${me.id}/#linked-sign-in`);
    const rows = page.getByTestId('linked-identities').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const row = rows.first();
    expect(await row.textContent()).toContain('anna.linked@idp.example');
    expect(await row.textContent()).toContain(new URL(provider.issuer).host);
    expect(await violationsOnceLoaded(page)).toEqual([]);
    await screenshots(page, 'user-settings-linked-sign-in');

    // Signed out, then in through the provider as that identity: the same user, in the shell.
    await signOut(page);
    await page.getByRole('link', { name: SSO }).waitFor();
    expect(await violationsOnceLoaded(page)).toEqual([]);
    await screenshots(page, 'sign-in-sso');
    await signInThroughProvider(page, base, x);
    await expect.poll(() => page.getByTestId('signed-in-user').textContent()).toBe('evening-news.editor');
    expect((await apiGet<Me & { signedInWith: string }>(context, `${base}/api/me`)).signedInWith).toBe(
      'oidc',
    );

    // Unlinked after the confirmation (Cancel first keeps it).
    await openLinkedSignIn(page);
    await expect.poll(() => rows.count()).toBe(1);
    const unlink = rows.first().getByRole('button', { name: 'Unlink anna.linked@idp.example' });
    await unlink.click();
    const dialog = page.getByRole('dialog', { name: 'Unlink sign-in' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rows.count()).toBe(1);
    await unlink.click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
    await page.getByTestId('linked-identities-empty').waitFor();

    // A session from the provider signs out there too (its end-session page), then comes back to sign-in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL(/\/login$/);
    // Unlinked: that identity is nobody here any more.
    await signInThroughProvider(page, base, x);
    await page.getByTestId('oidc-error').getByText(OIDC_ERRORS.unknown).waitFor();
    await context.close();
  });

  it("never makes an identity with an existing user's e-mail that user: the sign-in page says it is not linked", async () => {
    const known = await newPage(browser);
    await signIn(known.page, server.url, 'evening-news.viewer', E2E_DEMO_PASSWORD);
    await known.page.getByTestId('signed-in-user').waitFor();
    const { email } = await apiGet<Me>(known.context, `${server.url}/api/me`);
    await known.context.close();

    const { context, page } = await newPage(browser);
    const y = subject('same-address');
    provider.people.set(y, { email, name: 'Same Address' });
    await signInThroughProvider(page, server.url, y);
    await page.waitForURL(`${server.url}/login?oidcError=unknown`);
    await page.getByTestId('oidc-error').getByText(OIDC_ERRORS.unknown).waitFor();
    expect((await context.request.get(`${server.url}/api/me`)).status()).toBe(401);
    await screenshots(page, 'sign-in-sso-unknown');
    await context.close();
  });

  it('accepts an invitation through the provider: signed in as the invited user, with its account', async () => {
    const base = server.url;
    const admin = await newPage(browser);
    await signIn(admin.page, base, 'admin', E2E_ADMIN_PASSWORD);
    await admin.page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number; siteId: number }>(
      admin.context,
      `${base}/api/accounts/byName/evening-news`,
    );
    const roles = await apiGet<{ id: number; name: string }[]>(
      admin.context,
      `${base}/api/account_roles?siteId=${account.siteId}`,
    );
    const email = `invited.${Date.now()}@example.com`;
    const made = await admin.context.request.post(`${base}/api/accounts/${account.id}/invites`, {
      data: { data: [{ email, roleId: roles.find((role) => role.name === 'Viewer')?.id }] },
      headers: await csrf(admin.context),
    });
    expect(made.status(), await made.text()).toBe(200);
    await admin.context.close();
    // The invitation mail, as the mail job writes it without SMTP (DATA_DIR/mail/*.eml).
    const mails = path.join(server.dataDir, 'mail');
    const tokenInMail = () => {
      const texts = fs.existsSync(mails)
        ? fs.readdirSync(mails).map((file) => fs.readFileSync(path.join(mails, file), 'utf8'))
        : [];
      const mail = texts
        .map((text) => text.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
        .find((text) => text.includes(`To: ${email}`));
      return mail?.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1];
    };
    await expect.poll(tokenInMail).toBeTruthy();

    const { context, page } = await newPage(browser);
    const w = subject('invited');
    provider.people.set(w, { email: 'someone@elsewhere.example', name: 'Invited Person' });
    await page.goto(`${base}/invite/${tokenInMail()}`);
    await page.getByRole('link', { name: `Accept with ${SSO}` }).waitFor();
    expect(await violationsOnceLoaded(page)).toEqual([]);
    await screenshots(page, 'invitation-sso');
    await throughProvider(page, w, () => page.getByRole('link', { name: `Accept with ${SSO}` }).click());
    await page.getByTestId('signed-in-user').waitFor();
    const me = await apiGet<Me & { rights: { accounts: number[] } }>(context, `${base}/api/me`);
    // The invitation, not the provider's e-mail claim, says who this is.
    expect(me.email).toBe(email);
    expect(me.rights.accounts).toContain(account.id);
    await context.close();
  });

  it('PASSWORD_SIGN_IN=0: the password form waits behind the administrator link, and an administrator signs in with it', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${providerOnly.url}/login`);
    await page.getByRole('link', { name: SSO }).waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    expect(await violationsOnceLoaded(page)).toEqual([]);
    await screenshots(page, 'sign-in-sso-only');
    await page.getByRole('button', { name: 'Administrator sign-in with a password' }).click();
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel(/^Password/).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('signed-in-user').textContent()).toBe('admin');
    await context.close();
  });

  it("asks a user without a password to confirm it's them at the provider, then comes back; their only sign-in stays", async () => {
    const { context, page } = await newPage(browser);
    const base = providerOnly.url;
    const z = subject('new-person');
    provider.people.set(z, { email: `${z}@idp.example`, name: 'New Person', preferred_username: z });
    // Made at the first sign-in (OIDC_AUTO_REGISTER=1), without a password.
    await signInThroughProvider(page, base, z);
    await expect.poll(() => page.getByTestId('signed-in-user').textContent()).toBe(z);
    await openLinkedSignIn(page);
    const me = await apiGet<Me & { hasPassword: boolean }>(context, `${base}/api/me`);
    expect(me.hasPassword).toBe(false);
    await page.getByTestId('no-password').waitFor();
    const rows = page.getByTestId('linked-identities').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);

    await untilSignInIsOld(context, base);
    const unlink = async () => {
      await rows
        .first()
        .getByRole('button', { name: `Unlink ${z}@idp.example` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Unlink sign-in' });
      await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
    };
    await unlink();
    const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
    await prompt.waitFor();
    // No password to ask for: the provider's button, and what happens after it.
    expect(await prompt.getByLabel(/^Password/).count()).toBe(0);
    await prompt.getByTestId('reauth-provider-note').waitFor();
    expect(await violationsOnceLoaded(page)).toEqual([]);
    await screenshots(page, 'reauth-dialog-provider');
    // The provider's own window: signed in again there, the change goes on by itself in this page.
    const opened = page.waitForEvent('popup');
    await prompt.getByRole('button', { name: `Confirm with ${SSO}` }).click();
    const popup = await opened;
    await throughProvider(popup, z, async () => {});
    await prompt.waitFor({ state: 'hidden' });
    // The window closes itself when the browser lets it; otherwise it says it may be closed.
    if (!popup.isClosed()) await popup.getByTestId('reauth-done').waitFor();
    // Signed in again just now: the unlink went again, and is refused for its own reason.
    await page.getByRole('alert').getByText(MSG_IDENTITY_LAST_WAY_IN).waitFor();
    expect(await prompt.count()).toBe(0);
    expect(await rows.count()).toBe(1);
    await context.close();
  });
});

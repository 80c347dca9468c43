import fs from 'node:fs';
import path from 'node:path';
import { API_TOKEN_PREFIX, MSG_FIELD_REQUIRED_EMPTY } from '@media/contract';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshot,
  signIn,
  signOut,
  useServerAndBrowser,
} from '../harness.ts';

/** The first mail to `to` (any, when not given), as plain text. */
const readMail = async (dataDir: string, to?: string) => {
  const folder = path.join(dataDir, 'mail');
  for (let i = 0; i < 100; i++) {
    const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith('.eml')) : [];
    const mails = files.sort().map((f) => fs.readFileSync(path.join(folder, f), 'utf8'));
    const mail = mails.find((m) => !to || m.includes(`To: ${to}`));
    if (mail) return mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no mail was written');
};

describe('user settings', () => {
  const setup = useServerAndBrowser({
    PUBLIC_URL: 'http://public.example',
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
  });

  it('enrols a second factor, then signs in with password and Verification Code', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await screenshot(page, 'user-settings-enrol');
    await page.getByLabel('Verification Code').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await screenshot(page, 'user-settings-recovery-codes');
    await signOut(page);

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel(/^Password/).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel(/^Verification Code/);
    await codeField.waitFor();
    expect(await page.getByLabel(/^Password/).inputValue()).toBe(E2E_ADMIN_PASSWORD);
    await screenshot(page, 'sign-in-verification-code');
    await codeField.fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('The verification code is not valid');
    // Each code is accepted once; the one that confirmed enrolment is spent, so take the next step's.
    await codeField.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-user').waitFor();
    await context.close();
  });

  it('shows the message a reload carries and scrolls to the element it names', async () => {
    const { context, page } = await newPage(setup.browser, { colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 420 });
    await signIn(page, setup.server.url, 'documentaries.viewer', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const me = (await (await page.request.get(`${setup.server.url}/api/me`)).json()) as {
      results: { id: number };
    };
    await page.goto(
      `${setup.server.url}/users/user_settings/${me.results.id}/?message=Account%20data%20has%20been%20saved&element_id_to_jump_to=second-factor`,
    );
    await page.getByText('Account data has been saved').waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    // The page scrolled down to the named section.
    await expect.poll(() => page.evaluate('window.scrollY')).toBeGreaterThan(0);
    // Another user's settings are theirs: the page says so and offers no form.
    await page.goto(`${setup.server.url}/users/user_settings/${me.results.id + 1}/`);
    await page.getByTestId('not-own-settings').waitFor();
    expect(await page.getByRole('button', { name: 'Change password' }).count()).toBe(0);
    expect(await page.locator('input[type="password"]').count()).toBe(0);
    await context.close();
  });

  it('resets a forgotten password through the mailed link', async () => {
    const { context, page } = await newPage(setup.browser);
    await page.goto(`${setup.server.url}/login`);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel(/^Username or email/).fill('evening-news.editor');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').waitFor();
    const mail = await readMail(setup.server.dataDir, 'evening-news.editor@demo.example');
    const link = mail.match(
      /http:\/\/public\.example(\/users\/user_settings\/\d+\/\?resetToken=[\w-]+&resetType=just_reset)/,
    )?.[1];
    expect(link).toBeTruthy();
    await page.goto(`${setup.server.url}${link}`);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    const newPassword = 'Reset-Passw0rd-2026';
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm new password/).fill(`${newPassword}x`);
    await page.getByText('This password does not match').waitFor();
    await page.getByLabel(/^Confirm new password/).fill(newPassword);
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Your password has been changed as requested').waitFor();
    await page.getByRole('link', { name: 'Go to the sign-in page' }).click();
    await page.waitForURL(/\/login$/);
    const login = await page.request.post(`${setup.server.url}/api/login`, {
      data: { username: 'evening-news.editor', password: newPassword },
      headers: {
        'X-CSRFToken': (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '',
      },
    });
    const body = (await login.json()) as { results: { status: string } };
    expect(body.results.status).toBe('valid');
    await context.close();
  });

  it('changes the password with the current one, in current-password mode', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'sports-desk.logger', E2E_DEMO_PASSWORD);
    await page.getByRole('link', { name: 'Your settings' }).click();
    // Touched and left empty, the current password says so before any submit (spec1 §5).
    await page.getByLabel(/^Current password/).focus();
    await page.getByLabel(/^New password/).focus();
    await page.getByText(MSG_FIELD_REQUIRED_EMPTY).waitFor();
    await page.getByLabel(/^Current password/).fill('wrong-password');
    expect(await page.getByText(MSG_FIELD_REQUIRED_EMPTY).count()).toBe(0);
    // The rules show in their tooltip while the new password has focus.
    await page.getByLabel(/^New password/).focus();
    const rules = page.getByRole('tooltip', { name: 'Password rules' });
    await rules.waitFor();
    // An empty password meets no rule yet, not even "Does not contain the user name".
    expect(await rules.textContent()).not.toContain('✓');
    await screenshot(page, 'password-rules-tooltip');
    await page.getByLabel(/^New password/).fill('Changed-Passw0rd-9');
    await expect.poll(() => rules.textContent()).toContain('✓ Does not contain the user name');
    await page.getByLabel(/^Current password/).focus();
    await rules.waitFor({ state: 'hidden' });
    await page.getByLabel(/^Confirm new password/).fill('Changed-Passw0rd-9');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is not correct').first().waitFor();
    await page.getByLabel(/^Current password/).fill(E2E_DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password updated successfully').first().waitFor();
    // Current-password mode empties the form afterwards.
    await expect.poll(() => page.getByLabel(/^Current password/).inputValue()).toBe('');
    await context.close();
  });

  it('completes the registration of an imported user with Set Password', async () => {
    const { context, page } = await newPage(setup.browser);
    // The site manager creates the user (admin has a second factor by now, from the first test).
    await signIn(page, setup.server.url, 'london.manager', E2E_DEMO_PASSWORD);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const csrf = (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
    const sitesResponse = await page.request.get(`${setup.server.url}/api/sites`);
    const sites = (await sitesResponse.json()) as { results: { id: number }[] };
    expect(sitesResponse.status(), JSON.stringify(sites)).toBe(200);
    const created = await page.request.post(`${setup.server.url}/api/users`, {
      data: {
        users: [{ fullname: 'Nina New', company: 'Northwind', email: 'nina.new@demo.example' }],
        dryRun: false,
        siteId: sites.results[0]?.id,
      },
      headers: { 'X-CSRFToken': csrf },
    });
    expect(created.status()).toBe(200);
    await context.clearCookies();
    const mail = await readMail(setup.server.dataDir, 'nina.new@demo.example');
    const link = mail.match(
      /http:\/\/public\.example(\/users\/user_settings\/\d+\/\?resetToken=[\w-]+&resetType=registration)/,
    )?.[1];
    expect(link).toBeTruthy();
    await page.goto(`${setup.server.url}${link}`);
    await page.getByRole('heading', { name: 'Set Password' }).waitFor();
    await page.getByLabel(/^New password/).fill('Nina-Passw0rd-2026');
    await page.getByLabel(/^Confirm new password/).fill('Nina-Passw0rd-2026');
    await screenshot(page, 'set-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Your password has been changed as requested').waitFor();
    await page.getByRole('link', { name: 'Go to the sign-in page' }).click();
    await signIn(page, setup.server.url, 'nina.new', 'Nina-Passw0rd-2026');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await context.close();
  });
  it('makes an API token shown once, which a script then uses, sees its last use and revokes it', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'sports-desk.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByTestId('api-tokens-empty').waitFor();
    await page.getByLabel('Token name').fill('Newsroom sync');
    await choose(page, page.getByRole('combobox', { name: 'Scope' }), 'Read: look only (GET requests)');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('new-api-token-value');
    await shown.waitFor();
    const token = ((await shown.textContent()) ?? '').trim();
    expect(token).toMatch(new RegExp(`^${API_TOKEN_PREFIX}`));
    await screenshot(page, 'user-settings-api-token-created');

    // A script (no cookie, no anti-forgery header) reads with it, and may not write.
    const script = (method: string) =>
      fetch(`${setup.server.url}/api/me`, { method, headers: { authorization: `Bearer ${token}` } });
    const me = await script('GET');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { results: { username: string } }).results.username).toBe(
      'sports-desk.editor',
    );
    expect((await script('POST')).status).toBe(403);

    // Once dismissed (or on a reload) the token is never shown again; its last use is.
    await page.getByRole('button', { name: 'Done' }).click();
    // The use is noted off the request's path: the page shows it once written.
    await expect
      .poll(async () => {
        const list = await page.request.get(`${setup.server.url}/api/me/apiTokens`);
        return ((await list.json()) as { results: { lastUsedAt: string | null }[] }).results[0]?.lastUsedAt;
      })
      .toBeTruthy();
    await page.reload();
    const row = page.getByTestId('api-tokens').getByRole('row', { name: /Newsroom sync/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Read');
    expect(await row.getByRole('cell').nth(4).textContent()).not.toBe('Never');
    expect(await page.locator('body').textContent()).not.toContain(token);
    await screenshot(page, 'user-settings-api-tokens');

    await page.getByRole('button', { name: 'Revoke Newsroom sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke API token' });
    await dialog.waitFor();
    const revoked = page.waitForResponse((response) => response.url().endsWith('/trash'), {
      timeout: 60_000,
    });
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    expect((await revoked).status()).toBe(200);
    await page.getByTestId('api-tokens-empty').waitFor({ timeout: 60_000 });
    expect((await script('GET')).status).toBe(401);
    await context.close();
  });
});

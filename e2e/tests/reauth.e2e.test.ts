import { API_TOKEN_PREFIX, MSG_CURRENT_PASSWORD_WRONG, MSG_REAUTH_REQUIRED } from '@media/contract';
import { generate } from 'otplib';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import { choose, E2E_DEMO_PASSWORD, newPage, screenshots, signIn, useServerAndBrowser } from '../harness.ts';
import { accessibilityViolations } from '../roles.ts';

/**
 * The re-authentication window of this file's server, in seconds (5 minutes otherwise): long enough that the
 * retry after the password still falls in it on a loaded CI machine.
 */
const REAUTH_WINDOW_SECONDS = 6;

/**
 * Waits until the session's sign-in is older than the window: a change that needs a recent one is then
 * refused for it. Ending a session that does not exist answers 404 inside the window, 401 reauth after it.
 */
const untilSignInIsOld = async (context: BrowserContext, baseUrl: string) => {
  const headers = await csrf(context);
  const status = async () =>
    (await context.request.post(`${baseUrl}/api/me/sessions/none/trash`, { data: {}, headers })).status();
  await expect.poll(status, { timeout: (REAUTH_WINDOW_SECONDS + 10) * 1000, interval: 250 }).toBe(401);
};

describe("sign in again before a sensitive change (Confirm it's you)", () => {
  const setup = useServerAndBrowser({
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    REAUTH_WINDOW_SECONDS: String(REAUTH_WINDOW_SECONDS),
  });

  it('asks for the password once the sign-in is older than the window, then makes the API token it was asked for', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'sports-desk.viewer', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByTestId('api-tokens-empty').waitFor();

    await untilSignInIsOld(context, setup.server.url);

    await page.getByLabel('Token name').fill('Night sync');
    await choose(page, page.getByRole('combobox', { name: 'Scope' }), 'Write: everything you may do');
    await page.getByRole('button', { name: 'Create token' }).click();
    const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain(MSG_REAUTH_REQUIRED);
    // No re-login dialog: the session stands.
    expect(await page.getByRole('dialog', { name: /^Password required for/ }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'reauth-dialog');

    // A wrong password is said under the field; the prompt stays.
    await prompt.getByLabel(/^Password/).fill('not-the-password');
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await prompt.getByText(MSG_CURRENT_PASSWORD_WRONG).waitFor();
    await prompt.getByLabel(/^Password/).fill(E2E_DEMO_PASSWORD);
    const made = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/me/apiTokens') &&
        response.request().method() === 'POST' &&
        response.ok(),
    );
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await prompt.waitFor({ state: 'hidden' });
    // The original request went again by itself and its token is shown.
    await made;
    const shown = page.getByTestId('new-api-token-value');
    await shown.waitFor();
    expect(((await shown.textContent()) ?? '').trim()).toMatch(new RegExp(`^${API_TOKEN_PREFIX}`));
    await page
      .getByTestId('api-tokens')
      .getByRole('row', { name: /Night sync/ })
      .waitFor();
    await context.close();
  });

  it('fails the change with the reason when the prompt is cancelled, and the user stays signed in', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'sports-desk.logger', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByTestId('api-tokens-empty').waitFor();
    await untilSignInIsOld(context, setup.server.url);
    await page.getByLabel('Token name').fill('Never made');
    await page.getByRole('button', { name: 'Create token' }).click();
    const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await page.getByRole('alert').filter({ hasText: MSG_REAUTH_REQUIRED }).waitFor();
    expect(await page.getByTestId('api-tokens-empty').count()).toBe(1);
    // Still signed in: a reload shows the settings, not the sign-in page.
    await page.reload();
    await page.getByTestId('api-tokens-empty').waitFor();
    expect(new URL(page.url()).pathname).not.toBe('/login');
    await context.close();
  });

  it('asks for the verification code too when the server says the user has a second factor', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'evening-news.logger', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByTestId('api-tokens-empty').waitFor();
    // A second factor turned on beside the page (a fresh sign-in first), which still knows the user without.
    const base = setup.server.url;
    const headers = await csrf(context);
    const me = await apiGet<{ id: number }>(context, `${base}/api/me`);
    const post = async <T>(path: string, data: unknown) => {
      const response = await context.request.post(`${base}${path}`, { data, headers });
      expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
      return ((await response.json()) as { results: T }).results;
    };
    await post('/api/me/reauth', { password: E2E_DEMO_PASSWORD });
    const { secret } = await post<{ secret: string }>(`/api/users/${me.id}/mfa/enrol`, {});
    await post(`/api/users/${me.id}/mfa/confirm`, { code: await generate({ secret }) });

    await untilSignInIsOld(context, base);
    await page.getByLabel('Token name').fill('Guarded');
    await page.getByRole('button', { name: 'Create token' }).click();
    const prompt = page.getByRole('dialog', { name: "Confirm it's you" });
    await prompt.waitFor();
    await prompt.getByLabel(/^Password/).fill(E2E_DEMO_PASSWORD);
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    const code = prompt.getByLabel(/^Verification Code/);
    await code.waitFor();
    await screenshots(page, 'reauth-dialog-code');
    // Each code is accepted once: the one that confirmed the second factor is spent, so take the next step's.
    await code.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await prompt.getByRole('button', { name: 'Confirm' }).click();
    await prompt.waitFor({ state: 'hidden' });
    await page.getByTestId('new-api-token-value').waitFor();
    await page
      .getByTestId('api-tokens')
      .getByRole('row', { name: /Guarded/ })
      .waitFor();
    await context.close();
  });
});

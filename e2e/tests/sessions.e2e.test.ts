import { MSG_SESSIONS_ENDED_BY_ADMIN } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';
import { accessibilityViolations } from '../roles.ts';

/** The re-login dialog a page shows once its session has ended on the server. */
const reloginDialog = (page: Page) => page.getByRole('dialog', { name: /^Password required for/ });

/**
 * A click of the ended session's page, then its re-login dialog. The page's long poll may meet the 401 first
 * and open the dialog, whose backdrop then takes the click: either way the dialog is what follows.
 */
const nextActionMeetsRelogin = async (page: Page, name: string) => {
  await page
    .getByRole('link', { name })
    .click({ timeout: 5000 })
    .catch(() => undefined);
  await reloginDialog(page).waitFor();
};

describe('sessions (ASVS V7): own sessions, and administrators', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('lists both sessions of a user signed in twice, ends the other with confirmation, and that one must sign in again; then all others at once', async () => {
    // A viewer: the demo data gives editors and loggers a session of a "Demo browser" already.
    const user = 'documentaries.viewer';
    const other = await newPage(setup.browser);
    await signIn(other.page, setup.server.url, user, E2E_DEMO_PASSWORD);
    await other.page.getByTestId('signed-in-user').waitFor();
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, user, E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();

    const rows = page.getByTestId('sessions').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // This session first, marked; the other has End.
    expect(await rows.first().textContent()).toContain('This session');
    expect(await rows.nth(1).textContent()).not.toContain('This session');
    expect(
      await rows
        .first()
        .getByRole('button', { name: /^End the session of/ })
        .count(),
    ).toBe(0);
    await page.getByRole('button', { name: 'End all other sessions' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'user-settings-sessions');

    await rows
      .nth(1)
      .getByRole('button', { name: /^End the session of/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'End session' });
    await dialog.waitFor();
    const ended = page.waitForResponse((response) =>
      /\/api\/me\/sessions\/[^/]+\/trash$/.test(response.url()),
    );
    await dialog.getByRole('button', { name: 'End', exact: true }).click();
    expect((await ended).status()).toBe(200);
    await page.getByTestId('sessions-only-this').waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await page.getByRole('button', { name: 'End all other sessions' }).count()).toBe(0);

    // The ended browser's next action meets the re-login dialog; this one is still signed in.
    await nextActionMeetsRelogin(other.page, 'Your settings');
    await page.reload();
    await page.getByTestId('sessions-only-this').waitFor();
    expect(await reloginDialog(page).count()).toBe(0);

    // Signed in once more elsewhere, then every other session ended at once.
    const third = await newPage(setup.browser);
    await signIn(third.page, setup.server.url, user, E2E_DEMO_PASSWORD);
    await third.page.getByTestId('signed-in-user').waitFor();
    await page.reload();
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('button', { name: 'End all other sessions' }).click();
    const endAll = page.getByRole('dialog', { name: 'End all other sessions' });
    await endAll.waitFor();
    expect(await endAll.textContent()).toContain('End 1 other session?');
    await endAll.getByRole('button', { name: 'End all other sessions' }).click();
    await page.getByTestId('sessions-only-this').waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByText('Ended 1 other session').waitFor();
    await nextActionMeetsRelogin(third.page, 'Your settings');

    // The administrators' page is not theirs: reached by its address, it says so.
    await page.goto(`${setup.server.url}/admin/sessions`);
    await page.getByText(/not available to your role/).waitFor();
    expect(await page.getByRole('link', { name: 'Sessions and API tokens' }).count()).toBe(0);
    await context.close();
    await other.context.close();
    await third.context.close();
  });

  it("lets an administrator revoke a user's API token, end that user's sessions, then everyone's but their own", async () => {
    const user = 'evening-news.viewer';
    const victim = await newPage(setup.browser);
    await signIn(victim.page, setup.server.url, user, E2E_DEMO_PASSWORD);
    await victim.page.getByTestId('signed-in-user').waitFor();
    const made = await victim.context.request.post(`${setup.server.url}/api/me/apiTokens`, {
      data: { name: 'Archive export', scope: 'read', expiresAt: null },
      headers: await csrf(victim.context),
    });
    expect(made.status(), await made.text()).toBe(200);
    const token = ((await made.json()) as { results: { token: string } }).results.token;
    const script = () =>
      fetch(`${setup.server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await script()).toBe(200);
    const bystander = await newPage(setup.browser);
    await signIn(bystander.page, setup.server.url, 'sports-desk.logger', E2E_DEMO_PASSWORD);
    await bystander.page.getByTestId('signed-in-user').waitFor();

    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Sessions and API tokens' }).click();
    await page.getByRole('heading', { name: 'Sessions and API tokens' }).waitFor();
    await page.getByTestId('no-user-chosen').waitFor();

    // Choose the user by searching their name.
    await page.getByRole('combobox', { name: 'User' }).fill('evening-news.vi');
    await page.getByRole('option', { name: new RegExp(`^${user.replace('.', '\\.')}`) }).click();
    const tokens = page.getByTestId('user-api-tokens');
    const row = tokens.getByRole('row', { name: /Archive export/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('Read');
    // The token's prefix only, never the token.
    const prefix = ((await row.getByRole('cell').nth(2).textContent()) ?? '').replace('…', '');
    expect(prefix.length).toBeGreaterThan(0);
    expect(token.startsWith(prefix)).toBe(true);
    expect(await page.locator('body').textContent()).not.toContain(token);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'admin-sessions');

    await page.getByRole('button', { name: 'Revoke Archive export' }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke API token' });
    await revokeDialog.waitFor();
    expect(await revokeDialog.textContent()).toContain(`Revoke "Archive export" of ${user}?`);
    const revoked = page.waitForResponse((response) => /\/apiTokens\/\d+\/trash$/.test(response.url()));
    await revokeDialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    expect((await revoked).status()).toBe(200);
    await page.getByTestId('user-api-tokens-empty').waitFor();
    expect(await script()).toBe(401);

    await page.getByRole('button', { name: "End this user's sessions" }).click();
    const endDialog = page.getByRole('dialog', { name: "End this user's sessions" });
    await endDialog.waitFor();
    await endDialog.getByRole('button', { name: 'End sessions' }).click();
    await expect
      .poll(() => page.getByTestId('user-sessions-ended').textContent())
      .toBe(`Ended 1 session of ${user}.`);
    // Their next action: the re-login dialog, saying an administrator ended the session.
    await nextActionMeetsRelogin(victim.page, 'Your settings');
    expect(await victim.page.getByTestId('relogin-reason').textContent()).toBe(MSG_SESSIONS_ENDED_BY_ADMIN);

    // Everyone's: the bystander is signed out, the administrator is not.
    await page.getByRole('button', { name: "End everyone's sessions" }).click();
    const everyoneDialog = page.getByRole('dialog', { name: "End everyone's sessions" });
    await everyoneDialog.waitFor();
    expect(await everyoneDialog.textContent()).toContain('You stay signed in');
    await everyoneDialog.getByRole('button', { name: "End everyone's sessions" }).click();
    await expect
      .poll(() => page.getByTestId('everyone-sessions-ended').textContent())
      .toMatch(/^Ended \d+ sessions?\.$/);
    await nextActionMeetsRelogin(bystander.page, 'Your settings');
    await page.reload();
    await page.getByRole('heading', { name: 'Sessions and API tokens' }).waitFor();
    expect(await reloginDialog(page).count()).toBe(0);
    await context.close();
    await victim.context.close();
    await bystander.context.close();
  });
});

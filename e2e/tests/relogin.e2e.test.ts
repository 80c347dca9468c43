import { describe, expect, it } from 'vitest';
import { E2E_DEMO_PASSWORD, newPage, screenshot, signIn, useServerAndBrowser } from '../harness.ts';

const NEW_PASSWORD = 'Changed-Passw0rd-2';
const USER = 'sports-desk.viewer';

describe('re-login dialog', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('opens when the session ends on the server, and the original call completes after the password', async () => {
    const a = await newPage(setup.browser);
    await signIn(a.page, setup.server.url, USER, E2E_DEMO_PASSWORD);
    await a.page.getByTestId('signed-in-user').waitFor();

    // A second browser changes the password, which ends every other session of the user.
    const b = await newPage(setup.browser);
    await signIn(b.page, setup.server.url, USER, E2E_DEMO_PASSWORD);
    await b.page.getByTestId('signed-in-user').click();
    await b.page.getByLabel(/^Current password/).fill(E2E_DEMO_PASSWORD);
    await b.page.getByLabel(/^New password/).fill(NEW_PASSWORD);
    await b.page.getByLabel(/^Confirm new password/).fill(NEW_PASSWORD);
    await b.page.getByRole('button', { name: 'Change password' }).click();
    await b.page.getByText('Password updated successfully').waitFor();

    await a.page.getByTestId('signed-in-user').click();
    const dialog = a.page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `Password required for ${USER.replace('.viewer', '')} Viewer (${USER})`,
    );
    expect(await dialog.textContent()).toContain(
      'Your session has timed out. Please enter the password again.',
    );
    await a.page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    await screenshot(a.page, 'relogin-dialog');
    await a.page.emulateMedia({ colorScheme: 'dark' });
    await a.page.waitForTimeout(300);
    await screenshot(a.page, 'relogin-dialog-dark');
    await a.page.emulateMedia({ colorScheme: 'light' });
    // Submitted empty, the password says it is required (spec2 §5).
    await dialog.getByRole('button', { name: 'Login' }).click();
    await dialog.getByText('This field is required').waitFor();
    await dialog.getByLabel(/^Password/).fill('wrong-password');
    expect(await dialog.getByText('This field is required').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Login' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await dialog.getByRole('button', { name: 'Login' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The call that met the 401 (the second-factor status) was retried and its section shows.
    await a.page.getByRole('button', { name: 'Set up two-factor authentication' }).waitFor();
    await a.context.close();
    await b.context.close();
  });
});

import { describe, expect, it } from 'vitest';
import {
  E2E_ADMIN_PASSWORD,
  newPage,
  screenshot,
  signIn,
  signOut,
  useServerAndBrowser,
  watchCspViolations,
} from '../harness.ts';

describe('sign-in page', () => {
  const setup = useServerAndBrowser();

  it('signs admin in through the page and shows the shell, with no Content-Security-Policy violation', async () => {
    const { context, page } = await newPage(setup.browser);
    const cspViolations = await watchCspViolations(page);
    // React Router warns on a full load whose first route shows nothing while its code loads.
    const fallbackWarnings: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('HydrateFallback')) fallbackWarnings.push(message.text());
    });
    await page.goto(`${setup.server.url}/`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Username').waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await expect
      .poll(
        () =>
          page
            .getByTestId('signed-in-user')
            .textContent()
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe('admin');
    expect(new URL(page.url()).pathname).toBe('/');
    await screenshot(page, 'shell');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(300);
    await screenshot(page, 'shell-dark');
    expect(cspViolations()).toEqual([]);
    await page.goto(`${setup.server.url}/accounts`);
    await page.getByRole('table').first().waitFor();
    expect(fallbackWarnings).toEqual([]);
    const icon = await page.request.get(`${setup.server.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/icon/);
    await context.close();
  });

  it('shows the server error for a wrong password and stays on the sign-in page', async () => {
    const { context, page } = await newPage(setup.browser, { colorScheme: 'dark' });
    await signIn(page, setup.server.url, 'admin', 'not-the-password');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Invalid username or password');
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'sign-in-error-dark');
    await context.close();
  });

  // One retry while the cause of the CI-only time-out is unknown; a failed attempt prints what it heard.
  it('signs out back to the sign-in page', { retry: 1 }, async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await signOut(page);
    const me = await page.request.get(`${setup.server.url}/api/me`);
    expect(me.status()).toBe(401);
    await context.close();
  });
});

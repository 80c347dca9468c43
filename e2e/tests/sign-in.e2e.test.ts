import { describe, expect, it } from 'vitest';
import {
  E2E_ADMIN_PASSWORD,
  newPage,
  screenshot,
  signIn,
  useServerAndBrowser,
  watchCspViolations,
} from '../harness.ts';

describe('sign-in page', () => {
  const setup = useServerAndBrowser();

  it('signs admin in through the page and shows the shell, with no Content-Security-Policy violation', async () => {
    const { context, page } = await newPage(setup.browser);
    const cspViolations = await watchCspViolations(page);
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
    // What the page asked and heard after the click, for the message if it never reaches the sign-in page
    // (seen twice in CI under load, never by hand).
    const heard: string[] = [];
    const started = Date.now();
    const note = (text: string) => heard.push(`${Date.now() - started} ms ${text}`);
    page.on('response', (r) => note(`${r.request().method()} ${new URL(r.url()).pathname} ${r.status()}`));
    page.on('requestfailed', (r) =>
      note(`${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`),
    );
    page.on('console', (m) => note(`console ${m.type()}: ${m.text()}`));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/).catch(async (error: Error) => {
      const report = `${error.message}\nafter the click:\n${heard.join('\n')}\nat ${page.url()}`;
      console.warn(`sign-out did not reach /login: ${report}`);
      await context.close();
      throw new Error(report);
    });
    const me = await page.request.get(`${setup.server.url}/api/me`);
    expect(me.status()).toBe(401);
    await context.close();
  });
});

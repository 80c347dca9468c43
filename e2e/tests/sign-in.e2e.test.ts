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

/** Issue 31's budget of the sign-in page: scripts requested, and their bytes on the wire. */
const SIGN_IN_MAX_SCRIPTS = 20;
const SIGN_IN_MAX_SCRIPT_BYTES = 150 * 1024;

describe('sign-in page', () => {
  const setup = useServerAndBrowser();

  it('receives the scripts of the sign-in page compressed: brotli when the browser asks for it, gzip when only that', async () => {
    const { context, page } = await newPage(setup.browser);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const scripts = new Map<string, { url: string; encoding: string | undefined; bytes: number }>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type !== 'Script') return;
      const headers = Object.fromEntries(
        Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
      scripts.set(event.requestId, {
        url: event.response.url,
        encoding: headers['content-encoding'],
        bytes: 0,
      });
    });
    cdp.on('Network.loadingFinished', (event) => {
      const script = scripts.get(event.requestId);
      if (script) script.bytes = event.encodedDataLength;
    });
    await page.goto(`${setup.server.url}/login`);
    await page.getByLabel('Username').waitFor();
    await expect.poll(() => [...scripts.values()].every((script) => script.bytes > 0)).toBe(true);
    const received = [...scripts.values()];
    expect(received.length).toBeGreaterThan(0);
    expect(received.filter((script) => script.encoding !== 'br').map((script) => script.url)).toEqual([]);
    // Issue 31: the sign-in page light, as Chromium receives it (headers included): at most 20 scripts and
    // 150 kB. The toasts, the dialogs' manager and the re-login dialog load when first needed.
    expect(received.length).toBeLessThanOrEqual(SIGN_IN_MAX_SCRIPTS);
    const bytes = received.reduce((sum, script) => sum + script.bytes, 0);
    expect(bytes).toBeLessThanOrEqual(SIGN_IN_MAX_SCRIPT_BYTES);
    // What the entry weighs on the wire, against what it is on disk: compression reached the browser.
    const entry = received.find((script) => /\/assets\/index-[^/]+\.js$/.test(script.url));
    const plain = await fetch(entry?.url ?? '', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(entry?.bytes ?? 0).toBeLessThan((await plain.arrayBuffer()).byteLength / 2);
    const gzip = await fetch(entry?.url ?? '', { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gzip.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await gzip.arrayBuffer();
    const index = await fetch(`${setup.server.url}/login`);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    await index.arrayBuffer();
    await context.close();
  });

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

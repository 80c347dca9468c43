import { ICON_MESSAGES, iconBankUrl, MEDIA_ICON_BANK, NODE_MESSAGES } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshot,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const ACCOUNT = 'e2e-widgets';
const ROOT = `/${ACCOUNT}`;
const LONG_PRODUCTION = 'The evening news and weather production of the London newsroom, every weekday';
const MEDIA_BANK = iconBankUrl(MEDIA_ICON_BANK);

const row = (page: Page, id: string) => page.locator(`tr[data-row-id="${id}"]`);
const folderIcons = (page: Page) => page.locator('svg[data-icon="media#folder"]');

/** The width the browser drew a sprite's `<use>` at: 0 until the sprite file is loaded and has the symbol. */
const drawnWidth = (page: Page) =>
  folderIcons(page)
    .first()
    .locator('use')
    .evaluate((use) => (use as unknown as { getBBox: () => { width: number } }).getBBox().width);

describe('shared widgets', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('draws node icons from the media sprite, sizes tables to the window and cuts long texts', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    // The sprite is a static file under /furniture/img/, served as SVG.
    const sprite = await context.request.get(`${base}${MEDIA_BANK}`);
    expect(sprite.status()).toBe(200);
    expect(sprite.headers()['content-type']).toContain('image/svg+xml');
    expect(await sprite.text()).toContain('<symbol id="folder"');

    const [london] = await apiGet<{ id: number }[]>(context, `${base}/api/sites?searchText=London`);
    const created = await context.request.post(`${base}/api/accounts`, {
      data: { name: ACCOUNT, siteId: london?.id, productionName: LONG_PRODUCTION },
      headers: await csrf(context),
    });
    expect(created.status(), await created.text()).toBe(200);

    await page.goto(`${base}/accounts/${ACCOUNT}/media`);
    await page.getByText(NODE_MESSAGES.noChildren).waitFor();
    await page.getByRole('button', { name: 'New folder' }).click();
    const dialog = page.getByRole('dialog', { name: /^New folder in/ });
    await dialog.getByLabel('Folder name').fill('Rushes');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await row(page, `${ROOT}/Rushes`).waitFor();

    // The folder's icon is the sprite's graphic, drawn by the browser (the page's CSP lets it load).
    const icon = row(page, `${ROOT}/Rushes`).locator('svg[data-icon="media#folder"] use');
    expect(await icon.getAttribute('href')).toBe(`${MEDIA_BANK}#folder`);
    await expect.poll(() => drawnWidth(page)).toBeGreaterThan(0);
    expect(await page.locator('[data-icon-fallback]').count()).toBe(0);

    // The selection sidebar of the table is 50 px wide (a fixed-layout table wider than its columns shares
    // the spare width among all of them, so the drawn width may be a little more).
    const sidebar = page.locator('thead th').first();
    expect(await sidebar.evaluate((th) => (th as unknown as { style: { width: string } }).style.width)).toBe(
      '50px',
    );
    expect((await sidebar.boundingBox())?.width).toBeGreaterThanOrEqual(50);
    await screenshot(page, 'widgets-media-icons');

    // The accounts table's body is the window's height less 200, followed when the window is resized.
    await page.goto(`${base}/accounts`);
    const scroll = page.getByTestId('data-table-scroll');
    const maxHeight = () =>
      scroll.evaluate((element) => (element as unknown as { style: { maxHeight: string } }).style.maxHeight);
    await expect.poll(maxHeight).toBe('600px');
    await page.setViewportSize({ width: 1280, height: 700 });
    await expect.poll(maxHeight).toBe('500px');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A production name too long for its column ends in an ellipsis; its full text shows as a tooltip.
    const accountRow = page.locator('tbody tr[data-row-id]').filter({ hasText: ACCOUNT }).first();
    const cut = accountRow.getByText(LONG_PRODUCTION);
    await expect.poll(() => cut.getAttribute('data-truncated')).toBe('true');
    await cut.hover();
    await page.getByRole('tooltip').filter({ hasText: LONG_PRODUCTION }).waitFor();
    await screenshot(page, 'widgets-ellipsis-tooltip');
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    // A text that fits (a demo account's production name) has no tooltip.
    const fits = page.locator('tbody').getByText('Evening News', { exact: true });
    expect(await fits.getAttribute('data-truncated')).toBeNull();
    await fits.hover();
    await page.waitForTimeout(1500);
    expect(await page.getByRole('tooltip').count()).toBe(0);
    await context.close();
  });

  it('shows the fallback and the never-removed alert for an unknown icon, and logs it once', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    // The page's clock runs as usual until the test moves it past a toast's life below.
    await page.clock.install();
    // A media bank without its folder graphic.
    const original = await (await fetch(`${base}${MEDIA_BANK}`)).text();
    await page.route(`**${MEDIA_BANK}`, (route) =>
      route.fulfill({
        contentType: 'image/svg+xml',
        body: original.replace(/<symbol id="folder"[\s\S]*?<\/symbol>/, ''),
      }),
    );
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/${ACCOUNT}/media`);
    await row(page, `${ROOT}/Rushes`).waitFor();

    const notFound = ICON_MESSAGES.notFound('folder', MEDIA_ICON_BANK);
    const alert = page.locator('.mantine-Notification-root').filter({ hasText: notFound });
    await alert.waitFor();
    expect(await alert.getAttribute('data-alert-type')).toBe('danger');
    await expect.poll(() => page.locator('[data-icon-fallback="media#folder"]').count()).toBeGreaterThan(1);
    await screenshot(page, 'widgets-unknown-icon');
    // Never removed: still there after the 10 s an alert toast lasts, raised and logged once for every icon.
    await page.clock.fastForward(11_000);
    // …and past the closing transition a removed toast would go through.
    await page.clock.fastForward(1_000);
    expect(await alert.count()).toBe(1);
    expect(await alert.textContent()).not.toContain('×');
    expect(warnings.filter((text) => text.includes("'folder'"))).toHaveLength(1);

    // A bank that cannot be loaded: 'Error: …' and the fallback.
    await page.unroute(`**${MEDIA_BANK}`);
    await page.route(`**${MEDIA_BANK}`, (route) => route.abort());
    await page.reload();
    await row(page, `${ROOT}/Rushes`).waitFor();
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: /^Error: / })
      .first()
      .waitFor();
    expect(await page.locator('[data-icon-fallback="media#folder"]').count()).toBeGreaterThan(1);
    await context.close();
  });
});

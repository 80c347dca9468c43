import { MSG_USER_SEARCH_FAILED } from '@media/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet } from '../api.ts';
import { E2E_ADMIN_PASSWORD, E2E_DEMO_PASSWORD, newPage, signIn, useServerAndBrowser } from '../harness.ts';

/** Presses on `from`, moves in steps past the drag threshold (100 ms, 5 px) to `to`, and lets go. */
const dragOver = async (page: Page, from: Locator, to: Locator) => {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('nothing to drag over');
  // From the right of the row (clear of its checkbox and links), within the window: a wide table scrolls.
  const viewport = page.viewportSize();
  const x = Math.min(start.x + start.width, viewport?.width ?? Number.POSITIVE_INFINITY) - 20;
  await page.mouse.move(x, start.y + 5);
  await page.mouse.down();
  await page.waitForTimeout(150);
  for (let step = 1; step <= 6; step++) {
    await page.mouse.move(x - step * 10, start.y + 5 + ((end.y + end.height - 5 - start.y - 5) * step) / 6);
    await page.waitForTimeout(120);
  }
  await page.mouse.up();
};

describe('spec1 details: drag selection, failed loads and searches', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('selects media and queue items by drawing a rectangle over their rows', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    await page.goto(
      `${base}/accounts/evening-news/media?path=${encodeURIComponent('/evening-news/News/Today')}`,
    );
    const rows = page.locator('[data-testid="data-table-scroll"] tr[data-select-id]');
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await dragOver(page, rows.nth(0), rows.nth(1));
    await expect
      .poll(() => page.locator('[data-testid="data-table-scroll"] input[type="checkbox"]:checked').count())
      .toBeGreaterThanOrEqual(2);

    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    await page.goto(`${base}/accounts/${account.id}/ingestQueue`);
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await dragOver(page, rows.nth(0), rows.nth(1));
    await expect
      .poll(() => page.locator('[data-testid="data-table-scroll"] input[type="checkbox"]:checked').count())
      .toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('raises a danger alert and shows the empty list when the accounts cannot be loaded', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.route('**/api/accounts?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'Database unavailable', code: 'unavailable' } }),
      }),
    );
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByText('An error occurred while loading accounts: Database unavailable').first().waitFor();
    await page.getByTestId('data-table-empty').waitFor();
    await context.close();
  });

  it('says so when the manager search fails', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.getByRole('link', { name: 'Administrators' }).click();
    await page.getByRole('table', { name: 'managers' }).getByText('admin', { exact: true }).waitFor();
    await page.route('**/api/users?*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"message":"boom"}}' }),
    );
    await page.getByLabel('Add manager').fill('Gus');
    await page.getByText(MSG_USER_SEARCH_FAILED).waitFor();
    await context.close();
  });
});

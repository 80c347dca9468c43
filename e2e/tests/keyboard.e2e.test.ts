import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, E2E_DEMO_PASSWORD, newPage, signIn, useServerAndBrowser } from '../harness.ts';

/** Where the keyboard's focus is: inside the open dialog, and how it is drawn. */
const focusState = (page: import('playwright-core').Page) =>
  page.evaluate(`(() => {
    const active = document.activeElement;
    const style = active ? getComputedStyle(active) : null;
    return {
      inDialog: Boolean(active?.closest('[role="dialog"]')),
      name: active?.getAttribute('aria-label') || active?.textContent?.trim() || '',
      outline: style ? style.outlineStyle + ' ' + style.outlineWidth : '',
    };
  })()`) as Promise<{ inDialog: boolean; name: string; outline: string }>;

/** Issue 18 item 8: the media manager without a mouse — focus drawn, a dialog keeps and returns it. */
describe('keyboard use', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('draws the focus, keeps it inside a dialog and gives it back when the dialog closes', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${setup.server.url}/accounts/evening-news/media`);
    const newFolder = page.getByRole('button', { name: 'New folder' });
    await newFolder.waitFor();
    // Reached by the keyboard: the focus is drawn (Mantine's focus ring on :focus-visible).
    await newFolder.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const onButton = await focusState(page);
    expect(onButton.name).toBe('New folder');
    expect(onButton.outline).not.toMatch(/^none|^\S+ 0px$/);

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect.poll(async () => (await focusState(page)).inDialog).toBe(true);
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press('Tab');
      expect((await focusState(page)).inDialog, `Tab ${step + 1} stays in the dialog`).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect((await focusState(page)).inDialog).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await focusState(page)).name).toBe('New folder');
    await context.close();
  });

  it('moves between the rows of a table by the arrow keys, column kept', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${setup.server.url}/accounts`);
    const rows = page.locator('tbody tr[data-row-id]');
    await expect.poll(() => rows.count()).toBeGreaterThan(2);
    const nameIn = (row: number) => rows.nth(row).locator('td a').first();
    const [first, second] = [await nameIn(0).textContent(), await nameIn(1).textContent()];
    await nameIn(0).focus();
    await page.keyboard.press('ArrowDown');
    expect((await focusState(page)).name).toBe(second);
    await page.keyboard.press('ArrowUp');
    expect((await focusState(page)).name).toBe(first);
    // A row's checkbox keeps its column too.
    const boxes = page.locator('tbody tr[data-row-id] input[type="checkbox"]');
    if ((await boxes.count()) > 1) {
      await boxes.nth(0).focus();
      await page.keyboard.press('ArrowDown');
      expect(await boxes.nth(1).evaluate((box) => box === box.ownerDocument.activeElement)).toBe(true);
    }
    await context.close();
  });
});

import type { APIRequestContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { E2E_ADMIN_PASSWORD, newPage, screenshot, signIn, useServerAndBrowser } from '../harness.ts';

const LOCKED_USERS = 12;

/** The address user `n` fails from; a user is locked at one address (the lock-out key names both). */
const addressOf = (user: number) => `10.77.0.${user + 1}`;
const lockKey = (user: number) => `user:locked-${String(user).padStart(2, '0')} from ${addressOf(user)}`;

/** Locks user names by failing their sign-in 5 times, each user from its own (forwarded) address. */
const lockUsers = async (request: APIRequestContext, baseUrl: string) => {
  await request.get(`${baseUrl}/api/passwordRules`);
  const state = await request.storageState();
  const token = state.cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
  for (let user = 0; user < LOCKED_USERS; user++) {
    for (let attempt = 0; attempt < 5; attempt++) {
      await request.post(`${baseUrl}/api/login`, {
        data: { username: `locked-${String(user).padStart(2, '0')}`, password: 'wrong' },
        headers: { 'X-CSRFToken': token, 'X-Forwarded-For': addressOf(user) },
      });
    }
  }
};

describe('sign-in lock-outs page (DataTable)', () => {
  const setup = useServerAndBrowser({ TRUST_PROXY: '1' });

  it('lists, sorts, pages, selects with the keyboard, hides a column and lifts with confirmation', async () => {
    const { context, page } = await newPage(setup.browser);
    await lockUsers(context.request, setup.server.url);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Sign-in lock-outs' }).click();
    await page.getByRole('heading', { name: 'Sign-in lock-outs' }).waitFor();
    const range = page.getByTestId('paginator-range');
    await expect.poll(() => range.textContent()).toBe(`1–12 of ${LOCKED_USERS}`);

    // Sort by name, descending, with the keyboard.
    const nameHeader = page.getByRole('button', { name: /User name or address/ });
    await nameHeader.focus();
    await page.keyboard.press('Enter');
    const sortOf = () =>
      page.getByRole('columnheader', { name: /User name or address/ }).getAttribute('aria-sort');
    await expect.poll(sortOf).toBe('ascending');
    await page.keyboard.press('Enter');
    await expect.poll(sortOf).toBe('descending');
    const firstKey = () => page.locator('tbody tr[data-row-id]').first().getAttribute('data-row-id');
    await expect.poll(firstKey).toBe(lockKey(11));

    // Page size 10 and the next page.
    await page.getByLabel('Items per page').selectOption('10');
    await expect.poll(() => range.textContent()).toBe(`1–10 of ${LOCKED_USERS}`);
    await page.getByRole('button', { name: 'Next page' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => range.textContent()).toBe(`11–12 of ${LOCKED_USERS}`);
    await page.getByRole('button', { name: 'First page' }).click();
    await expect.poll(() => range.textContent()).toBe(`1–10 of ${LOCKED_USERS}`);

    // Select all with the keyboard: on only when every row is selected.
    const selectAll = page.getByLabel('Select all');
    await selectAll.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('tbody input[type=checkbox]:checked').count()).toBe(10);
    expect(await selectAll.isChecked()).toBe(true);
    await page.getByLabel(`Select row ${lockKey(11)}`).click();
    expect(await selectAll.isChecked()).toBe(false);
    await page.getByLabel(`Select row ${lockKey(11)}`).click();
    expect(await selectAll.isChecked()).toBe(true);

    // The optional-columns menu hides a column and closes itself.
    await page.getByRole('button', { name: 'Columns' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('optional-columns-menu');
    await menu.waitFor();
    await menu.getByLabel('Locked until').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('columnheader', { name: 'Locked until' }).count()).toBe(0);
    await menu.waitFor({ state: 'hidden', timeout: 8000 });
    await screenshot(page, 'lockouts-table');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(300);
    await screenshot(page, 'lockouts-table-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Lift the selected ten, after confirming.
    await page.getByRole('button', { name: 'Lift selected' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Lift 10 lock-outs? Sign-in opens again at once.').waitFor();
    await page.waitForTimeout(400); // let the dialog finish fading in
    await screenshot(page, 'lockouts-confirm');
    await dialog.getByRole('button', { name: 'Lift' }).click();
    await expect.poll(() => range.textContent()).toBe('1–2 of 2');
    await page.getByText('Lifted 10 lock-outs').waitFor();
    await expect.poll(() => page.getByTestId('alert-count-success').textContent()).toBe('1');

    // The same alert again merges into the one toast with a count.
    for (const key of [lockKey(1), lockKey(0)]) {
      await page.getByLabel(`Select row ${key}`).click();
      await page.getByRole('button', { name: 'Lift selected' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Lift' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
    }
    await page.getByText('Lifted 1 lock-out (×2)').waitFor();
    expect(await page.getByText(/^Lifted 1 lock-out/).count()).toBe(1);
    await expect.poll(() => page.getByTestId('alert-count-success').textContent()).toBe('3');
    // Pressed, the counts list the alerts behind them (issue 18 item 3), which can be cleared.
    await page.getByTestId('alert-counts').click();
    const alertsList = page.getByTestId('alerts-list');
    await alertsList.getByText('Lifted 1 lock-out (×2)').waitFor();
    await alertsList.getByText('Lifted 10 lock-outs').waitFor();
    await page.waitForTimeout(400); // let the list finish fading in
    await screenshot(page, 'alerts-list');
    await alertsList.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => page.getByTestId('alert-counts').count()).toBe(0);
    await page.getByTestId('data-table-empty').waitFor();
    expect(await page.getByTestId('data-table-empty').textContent()).toBe('Nobody is locked out');
    await screenshot(page, 'lockouts-empty');
    await context.close();
  });

  it('shows a change made in another browser without a reload', async () => {
    const a = await newPage(setup.browser);
    await signIn(a.page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    const polling = a.page.waitForRequest(/\/api\/events\/[^/]+\/longpoll/);
    await a.page.getByRole('link', { name: 'Sign-in lock-outs' }).click();
    await a.page.getByTestId('data-table-empty').waitFor();
    await polling;

    const b = await newPage(setup.browser);
    await b.context.request.get(`${setup.server.url}/api/passwordRules`);
    const token =
      (await b.context.request.storageState()).cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
    for (let attempt = 0; attempt < 5; attempt++) {
      await b.context.request.post(`${setup.server.url}/api/login`, {
        data: { username: 'live-update-user', password: 'wrong' },
        headers: { 'X-CSRFToken': token, 'X-Forwarded-For': '10.88.0.1' },
      });
    }
    await a.page.getByText('live-update-user from 10.88.0.1').waitFor({ timeout: 10_000 });
    await screenshot(a.page, 'lockouts-live-update');
    await a.context.close();
    await b.context.close();
  });
});

import { MSG_ACCOUNT_LOCKED } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshot,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const signedIn = async (page: Page, url: string, username: string, password = E2E_DEMO_PASSWORD) => {
  await signIn(page, url, username, password);
  await page.getByTestId('signed-in-user').waitFor();
};

describe('account users, invites, sessions, managers and the users CSV import', () => {
  const setup = useServerAndBrowser({
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    PUBLIC_URL: 'http://public.example',
  });

  it('imports users from a CSV file through every dialog', async () => {
    const { context, page } = await newPage(setup.browser);
    await signedIn(page, setup.server.url, 'london.manager');
    const sites = (await (
      await page.request.get(`${setup.server.url}/api/sites?searchText=london`)
    ).json()) as {
      results: { id: number }[];
    };
    await page.goto(`${setup.server.url}/site/${sites.results[0]?.id}/`);
    await page.getByRole('button', { name: 'Import from CSV' }).waitFor();
    const csv = [
      'fullname,company,email',
      'Carla Camera,Northwind,carla.camera@example.com',
      '',
      'Dan Director,Northwind,dan.director@example.com',
      'Carla Again,Northwind,CARLA.camera@example.com',
    ].join('\n');
    await page
      .getByLabel('Users CSV file')
      .setInputFiles({ name: 'crew.txt', mimeType: 'text/plain', buffer: Buffer.from(csv) });
    const gdpr = page.getByRole('dialog', { name: 'GDPR Warning' });
    await gdpr.waitFor();
    await gdpr.getByRole('button', { name: 'I agree' }).click();
    const extension = page.getByRole('dialog', { name: 'File Extension Warning' });
    await extension.waitFor();
    await extension.getByRole('button', { name: 'Import anyway' }).click();
    const review = page.getByRole('dialog', { name: 'Batch user creation' });
    await review.waitFor();
    await review.getByText('This email address was already used in this batch').waitFor();
    await screenshots(page, 'users-csv-review');
    await review.getByRole('button', { name: 'Create 2 users' }).click();
    const result = page.getByRole('dialog', { name: 'Users created' });
    await result.waitFor();
    expect(await result.getByText('User created; a registration email has been sent').count()).toBe(2);
    await result.getByRole('button', { name: 'Finish' }).click();
    await page.waitForLoadState('load');
    const found = (await (
      await page.request.get(`${setup.server.url}/api/users?searchText=camera&siteId=${sites.results[0]?.id}`)
    ).json()) as { results: { username: string }[] };
    expect(found.results.map((u) => u.username)).toEqual(['carla.camera']);

    // A file without the required columns stops at the spec's message.
    await page.getByLabel('Users CSV file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,email\nx,y@example.com'),
    });
    await page.getByRole('dialog', { name: 'GDPR Warning' }).getByRole('button', { name: 'I agree' }).click();
    await page.getByText('CSV Format Error: Columns required are fullname, company and email').waitFor();
    await screenshots(page, 'site-page');
    await context.close();
  });

  it('adds a user and an invite to an account, then removes them', async () => {
    const { context, page } = await newPage(setup.browser);
    // The site manager manages the users of both accounts of the site, so may add one to the other (an
    // account manager adds only users they manage entirely, and invites anyone else).
    await signedIn(page, setup.server.url, 'london.manager');
    await page.goto(`${setup.server.url}/accounts/evening-news/users`);
    await page.getByRole('tab', { name: 'Access' }).waitFor();
    await page
      .getByRole('table', { name: 'account users' })
      .getByText('evening-news.editor', { exact: true })
      .waitFor();
    await screenshots(page, 'account-users-access');

    await page.getByRole('button', { name: 'Add users' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add users to the account' });
    const search = dialog.getByLabel('User name, full name or email');
    await search.fill('evening-news.ed');
    // Already linked users are suggested but disabled, with their role.
    await dialog.getByRole('option', { name: /evening-news\.editor.*already Editor/ }).waitFor();
    await search.fill('evening-news.editor');
    await search.press('Enter');
    await dialog.getByText('This username is already linked to the account').waitFor();
    await search.fill('sports-desk.vi');
    await dialog.getByRole('option', { name: /sports-desk\.viewer/ }).click();
    await search.fill('new.guest@example.com');
    await search.press('Enter');
    await dialog.getByRole('table', { name: 'Users to add' }).getByText('new.guest@example.com').waitFor();
    expect(await dialog.getByLabel('Role of sports-desk.viewer').inputValue()).toBe('Editor');
    await dialog.getByLabel('Role of sports-desk.viewer').click();
    await page.getByRole('option', { name: 'Viewer', exact: true }).click();
    await screenshots(page, 'add-users-dialog');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('User updates completed').first().waitFor();
    const access = page.getByRole('table', { name: 'account users' });
    await access.getByText('sports-desk.viewer', { exact: true }).waitFor();
    expect(await access.getByLabel('Role of sports-desk.viewer').inputValue()).toBe('Viewer');

    await page.getByRole('tab', { name: 'Invites' }).click();
    const invites = page.getByRole('table', { name: 'invites' });
    await invites.getByText('new.guest@example.com').waitFor();
    await screenshots(page, 'account-users-invites');
    await invites.getByLabel('Delete new.guest@example.com').check();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' }).click();
    await invites.getByText('new.guest@example.com').waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Access' }).click();
    await access.getByLabel('Delete sports-desk.viewer').check();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Discard Changes' }).click();
    expect(await access.getByLabel('Delete sports-desk.viewer').isChecked()).toBe(false);
    await access.getByLabel('Delete sports-desk.viewer').check();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Save Changes' }).click();
    await access.getByText('sports-desk.viewer', { exact: true }).waitFor({ state: 'detached' });
    await context.close();
  });

  it("disconnects a second browser's session, whose re-login dialog shows the message", async () => {
    const victim = await newPage(setup.browser);
    await signedIn(victim.page, setup.server.url, 'evening-news.logger');
    // The list shows the sessions opened in the account: opening its media manager enters it.
    await victim.page.goto(`${setup.server.url}/accounts/evening-news/media`);
    await victim.page.getByRole('tree', { name: 'Folders' }).waitFor();
    const manager = await newPage(setup.browser);
    await signedIn(manager.page, setup.server.url, 'evening-news.manager');
    await manager.page.goto(`${setup.server.url}/accounts/evening-news/users`);
    await manager.page.getByRole('tab', { name: 'Sessions' }).click();
    const sessions = manager.page.getByRole('table', { name: 'sessions' });
    // The demo data has older sessions of this user elsewhere; the new one is from this machine.
    const row = sessions
      .getByRole('row')
      .filter({ hasText: 'evening-news.logger' })
      .filter({ hasText: '127.0.0.1' });
    await row.waitFor();
    await screenshots(manager.page, 'account-users-sessions');
    await row.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = manager.page.getByRole('dialog', { name: 'Disconnect' });
    await dialog.getByLabel('Message').fill('');
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await dialog.getByText('A message is required to disconnect a user').waitFor();
    await screenshot(manager.page, 'force-disconnect-dialog');
    await dialog.getByLabel('Message').fill('Please save your work: the desk closes for maintenance.');
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await manager.page.getByText('evening-news.logger has been disconnected').waitFor();

    await victim.page.getByTestId('signed-in-user').click();
    const relogin = victim.page.getByRole('dialog');
    await relogin.getByText('Please save your work: the desk closes for maintenance.').waitFor();
    await screenshot(victim.page, 'disconnected-relogin');
    await victim.context.close();
    await manager.context.close();
  });

  it("shows the server's refusal in place of the tree when the account is locked", async () => {
    const admin = await newPage(setup.browser);
    await signedIn(admin.page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    const archive = await apiGet<{ id: number }>(
      admin.context,
      `${setup.server.url}/api/accounts/byName/archive`,
    );
    const locked = await admin.context.request.post(`${setup.server.url}/api/accounts/${archive.id}`, {
      data: { concurrentUserLimit: 0 },
      headers: await csrf(admin.context),
    });
    expect(locked.status(), await locked.text()).toBe(200);
    const viewer = await newPage(setup.browser);
    await signedIn(viewer.page, setup.server.url, 'archive.viewer');
    await viewer.page.goto(`${setup.server.url}/accounts/archive/media`);
    await viewer.page.getByRole('alert').filter({ hasText: MSG_ACCOUNT_LOCKED }).waitFor();
    expect(await viewer.page.getByRole('tree', { name: 'Folders' }).count()).toBe(0);
    await screenshot(viewer.page, 'media-account-locked');
    const unlocked = await admin.context.request.post(`${setup.server.url}/api/accounts/${archive.id}`, {
      data: { concurrentUserLimit: null },
      headers: await csrf(admin.context),
    });
    expect(unlocked.status(), await unlocked.text()).toBe(200);
    await viewer.context.close();
    await admin.context.close();
  });

  it('adds and removes an administrator in the managers table', async () => {
    const { context, page } = await newPage(setup.browser);
    await signedIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Administrators' }).click();
    const table = page.getByRole('table', { name: 'managers' });
    await table.getByText('admin', { exact: true }).waitFor();
    // The current user may not remove themselves here.
    expect(await table.getByLabel('Delete admin').isDisabled()).toBe(true);
    const add = page.getByLabel('Add manager');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('User name required').waitFor();
    await add.fill('nobody-by-this-name');
    await page.getByText('User name invalid').waitFor();
    await add.fill('admin');
    await page.getByText('User already manager').waitFor();
    await add.fill('Gustav Group');
    await page.getByRole('option', { name: /europe\.manager/ }).waitFor();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await table.getByLabel('Delete europe.manager').waitFor();
    await screenshots(page, 'managers-table');
    await page.getByRole('button', { name: 'Update Managers' }).click();
    await page.getByText('Updated admin manager(s)').first().waitFor();
    await table.getByLabel('Delete europe.manager').check();
    await page.getByRole('button', { name: 'Update Managers' }).click();
    await table.getByLabel('Delete europe.manager').waitFor({ state: 'detached' });
    await context.close();
  });
});

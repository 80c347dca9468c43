import {
  MSG_ACCOUNT_DISABLED_LABEL,
  MSG_ACCOUNT_LOCKED,
  MSG_ACCOUNT_NAME_TAKEN,
  MSG_ACCOUNT_SITE_CHANGED_RELOAD,
  MSG_CHANGES_SAVED,
  MSG_DATA_SAVED_GENERIC,
  MSG_EMAIL_INVALID,
  MSG_FIELD_REQUIRED,
  MSG_MAX_LENGTH,
  MSG_ORG_NAME_TAKEN,
} from '@media/contract';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshot,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

type Account = {
  id: number;
  name: string;
  siteId: number;
  siteName: string;
  productionName: string;
  department: string;
  concurrentUserLimit: number | null;
  contactName: string;
  contactEmail: string;
  notes: string | null;
};

/** The API as the signed-in browser context (its session and anti-forgery cookie). */
const api = (context: BrowserContext, baseUrl: string) => {
  const token = async () => (await context.cookies()).find((c) => c.name === 'csrftoken')?.value ?? '';
  return {
    get: async <T>(path: string) => {
      const response = await context.request.get(`${baseUrl}${path}`);
      expect(response.status(), path).toBe(200);
      return ((await response.json()) as { results: T }).results;
    },
    post: async (path: string, data: unknown) =>
      context.request.post(`${baseUrl}${path}`, { data, headers: { 'X-CSRFToken': await token() } }),
  };
};

describe('accounts and organisation pages', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('lists accounts, then edits and saves both forms of an account with the spec messages', async () => {
    const { context, page } = await newPage(setup.browser);
    const server = api(context, setup.server.url);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    await page.getByRole('heading', { name: 'Accounts' }).waitFor();
    const range = page.getByTestId('paginator-range');
    await expect.poll(() => range.textContent()).toBe('1–4 of 4');
    const names = () => page.locator('tbody tr[data-row-id] td:first-child').allTextContents();
    expect(await names()).toEqual(['archive', 'documentaries', 'evening-news', 'sports-desk']);

    // Sorted by site, descending, by the server.
    await page.getByRole('button', { name: /^Site/ }).click();
    await page.getByRole('button', { name: /^Site/ }).click();
    await expect
      .poll(() => page.getByRole('columnheader', { name: /^Site/ }).getAttribute('aria-sort'))
      .toBe('descending');
    await expect
      .poll(async () => (await names()).slice(0, 2).sort())
      .toEqual(['evening-news', 'sports-desk']);
    await page.getByLabel('Search accounts').fill('sport');
    await expect.poll(() => range.textContent()).toBe('1–1 of 1');
    await screenshots(page, 'accounts-list-search');
    await page.getByLabel('Search accounts').fill('no such production');
    await page.getByTestId('data-table-empty').waitFor();
    expect(await page.getByTestId('data-table-empty').textContent()).toBe(
      'No accounts match "no such production"',
    );
    await page.getByLabel('Search accounts').fill('');
    await expect.poll(() => range.textContent()).toBe('1–4 of 4');
    await screenshots(page, 'accounts-list');

    // The account settings page: Account data.
    await page.getByRole('link', { name: 'evening-news' }).click();
    await page.waitForURL(/\/accounts\/evening-news\/$/);
    const data = page.getByRole('region', { name: 'Account data' });
    const contact = page.getByRole('region', { name: 'Account contact' });
    await data.getByLabel('Production Name').waitFor();
    expect(await data.getByLabel('Production Name').inputValue()).toBe('Evening News');
    expect(await data.getByLabel('Notes').count()).toBe(1);
    expect(await data.getByLabel(MSG_ACCOUNT_DISABLED_LABEL).isEnabled()).toBe(true);
    await screenshots(page, 'account-settings');

    await data.getByLabel('Production Name').fill('x'.repeat(101));
    await data.getByText(MSG_MAX_LENGTH(100)).waitFor();
    expect(await data.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await data.getByLabel('Production Name').fill('Evening News Tonight');
    await data.getByLabel('Department').fill('Newsroom');
    await data.getByLabel('Notes').fill('Renewal due in spring');
    await choose(page, data.getByLabel('Concurrent user limit'), '2 users');
    // Leaving with unsaved changes asks first.
    await page.getByRole('link', { name: 'Accounts', exact: true }).click();
    const leave = page.getByRole('dialog', { name: 'Unsaved changes' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/accounts/evening-news/');
    expect(await data.getByLabel('Department').inputValue()).toBe('Newsroom');
    await data.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG_DATA_SAVED_GENERIC, { exact: true }).waitFor();
    await expect.poll(() => data.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    let saved = await server.get<Account>('/api/accounts/byName/evening-news');
    expect(saved).toMatchObject({
      productionName: 'Evening News Tonight',
      department: 'Newsroom',
      notes: 'Renewal due in spring',
      concurrentUserLimit: 2,
    });

    // Account contact: refused values show the spec's messages and keep Save off.
    await contact.getByLabel('Contact email').fill('not-an-email');
    await contact.getByText(MSG_EMAIL_INVALID).waitFor();
    await contact.getByLabel('Contact name').fill('');
    await contact.getByText(MSG_FIELD_REQUIRED).waitFor();
    expect(await contact.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await screenshots(page, 'account-contact-invalid');
    await contact.getByLabel('Contact name').fill('Erin Ellis-Smith');
    await contact.getByLabel('Contact email').fill('erin.smith@demo.example');
    await contact.getByLabel('Contact phone').fill('+44 20 7946 0001');
    await contact.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG_CHANGES_SAVED, { exact: true }).waitFor();
    saved = await server.get<Account>('/api/accounts/byName/evening-news');
    expect(saved).toMatchObject({ contactName: 'Erin Ellis-Smith', contactEmail: 'erin.smith@demo.example' });

    // A bad value sent past the form is refused by the server with the same message.
    const refused = await server.post(`/api/accounts/${saved.id}`, { contactEmail: 'still-not-an-email' });
    expect(refused.status()).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(MSG_EMAIL_INVALID);

    // Changing the site reloads the page with the spec's message.
    await choose(page, data.getByLabel('Site', { exact: true }), 'Berlin');
    await data.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG_ACCOUNT_SITE_CHANGED_RELOAD).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await page.getByRole('link', { name: 'Berlin' }).waitFor();
    await screenshots(page, 'account-settings-site-changed');

    // Edit as role: the site's roles by name; choosing one enters the account as that role.
    await page.getByRole('button', { name: 'Edit as role' }).click();
    const roles = await page.getByRole('menuitem').allTextContents();
    expect(roles).toEqual([...roles].sort((a, b) => a.localeCompare(b, 'en-GB')));
    expect(roles).toContain('Viewer');
    await screenshot(page, 'account-edit-as-role');
    await page.getByRole('menuitem', { name: 'Viewer' }).click();
    await page.waitForURL(/\/accounts\/evening-news\/media\?role=\d+$/);
    await context.close();
  });

  it('shows an account manager a read-only billing part, live changes and the refusal of a locked account', async () => {
    const admin = await newPage(setup.browser);
    await signIn(admin.page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await admin.page.getByTestId('signed-in-user').waitFor();
    const asAdmin = api(admin.context, setup.server.url);
    const archive = await asAdmin.get<Account>('/api/accounts/byName/archive');
    expect((await asAdmin.post(`/api/accounts/${archive.id}`, { concurrentUserLimit: 0 })).status()).toBe(
      200,
    );

    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'archive.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const polling = page.waitForRequest(/\/api\/events\/[^/]+\/longpoll/);
    await page.goto(`${setup.server.url}/accounts/archive/`);
    const data = page.getByRole('region', { name: 'Account data' });
    await data.getByLabel('Production Name').waitFor();
    expect(await data.getByLabel('Billing id').getAttribute('readonly')).not.toBeNull();
    expect(await data.getByLabel('Site', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await data.getByLabel('Production Name').getAttribute('readonly')).toBeNull();
    expect(await data.getByLabel('Notes').count()).toBe(0);
    expect(await data.getByLabel(MSG_ACCOUNT_DISABLED_LABEL).isDisabled()).toBe(true);
    await screenshots(page, 'account-settings-manager');

    // A change made elsewhere shows without a reload while the form is clean.
    await polling;
    expect((await asAdmin.post(`/api/accounts/${archive.id}`, { department: 'Archive team' })).status()).toBe(
      200,
    );
    await expect
      .poll(() => data.getByLabel('Department').inputValue(), { timeout: 10_000 })
      .toBe('Archive team');
    await admin.context.close();

    await page.getByRole('button', { name: 'Edit as role' }).click();
    await page.getByRole('menuitem', { name: 'Editor' }).click();
    await page.getByText(MSG_ACCOUNT_LOCKED, { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/accounts/archive/');
    await screenshot(page, 'account-launch-refused');
    await context.close();

    // A user of the account sees its settings, read-only, with no way to save.
    const viewer = await newPage(setup.browser);
    await signIn(viewer.page, setup.server.url, 'archive.viewer', E2E_DEMO_PASSWORD);
    await viewer.page.getByTestId('signed-in-user').waitFor();
    await viewer.page.goto(`${setup.server.url}/accounts/archive/`);
    await viewer.page.getByText('only its managers can change them').waitFor();
    expect(await viewer.page.getByLabel('Contact name').getAttribute('readonly')).not.toBeNull();
    expect(await viewer.page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Edit as role' }).count()).toBe(0);
    await screenshots(viewer.page, 'account-settings-viewer');
    await viewer.context.close();
  });

  it('clones an account through a reserved name, releases it on cancel, and creates an account', async () => {
    const { context, page } = await newPage(setup.browser);
    const server = api(context, setup.server.url);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${setup.server.url}/accounts`);
    const source = await server.get<Account>('/api/accounts/byName/sports-desk');
    const row = page.locator(`tbody tr[data-row-id="${source.id}"]`);
    await row.getByRole('button', { name: 'Clone account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clone account' });
    const newName = dialog.getByLabel('New account name');
    expect(await newName.inputValue()).toBe('sports-desk-copy');

    // A taken name is refused when reserving.
    await newName.fill('evening-news');
    await dialog.getByRole('button', { name: 'Reserve name' }).click();
    await dialog.getByText(MSG_ACCOUNT_NAME_TAKEN).waitFor();
    await screenshots(page, 'account-clone-name-taken');

    // Reserve, then cancel: the name is free again for someone else.
    await newName.fill('sports-weekend');
    await dialog.getByRole('button', { name: 'Reserve name' }).click();
    await dialog.getByText('is reserved for you').waitFor();
    await screenshots(page, 'account-clone-reserved');
    const someoneElse = await newPage(setup.browser);
    await signIn(someoneElse.page, setup.server.url, 'london.manager', E2E_DEMO_PASSWORD);
    await someoneElse.page.getByTestId('signed-in-user').waitFor();
    const other = api(someoneElse.context, setup.server.url);
    const held = await other.post('/api/accounts', {
      reserveKey: true,
      name: 'sports-weekend',
      cloneFrom: source.id,
    });
    expect(held.status()).toBe(409);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () =>
        (
          await other.post('/api/accounts', {
            reserveKey: true,
            name: 'sports-weekend',
            cloneFrom: source.id,
          })
        ).status(),
      )
      .toBe(200);
    await other.post('/api/accounts', { unreserveKey: true, name: 'sports-weekend', cloneFrom: source.id });
    await someoneElse.context.close();

    // Reserve and clone.
    await row.getByRole('button', { name: 'Clone account' }).click();
    await newName.fill('sports-weekend');
    await dialog.getByRole('button', { name: 'Reserve name' }).click();
    await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
    await page.getByText('Account "sports-weekend" cloned from "sports-desk"').waitFor();
    await page.getByRole('link', { name: 'sports-weekend' }).waitFor();
    const clone = await server.get<Account>('/api/accounts/byName/sports-weekend');
    expect(clone).toMatchObject({ productionName: 'Sports Desk', siteName: 'London' });

    // A new account in a chosen site opens its settings.
    await page.getByRole('button', { name: 'New account' }).click();
    const create = page.getByRole('dialog', { name: 'New account' });
    await create.getByLabel('Account name').fill('late-show');
    await choose(page, create.getByLabel('Site'), 'London');
    await screenshots(page, 'account-new');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/accounts\/late-show\/$/);
    await page.getByRole('heading', { name: 'late-show' }).waitFor();
    await context.close();
  });

  it('creates a reseller, a site group and a site, disables after confirming, and shows the site page', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByRole('link', { name: 'Organisation' }).click();
    const resellers = page.getByRole('region', { name: 'Resellers' });
    const siteGroups = page.getByRole('region', { name: 'Site groups' });
    const sites = page.getByRole('region', { name: 'Sites' });
    await resellers.getByText('Northwind Media').waitFor();
    await sites.getByText('London').waitFor();
    await screenshots(page, 'organisation');

    await resellers.getByRole('button', { name: 'New reseller' }).click();
    let dialog = page.getByRole('dialog', { name: 'New reseller' });
    await dialog.getByLabel('Name').fill('Northwind Media');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText(MSG_ORG_NAME_TAKEN('reseller')).waitFor();
    await screenshots(page, 'organisation-reseller-taken');
    await dialog.getByLabel('Name').fill('Southwind Media');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await resellers.getByText('Southwind Media').waitFor();

    await siteGroups.getByRole('button', { name: 'New site group' }).click();
    dialog = page.getByRole('dialog', { name: 'New site group' });
    await dialog.getByLabel('Name').fill('Southwind Asia');
    await choose(page, dialog.getByLabel('Reseller'), 'Southwind Media');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await siteGroups.getByText('Southwind Asia').waitFor();

    await sites.getByRole('button', { name: 'New site' }).click();
    dialog = page.getByRole('dialog', { name: 'New site' });
    await dialog.getByLabel('Name').fill('Tokyo');
    await choose(page, dialog.getByLabel('Site group'), 'Southwind Asia');
    await screenshots(page, 'organisation-new-site');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await sites.getByRole('link', { name: 'Tokyo' }).waitFor();

    // Disabling asks first.
    await resellers.getByRole('button', { name: 'Edit reseller Southwind Media' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit reseller' });
    await dialog.getByLabel('Disabled').check({ force: true });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disable reseller' });
    await confirm.getByText('Disable the reseller "Southwind Media"?', { exact: false }).waitFor();
    await screenshots(page, 'organisation-disable-confirm');
    await confirm.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Reseller "Southwind Media" saved').waitFor();
    const southwind = resellers.locator('tbody tr', { hasText: 'Southwind Media' });
    await southwind.getByText('Disabled').waitFor();
    await screenshots(page, 'organisation-after');

    // The site pages: a new, empty site and a demo site with accounts.
    await sites.getByRole('link', { name: 'Tokyo' }).click();
    await page.getByRole('heading', { name: 'Tokyo' }).waitFor();
    expect(await page.getByTestId('site-ancestry').textContent()).toBe(
      'Site group Southwind Asia · Reseller Southwind Media',
    );
    await page.getByText('No accounts yet').waitFor();
    await screenshots(page, 'site-empty');
    await page.goBack();
    await sites.getByRole('link', { name: 'London' }).click();
    await page.getByRole('heading', { name: 'London' }).waitFor();
    const accounts = page.getByRole('region', { name: 'Accounts' });
    await accounts.getByRole('link', { name: 'sports-desk' }).waitFor();
    await screenshots(page, 'site-london');
    await context.close();
  });
});

import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';
import { accessibilityViolations } from '../roles.ts';

type Id = { id: number };

/**
 * The audit log's pages (issue 33): Activity for administrators and managers (filters, a row's details, the
 * CSV export), and Activity on your user in the user settings.
 */
describe('activity: the audit log', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });
  const viewer = 'documentaries.viewer';

  it("shows an administrator's change to the administrator (filtered, its details, as CSV) and to the user changed", async () => {
    const base = setup.server.url;
    const { context, page } = await newPage(setup.browser);
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // The administrator renames a user (as the users' page would).
    const [user] = await apiGet<Id[]>(context, `${base}/api/users?searchText=${viewer}`);
    const renamed = await context.request.post(`${base}/api/users/${user?.id}`, {
      data: { fullname: 'Viewer Renamed By Admin' },
      headers: await csrf(context),
    });
    expect(renamed.status()).toBe(200);

    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    const rows = page.locator('tbody tr[data-row-id]');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);

    // One operation: the rename is there, alone of its kind.
    await page.getByLabel('Operation').fill('postUsersById');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.url()).toContain('operation=postUsersById');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(`user ${user?.id}`);
    const exported = page.getByRole('link', { name: 'Export CSV' });
    expect(await exported.getAttribute('href')).toBe('/api/auditLog/export?operation=postUsersById');
    const csv = await context.request.get(`${base}${await exported.getAttribute('href')}`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('fullname=Viewer Renamed By Admin');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshots(page, 'activity');

    // Its details: who, how, the field and its value; then only what this actor did.
    await rows
      .first()
      .getByRole('button', { name: /^Details of postUsersById/ })
      .click();
    const details = page.getByTestId('activity-details');
    await details.waitFor();
    expect(await details.textContent()).toContain('Browser session');
    expect(await page.getByTestId('activity-fields').textContent()).toContain('Viewer Renamed By Admin');
    await screenshots(page, 'activity-details');
    await page.getByRole('button', { name: 'Only this actor' }).click();
    await expect.poll(() => page.url()).toContain('actor=admin');
    await expect.poll(() => page.getByLabel('Actor').inputValue()).toBe('admin');

    // Nothing matches: said so.
    await page.getByLabel('Actor').fill('nobody-at-all');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Nothing matches these filters').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(1);
    await context.close();

    // The user sees what the administrator did to their user, in their settings.
    const own = await newPage(setup.browser);
    await signIn(own.page, base, viewer, E2E_DEMO_PASSWORD);
    await own.page.getByTestId('signed-in-user').click();
    await own.page.getByRole('heading', { name: 'Activity on your user' }).waitFor();
    const ownRows = own.page.locator('tbody tr[data-row-id]');
    await expect.poll(() => ownRows.count()).toBe(1);
    expect(await ownRows.first().textContent()).toContain('postUsersById');
    expect(await ownRows.first().textContent()).toContain('admin');
    await closeNotifications(own.page);
    // The settings' other sections may still be loading on a loaded run: a Mantine Loader's aria-label is an
    // axe finding of its own (ci54), so the page is checked once they have loaded.
    await expect.poll(() => own.page.locator('.mantine-Loader-root[aria-label]').count()).toBe(0);
    expect(await accessibilityViolations(own.page)).toEqual([]);
    await own.page.getByRole('heading', { name: 'Activity on your user' }).scrollIntoViewIfNeeded();
    await screenshots(own.page, 'user-settings-activity');
    // Not the Activity page: they manage nothing.
    await own.page.goto(`${base}/admin/activity`);
    await own.page.getByTestId('not-for-role').waitFor();
    await own.context.close();
  });

  it("shows a site manager the changes in their sites' accounts, not in others'", async () => {
    const base = setup.server.url;
    const admin = await newPage(setup.browser);
    await signIn(admin.page, base, 'admin', E2E_ADMIN_PASSWORD);
    await admin.page.getByTestId('signed-in-user').waitFor();
    // One change in Berlin (documentaries), one in London (evening-news).
    for (const name of ['documentaries', 'evening-news']) {
      const account = await apiGet<Id>(admin.context, `${base}/api/accounts/byName/${name}`);
      const changed = await admin.context.request.post(`${base}/api/accounts/${account.id}`, {
        data: { contactName: `Contact of ${name}` },
        headers: await csrf(admin.context),
      });
      expect(changed.status()).toBe(200);
    }
    await admin.context.close();

    const { page } = await newPage(setup.browser);
    await signIn(page, base, 'berlin.manager', E2E_DEMO_PASSWORD);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    await page.getByLabel('Operation').fill('postAccountsById');
    await page.getByRole('button', { name: 'Apply' }).click();
    const rows = page.locator('tbody tr[data-row-id]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('documentaries');
    expect(await accessibilityViolations(page)).toEqual([]);
  });
});

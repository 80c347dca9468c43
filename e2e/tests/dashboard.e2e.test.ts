import {
  type AccountDashboard,
  DASHBOARD_MESSAGES,
  DIAGNOSTIC_CHECK_LABELS,
  type Diagnostics,
  formatFileSize,
  NODE_TYPE_LABELS,
} from '@media/contract';
import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

/**
 * The diagnostic page and the account dashboard (issue 14 item 6; spec2 §1, spec3 §2 page areas): what an
 * operator checks first, and an account's media, queue, storage and recent activity, on the demo data.
 */
describe('diagnostic page and account dashboard', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('shows an administrator versions, timed checks, jobs, storage and edge servers, and refreshes', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // The page is in the administrators' navigation.
    await page.getByRole('link', { name: 'Diagnostics' }).first().click();
    await page.waitForURL(`${base}/diagnostic`);
    await page.getByRole('heading', { name: 'Diagnostics', level: 2 }).waitFor();

    const api = await apiGet<Diagnostics>(context, `${base}/api/diagnostics`);
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.getByText(api.versions.node, { exact: true }).waitFor();
    expect(api.versions.ffmpeg).not.toBeNull();
    await versions
      .getByText(api.versions.ffmpeg ?? '', { exact: true })
      .first()
      .waitFor();
    await versions.getByText(`PGlite (embedded PostgreSQL) ${api.versions.database.version}`).waitFor();

    // Every check with its state and its time in ms; without SMTP the mail check is a warning.
    for (const label of Object.values(DIAGNOSTIC_CHECK_LABELS))
      await page.getByRole('table', { name: 'Connectivity checks' }).getByText(label).waitFor();
    const database = page.getByTestId('check-database');
    await expect.poll(() => database.locator('[data-state]').getAttribute('data-state')).toBe('ok');
    expect(await database.textContent()).toMatch(/\d+(\.\d)? ms/);
    expect(await page.getByTestId('check-mail').locator('[data-state]').getAttribute('data-state')).toBe(
      'warning',
    );
    await page.getByTestId('check-storage').getByText('Wrote, read back and removed a test object').waitFor();

    // Durable jobs: the server's queues, by name.
    for (const queue of api.jobs.queues)
      await page.locator('#jobs').getByText(queue.name, { exact: true }).first().waitFor();
    // Storage: the disk's free space as figures and a ring.
    const disk = page.getByTestId('disk-space');
    await disk.getByText(/free of/).waitFor();
    await disk.getByRole('img', { name: /^Disk used: \d+%$/ }).waitFor();
    // The demo's edge servers, most recently seen first, with how many are connected.
    await page
      .getByTestId('edge-summary')
      .getByText(`${api.edgeServers.connected} of ${api.edgeServers.total} connected`)
      .waitFor();
    expect(api.edgeServers.total).toBeGreaterThan(0);
    for (const edge of api.edgeServers.servers)
      await page.locator('#edge-servers').getByText(edge.name, { exact: true }).first().waitFor();
    await closeNotifications(page);
    await screenshots(page, 'diagnostic-page');

    // Refresh measures again: a new request, a new time.
    const measured = page.getByTestId('diagnostics-measured');
    const before = await measured.textContent();
    await page.waitForTimeout(1100);
    const again = page.waitForResponse((response) => response.url().endsWith('/api/diagnostics'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    expect((await again).status()).toBe(200);
    await expect.poll(() => measured.textContent()).not.toBe(before);

    // A failed load says so in the words of the other pages.
    await page.route('**/api/diagnostics', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'Internal error', code: 'internal' } }),
      }),
    );
    await page.reload();
    await page
      .getByRole('alert')
      .getByText('An error occurred while fetching the data: Internal error')
      .waitFor();
    await screenshots(page, 'diagnostic-page-error');
    await page.unrouteAll();
    await context.close();
  });

  it("shows an account manager the account's media, storage, queue and recent activity", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // Not an administrator: no diagnostics in the navigation, and the page says it is not allowed.
    expect(await page.getByRole('link', { name: 'Diagnostics' }).count()).toBe(0);

    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${base}/accounts/evening-news/dashboard`);
    await page.getByRole('heading', { name: `evening-news · ${DASHBOARD_MESSAGES.title}` }).waitFor();

    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    const api = await apiGet<AccountDashboard>(context, `${base}/api/accounts/${account.id}/dashboard`);
    expect(api.media?.total).toBeGreaterThan(0);
    expect(api.queue?.total).toBeGreaterThan(0);
    expect(api.storage.bytes).toBeGreaterThan(0);

    await page.getByTestId('figure-media').getByText(String(api.media?.total), { exact: true }).waitFor();
    await page.getByTestId('figure-storage').getByText(formatFileSize(api.storage.bytes)).waitFor();
    await page
      .getByTestId('figure-ingest-queue')
      .getByText(String(api.queue?.total), { exact: true })
      .waitFor();
    // Media by type: each type with its count.
    const byType = page.getByRole('table', { name: 'Media by type' });
    for (const row of api.media?.byType ?? []) {
      const line = byType.getByTestId(`count-${row.type}`);
      await line.getByText(NODE_TYPE_LABELS[row.type]).waitFor();
      expect(await line.textContent()).toContain(String(row.count));
    }
    // The queue by status, the statuses that have items.
    const byStatus = page.getByRole('table', { name: 'Ingest queue by status' });
    for (const row of (api.queue?.byStatus ?? []).filter((r) => r.count > 0))
      expect(await byStatus.getByTestId(`count-${row.status}`).textContent()).toContain(String(row.count));
    // Recent activity: the newest node first, its path leading to its folder in the media manager.
    const newest = api.media?.recent[0];
    expect(newest).toBeDefined();
    const recent = page.locator('#recent-activity');
    await recent
      .getByText(newest?.path ?? '', { exact: true })
      .first()
      .waitFor();
    await recent
      .getByText(api.queue?.recent[0]?.name ?? '', { exact: true })
      .first()
      .waitFor();
    await closeNotifications(page);
    await screenshots(page, 'account-dashboard');

    await recent
      .getByRole('link', { name: newest?.path ?? '' })
      .first()
      .click();
    await page.waitForURL(/\/accounts\/evening-news\/media\?path=/);

    // The diagnostic page is not offered to a non-administrator, who reaches it by address.
    await page.goto(`${base}/diagnostic`);
    await page.getByTestId('not-for-role').getByText('Diagnostics is not available to your role').waitFor();
    await context.close();
  });

  it('shows an editor the media but not the ingest queue', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/evening-news/dashboard`);
    await page.getByRole('table', { name: 'Media by type' }).waitFor();
    await page.getByTestId('figure-ingest-queue').getByText(DASHBOARD_MESSAGES.queueManagersOnly).waitFor();
    expect(await page.getByRole('table', { name: 'Ingest queue by status' }).count()).toBe(0);
    await closeNotifications(page);
    await screenshots(page, 'account-dashboard-editor');

    // An account one may not use: the server's refusal, in the alert pattern.
    await page.goto(`${base}/accounts/sports-desk/dashboard`);
    await page.getByRole('alert').first().waitFor();
    await context.close();
  });
});

import {
  MSG_EXTRA_DATA_KEY_CLASH,
  MSG_INGEST_FORMATS_SAVED,
  MSG_KEY_MAP_NAME_IN_USE,
  MSG_KEY_SHORTCUTS_SAVED,
  MSG_NO_UPLOAD_FORMAT_OPTION,
} from '@media/contract';
import { describe, expect, it } from 'vitest';
import { apiGet } from '../api.ts';
import { choose, E2E_DEMO_PASSWORD, newPage, screenshots, signIn, useServerAndBrowser } from '../harness.ts';

describe('account configuration sections', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('edits ingest formats, extra data, keyboard expansion maps and key shortcuts of an account', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'london.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // The start page shows the accounts of the site and the site itself.
    await expect.poll(() => page.getByTestId('home-account').count()).toBe(2);
    expect(await page.getByTestId('home-account').getByRole('link', { name: 'evening-news' }).count()).toBe(
      1,
    );
    await page.getByRole('region', { name: 'Sites' }).getByRole('link', { name: 'London' }).waitFor();
    // Each account card leads to its media manager too.
    const eveningNews = page.getByTestId('home-account').filter({ hasText: 'evening-news' });
    expect(await eveningNews.getByRole('link', { name: 'Media', exact: true }).getAttribute('href')).toBe(
      '/accounts/evening-news/media',
    );
    await screenshots(page, 'home-site-manager');
    await page.getByTestId('home-account').getByRole('link', { name: 'evening-news' }).click();
    await page.getByRole('heading', { name: 'Ingest formats' }).waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);

    // Ingest formats: a repeated row blocks Save until it differs.
    const formats = page.getByRole('table', { name: 'Ingest formats' });
    await expect.poll(() => formats.locator('tbody tr').count()).toBe(3);
    await page.getByRole('button', { name: 'Add format' }).click();
    await page.getByText('Ingest format repeated: PAL_wide').waitFor();
    const ingestSection = page.locator('section#ingest-formats');
    expect(await ingestSection.getByRole('button', { name: 'Save Changes' }).isDisabled()).toBe(true);
    await choose(page, page.locator('input[aria-label="Aspect ratio of format 4"]'), 'normal (4:3)');
    await ingestSection.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(MSG_INGEST_FORMATS_SAVED).waitFor();
    expect(await apiGet<string[]>(context, `${base}/api/accounts/${account.id}/ingestFormats`)).toEqual([
      'PAL_wide',
      'PAL_wide_540',
      'NTSC_tall_640',
      'PAL_normal',
    ]);

    // Extra data: the spec's refusals, then add, edit and delete with confirmation.
    const extra = page.locator('section#extra-data');
    await extra.getByText('cost_centre').waitFor();
    expect(await extra.getByText('CC-1042').count()).toBe(0);
    await extra.getByRole('button', { name: 'Show the value of cost_centre' }).click();
    await extra.getByText('CC-1042').waitFor();
    await extra.getByRole('button', { name: 'Add another key/value pair' }).click();
    await extra.getByLabel('Key', { exact: true }).fill('upload_format');
    await extra.getByLabel('Value', { exact: true }).fill('PAL_wide');
    await extra.getByRole('button', { name: 'Add', exact: true }).click();
    await extra.getByText(MSG_NO_UPLOAD_FORMAT_OPTION).waitFor();
    await extra.getByLabel('Key', { exact: true }).fill('cost_centre');
    await extra.getByRole('button', { name: 'Add', exact: true }).click();
    await extra.getByText(MSG_EXTRA_DATA_KEY_CLASH).waitFor();
    await extra.getByLabel('Key', { exact: true }).fill(' region ');
    await extra.getByLabel('Value', { exact: true }).fill('EMEA');
    await extra.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('"region: EMEA" successfully added.').waitFor();
    await extra.getByRole('button', { name: 'Edit region' }).click();
    expect(await extra.getByRole('button', { name: 'Edit cost_centre' }).isDisabled()).toBe(true);
    await extra.getByLabel('Value of region').fill('APAC');
    await extra.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Data "region" successfully saved.').waitFor();
    await extra.getByLabel('Remove cost_centre').check();
    await extra.getByLabel('Remove region').check();
    await extra.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Extra Data' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Data cost_centre, region successfully deleted.').waitFor();
    expect(
      Object.keys(
        await apiGet<Record<string, string>>(context, `${base}/api/accounts/${account.id}/extraData`),
      ),
    ).toEqual(['extra_archive_policy']);

    // Keyboard expansion maps: a name taken in the target is refused, another one exported.
    const maps = page.locator('section#keyboard-expansion-maps');
    const download = maps.getByRole('link', { name: 'Download as XML' });
    const href = (await download.getAttribute('href')) as string;
    expect(href).toMatch(/^\/accounts\/evening-news\/generatekeyexpansion\?id=\d+$/);
    const xml = await context.request.get(`${base}${href}`);
    expect(await xml.text()).toContain('<expansion abbreviation="pm">Prime Minister</expansion>');
    await choose(
      page,
      maps.locator('input[aria-label="Export Newsroom abbreviations to account"]'),
      'sports-desk',
    );
    await maps.getByLabel('New name for Newsroom abbreviations').fill('sports NAMES');
    await maps.getByText(MSG_KEY_MAP_NAME_IN_USE).waitFor();
    expect(await maps.getByRole('button', { name: 'Export' }).isDisabled()).toBe(true);
    await maps.getByLabel('New name for Newsroom abbreviations').fill('News abbreviations');
    await maps.getByRole('button', { name: 'Export' }).click();
    await page.getByText('New key map name saved successfully').waitFor();
    const sportsDesk = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/sports-desk`);
    const sportsMaps = await context.request.get(`${base}/api/keyboardExpansions?accountId=${sportsDesk.id}`);
    expect(((await sportsMaps.json()) as { results: { name: string }[] }).results.map((m) => m.name)).toEqual(
      ['News abbreviations', 'Sports names'],
    );

    // Key shortcuts: rename one, make it the default, confirm, saved.
    const shortcuts = page.locator('section#key-shortcuts');
    await shortcuts.getByLabel('Name of Newsroom (fast logging)').fill('Fast logging');
    await shortcuts.getByLabel('Newsroom (fast logging) default').check();
    expect(await shortcuts.getByLabel('Newsroom (fast logging) visible').isDisabled()).toBe(true);
    await screenshots(page, 'account-config');
    await shortcuts.getByRole('button', { name: 'Save Changes' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save key shortcuts' });
    await saveDialog
      .getByText(/Save 1 change\(s\) and delete 0 set\(s\)\? This also changes the shortcuts of: Myself\./)
      .waitFor();
    await saveDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG_KEY_SHORTCUTS_SAVED).waitFor();
    const sets = await context.request.get(`${base}/api/keyshortcuts?accountId=${account.id}`);
    const list = ((await sets.json()) as { results: { name: string; isDefault: boolean }[] }).results;
    expect(list.filter((s) => s.isDefault).map((s) => s.name)).toEqual(['Fast logging']);
    await context.close();
  });

  it('shows an editor the formats, maps and shortcuts read-only and no extra data', async () => {
    const { context, page } = await newPage(setup.browser);
    await signIn(page, setup.server.url, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${setup.server.url}/accounts/evening-news/`);
    await page.getByRole('heading', { name: 'Key shortcuts' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add format' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Extra data' }).count()).toBe(0);
    const onThisPage = page.getByRole('navigation', { name: 'On this page' });
    expect(await onThisPage.getByRole('link').allTextContents()).toEqual([
      'Account data',
      'Account contact',
      'Metadata columns',
      'Ingest formats',
      'Keyboard expansion maps',
      'Key shortcuts',
    ]);
    // A reload that names a section lands on it, though the sections above it load after it.
    await page.goto(`${setup.server.url}/accounts/evening-news/?element_id_to_jump_to=key-shortcuts`);
    const shortcutsTitle = page.getByRole('heading', { name: 'Key shortcuts' });
    await shortcutsTitle.waitFor();
    await page.waitForTimeout(1500);
    // The last section cannot reach the top of the window; it must be in view, below the header.
    const box = await shortcutsTitle.evaluate((h) => {
      const r = h.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    expect(box.top).toBeGreaterThan(56);
    expect(box.bottom).toBeLessThan(800);
    await page.evaluate('window.scrollTo(0, 0)');
    await onThisPage.getByRole('link', { name: 'Key shortcuts' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#key-shortcuts');
    await expect
      .poll(() =>
        page.getByRole('heading', { name: 'Key shortcuts' }).evaluate((h) => h.getBoundingClientRect().top),
      )
      .toBeGreaterThan(56);
    expect(await page.locator('input[aria-label="Frame rate of format 1"]').isDisabled()).toBe(true);
    expect(
      await page.locator('section#keyboard-expansion-maps').getByRole('button', { name: 'Export' }).count(),
    ).toBe(0);
    expect(await page.getByLabel('Name of Newsroom', { exact: true }).isDisabled()).toBe(true);
    await screenshots(page, 'account-config-editor');
    await context.close();
  });

  it('makes a site custom metadata columns, refusing incomplete and duplicated lists, and its accounts inherit them', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'london.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ siteId: number }>(context, `${base}/api/accounts/byName/sports-desk`);
    await page.goto(`${base}/site/${account.siteId}/`);
    const columns = page.locator('section#metadata-columns');
    await columns.getByLabel('Default (inherit from cloud)').waitFor();
    expect(await columns.getByLabel('Default (inherit from cloud)').isChecked()).toBe(true);
    expect(await columns.getByLabel('Display name of Disk label').isDisabled()).toBe(true);

    await columns.getByLabel('Custom').check();
    await columns.getByRole('button', { name: 'Delete Source locator' }).click();
    await columns.getByRole('button', { name: 'Add column' }).click();
    await columns.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Metadata incomplete').first().waitFor();
    await columns.getByLabel('Display name of column 4').fill('Disk label');
    await columns.getByLabel('Key of Disk label').last().fill('reel');
    await columns.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Metadata duplicated').first().waitFor();
    await columns.getByLabel('Display name of Disk label').last().fill('Reel');
    await columns.getByLabel('Reel searchable').check();
    await columns.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Metadata columns have been saved successfully').waitFor();
    await screenshots(page, 'site-metadata-columns');

    await page.goto(`${base}/accounts/sports-desk/`);
    const inherited = page.locator('section#metadata-columns');
    await inherited.getByLabel('Default (inherit from site)').waitFor();
    await expect
      .poll(async () => inherited.getByRole('table', { name: 'File columns' }).locator('tbody tr').count())
      .toBe(4);
    expect(await inherited.getByLabel('Display name of Reel').inputValue()).toBe('Reel');
    await inherited.getByRole('tab', { name: 'Logging columns' }).click();
    expect(await inherited.getByLabel('Display name of Shot').inputValue()).toBe('Shot');
    await context.close();
  });
});

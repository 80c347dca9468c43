import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NODE_MESSAGES, newButtonBody, type Phase } from '@media/contract';
import type { BrowserContext, Page } from 'playwright-core';
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

/** The children table's row of a node, by its path. */
const row = (page: Page, path: string) => page.locator(`tr[data-row-id="${path}"]`);

/**
 * Creates a publishing button of evening-news through the API: source → {process} → Export to folder
 * {folder}, with the process's options as given.
 */
const createExportButton = async (
  context: BrowserContext,
  base: string,
  button: { name: string; processModuleId: string; processOptions: Record<string, unknown>; folder: string },
) => {
  const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
  const body = newButtonBody({
    name: button.name,
    processModuleId: button.processModuleId,
    destinationModuleId: 'folder-export',
  });
  for (const node of (body.phases[0] as Phase).phase.network.nodes) {
    if (node.moduleId === 'folder-export') node.options = { folder: button.folder };
    if (node.moduleId === button.processModuleId) node.options = button.processOptions;
  }
  const created = await context.request.post(`${base}/api/accounts/${account.id}/publishButtons`, {
    data: body,
    headers: await csrf(context),
  });
  expect(created.status(), await created.text()).toBe(200);
};

/** The media manager's other views and its Publish action, on the demo's evening-news account. */
describe('media manager views and publishing', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('shows a folder as a thumbnail grid: the List/Grid choice and the grid-only page', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const today = encodeURIComponent('/evening-news/News/Today');

    await page.goto(`${base}/accounts/evening-news/media?path=${today}`);
    await row(page, '/evening-news/News/Today/Weather opener').waitFor();
    await page.getByRole('radiogroup', { name: 'View' }).getByText('Grid').click();
    const grid = page.getByRole('list', { name: 'Children' });
    const weather = grid.getByRole('button', { name: 'Weather opener', exact: true });
    await weather.waitFor();
    expect(await page.locator('tbody tr[data-row-id]').count()).toBe(0);
    await expect
      .poll(() =>
        weather
          .locator('img')
          .evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBeGreaterThan(0);
    // A click selects the card and its metadata shows; Space from the keyboard selects another.
    await weather.click();
    expect(await weather.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('region', { name: 'Metadata' }).getByText('Metadata of Weather opener').waitFor();
    const sequence = grid.getByRole('button', { name: 'Bulletin sequence', exact: true });
    await sequence.focus();
    await page.keyboard.press('Space');
    expect(await sequence.getAttribute('aria-pressed')).toBe('true');
    expect(await weather.getAttribute('aria-pressed')).toBe('false');

    // The grid-only option: no tree and no choice of view; a double click on a folder opens it.
    await page.goto(
      `${base}/accounts/evening-news/media/grid?path=${encodeURIComponent('/evening-news/News')}`,
    );
    const todayCard = page
      .getByRole('list', { name: 'Children' })
      .getByRole('button', { name: 'Today', exact: true });
    await todayCard.waitFor();
    expect(await page.getByRole('tree', { name: 'Folders' }).count()).toBe(0);
    expect(await page.getByRole('radiogroup', { name: 'View' }).count()).toBe(0);
    await closeNotifications(page);
    await screenshots(page, 'media-grid-only');
    await todayCard.dblclick();
    await page
      .getByRole('list', { name: 'Children' })
      .getByRole('button', { name: 'Weather opener', exact: true })
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/accounts/evening-news/media/grid');
    await context.close();
  });

  it('publishes the selected media with a publishing button: the file lands in the exported folder', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await createExportButton(context, base, {
      name: 'Web export',
      processModuleId: 'transcode',
      processOptions: { format: 'mp4', videoBitrate: 800 },
      folder: 'web',
    });

    await page.goto(
      `${base}/accounts/evening-news/media?path=${encodeURIComponent('/evening-news/News/Today')}`,
    );
    const weather = row(page, '/evening-news/News/Today/Weather opener');
    await weather.getByRole('checkbox').check();
    await page
      .getByRole('toolbar', { name: 'Media actions' })
      .getByRole('button', { name: 'Publish' })
      .click();
    await page.getByRole('menuitem', { name: 'Web export' }).click();
    await page.getByText(NODE_MESSAGES.publishedOn('/evening-news/Publish/Web export')).waitFor();
    await screenshots(page, 'media-published');

    // The run ends with a Done notification, and the transcoded file is in DATA_DIR/exports.
    const exported = path.join(setup.server.dataDir, 'exports', 'evening-news', 'web', 'Weather opener.mp4');
    await expect.poll(() => fs.existsSync(exported), { timeout: 30_000 }).toBe(true);
    const probe = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', exported]).toString(),
    ) as { streams: { codec_type: string; codec_name: string }[] };
    expect(probe.streams.find((stream) => stream.codec_type === 'video')?.codec_name).toBe('h264');
    await closeNotifications(page);
    await page.getByRole('button', { name: /Notifications/ }).click();
    // The Done notification (a toast as it arrived, and in the popover's list).
    await page
      .getByText(NODE_MESSAGES.publishedOn('/evening-news/News/Today/Weather opener (Web export)'))
      .first()
      .waitFor();

    // The button's card lists the item with its result; its log shows, and Republish runs it again.
    await page.goto(`${base}/accounts/evening-news/publishing`);
    const card = page.getByLabel('Publishing button Web export');
    await card.getByText('1 published items').waitFor();
    await card.getByRole('button', { name: 'Published items' }).click();
    const items = page.getByRole('dialog', { name: 'Published items of Web export' });
    await items.getByText('exports/evening-news/web/Weather opener.mp4').waitFor();
    await items.getByRole('checkbox').last().check();
    await items.getByText('Transcode: done').waitFor();
    await screenshots(page, 'published-items');
    await items.getByRole('button', { name: 'Republish' }).click();
    await items.getByText('exports/evening-news/web/Weather opener (2).mp4').waitFor({ timeout: 30_000 });
    await context.close();
  });
  it('restores a deleted button with its published items from the Recycle Bin', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await createExportButton(context, base, {
      name: 'Binned export',
      processModuleId: 'as-is',
      processOptions: {},
      folder: 'binned',
    });
    const headers = await csrf(context);
    const published = await context.request.post(`${base}/api/nodesTransfer`, {
      data: {
        srcPath: '/evening-news/News/Today/Press conference',
        dstPath: '/evening-news/Publish/Binned export',
        operation: 'publish',
      },
      headers,
    });
    expect(published.status(), await published.text()).toBe(200);

    await page.goto(`${base}/accounts/evening-news/publishing`);
    const card = page.getByLabel('Publishing button Binned export');
    await card.getByText('1 published items').waitFor();
    await card.getByRole('button', { name: 'Delete Binned export' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await card.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Recycle Bin' }).click();
    const bin = page.getByRole('dialog', { name: 'Recycle Bin' });
    const binned = bin.locator('tr', { hasText: 'Binned export' });
    await binned.getByText('1', { exact: true }).waitFor();
    await screenshots(page, 'recycle-bin');
    await binned.getByRole('button', { name: 'Restore' }).click();
    await bin.getByText('The Recycle Bin is empty').waitFor();
    await page.keyboard.press('Escape');
    await page.getByLabel('Publishing button Binned export').getByText('1 published items').waitFor();
    await context.close();
  });
  it('asks for the options a button leaves empty, node by node, and publishes with the answers', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // A watermark without its text: each publish asks for it.
    await createExportButton(context, base, {
      name: 'Ask export',
      processModuleId: 'watermark',
      processOptions: { position: 'top-right' },
      folder: 'asked',
    });

    await page.goto(
      `${base}/accounts/evening-news/media?path=${encodeURIComponent('/evening-news/News/Today')}`,
    );
    await row(page, '/evening-news/News/Today/Weather opener').getByRole('checkbox').check();
    await row(page, '/evening-news/News/Today/Press conference').getByRole('checkbox').check();
    await page
      .getByRole('toolbar', { name: 'Media actions' })
      .getByRole('button', { name: 'Publish' })
      .click();
    await page.getByRole('menuitem', { name: 'Ask export' }).click();
    // One dialog per node, in the order of the selection; each answer is published on its own.
    const answered: string[] = [];
    for (let round = 0; round < 2; round++) {
      const dialog = page.getByRole('dialog', { name: /^Publish with Ask export: / });
      const title = (await dialog.getByRole('heading').textContent()) ?? '';
      const publishButton = dialog.getByRole('button', { name: 'Publish' });
      expect(await publishButton.isDisabled()).toBe(true);
      await dialog.getByLabel('Text').fill(`Exclusive ${round}`);
      if (round === 0) await screenshots(page, 'publish-options');
      await publishButton.click();
      await page.getByRole('dialog', { name: title }).waitFor({ state: 'detached' });
      answered.push(title.replace('Publish with Ask export: ', ''));
    }
    expect(answered.sort()).toEqual(['Press conference', 'Weather opener']);
    for (const name of ['Weather opener', 'Press conference'])
      await expect
        .poll(
          () =>
            fs.existsSync(path.join(setup.server.dataDir, 'exports', 'evening-news', 'asked', `${name}.mp4`)),
          {
            timeout: 30_000,
          },
        )
        .toBe(true);
    await context.close();
  });
});

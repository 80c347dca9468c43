import { newButtonBody, PUBLISH_MESSAGES } from '@media/contract';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  choose,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

/** A PNG of noise (so it stays large, about 300 kB) to watch the upload's progress on a slowed link. */
const noisyPng = () => {
  const size = 320;
  const pixels = Buffer.alloc(size * size * 3);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = Math.floor(Math.random() * 256);
  return sharp(pixels, { raw: { width: size, height: size, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
};

const seeAlert = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

describe('publishing buttons manager', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD });

  it('adds, fills, saves, renames, disables, edits in network mode, uploads an icon and deletes a button', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Publishing buttons' }).click();
    await page.getByRole('heading', { name: 'Publishing buttons' }).waitFor();
    await page.getByRole('button', { name: PUBLISH_MESSAGES.addTitle }).first().waitFor();
    await screenshots(page, 'publishing-page');

    // The Add Publishing Button dialog: Source Processing and Destination, each defaulting to the first.
    await page.getByRole('button', { name: PUBLISH_MESSAGES.addTitle }).first().click();
    const dialog = page.getByRole('dialog', { name: PUBLISH_MESSAGES.addTitle });
    await dialog.waitFor();
    expect(await dialog.getByLabel(PUBLISH_MESSAGES.sourceProcessing).inputValue()).toBe('As is');
    await choose(page, dialog.getByLabel(PUBLISH_MESSAGES.sourceProcessing), 'Transcode');
    await choose(page, dialog.getByLabel(PUBLISH_MESSAGES.destination), 'Export to folder');
    await screenshots(page, 'publishing-add-dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A new button: state new, Create disabled until the destination's required folder is filled.
    let card = page.getByRole('region', { name: 'Publishing button New publishing button' });
    await card.getByLabel('State new').waitFor();
    const create = card.getByRole('button', { name: 'Create', exact: true });
    await expect.poll(() => create.isDisabled()).toBe(true);
    await card.getByRole('textbox', { name: 'Folder' }).fill('/exports/web');
    await expect.poll(() => create.isDisabled()).toBe(false);
    await create.click();
    await seeAlert(page, PUBLISH_MESSAGES.created);
    await card.getByLabel('State clean').waitFor();

    // Rename ({id, name}), disable ({enabled}), keep for 7 days and save.
    await card.getByRole('button', { name: 'Edit publishing button name' }).click();
    await card.getByLabel('publishing button name', { exact: true }).fill('E2E web export');
    await card.getByLabel('publishing button name', { exact: true }).press('Enter');
    await seeAlert(page, PUBLISH_MESSAGES.nameSaved);
    card = page.getByRole('region', { name: 'Publishing button E2E web export' });
    await card.getByLabel('Enabled').uncheck({ force: true });
    await seeAlert(page, PUBLISH_MESSAGES.disabled);
    await choose(page, card.getByLabel('Keep for'), '7 days');
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await seeAlert(page, PUBLISH_MESSAGES.saved);
    await card.getByLabel('State clean').waitFor();
    await card.getByText('0 published items').waitFor();

    // Network mode by double-click: a lone node is a problem; discarding puts the network back.
    await card.getByTestId('publish-status').dblclick();
    const network = card.getByTestId('network-mode');
    await network.waitFor();
    await choose(page, network.getByLabel('Module', { exact: true }), 'Watermark');
    await network.getByRole('button', { name: 'Add node' }).click();
    await card.getByText(PUBLISH_MESSAGES.mustGoToDestination('Watermark')).first().waitFor();
    await card.getByText('Bad network').waitFor();
    await card.getByTestId('edited-in-network-mode').waitFor();
    await screenshots(page, 'publishing-network-mode');
    await card.getByRole('button', { name: 'Discard changes' }).click();
    await page
      .getByRole('dialog', { name: 'Discard changes' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await expect.poll(() => card.getByText('Bad network').count()).toBe(0);
    await card.getByRole('button', { name: 'Close network mode' }).click();
    await card.getByLabel(PUBLISH_MESSAGES.sourceProcessing).waitFor();

    // Icon upload on a slowed link: progress with a rounded percent, then the success message.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 10_000_000,
      uploadThroughput: 150_000,
    });
    await card.getByRole('button', { name: 'Upload icon' }).click();
    const iconDialog = page.getByRole('dialog', { name: PUBLISH_MESSAGES.uploadIconTitle });
    await iconDialog.waitFor();
    const upload = iconDialog.getByRole('button', { name: 'Upload', exact: true });
    expect(await upload.isDisabled()).toBe(true);
    await iconDialog.locator('input[type=file]').setInputFiles({
      name: 'web.png',
      mimeType: 'image/png',
      buffer: await noisyPng(),
    });
    await iconDialog.getByText('web.png').waitFor();
    await screenshots(page, 'publishing-icon-dialog');
    await upload.click();
    await iconDialog.getByTestId('icon-upload-percent').waitFor();
    expect(await iconDialog.getByTestId('icon-upload-percent').textContent()).toMatch(/^\d{1,3}%$/);
    expect(await upload.isDisabled()).toBe(true);
    await screenshots(page, 'publishing-icon-uploading');
    await seeAlert(page, PUBLISH_MESSAGES.iconUploaded);
    await iconDialog.waitFor({ state: 'hidden' });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await card.getByTestId('button-icon').waitFor();
    await card.getByRole('button', { name: 'Save', exact: true }).click();
    await card.getByLabel('State clean').waitFor();

    // A delete the server refuses: the alert says so and the card is usable again (spec3 §4).
    await page.route('**/api/publishButtons/*/trash', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'Disk full', code: 'internal' } }),
      }),
    );
    await card.getByRole('button', { name: 'Delete E2E web export' }).click();
    await page
      .getByRole('dialog', { name: 'Delete publishing button' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await seeAlert(page, PUBLISH_MESSAGES.buttonFailed('delete', 'Disk full'));
    // The toast opens below the header: its controls (user menu, notifications) stay usable.
    const toast = await page
      .locator('.mantine-Notification-root', {
        hasText: PUBLISH_MESSAGES.buttonFailed('delete', 'Disk full'),
      })
      .boundingBox();
    const header = await page.locator('.mantine-AppShell-header').boundingBox();
    expect(toast).not.toBeNull();
    expect(toast?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    await expect
      .poll(() => card.getByRole('button', { name: 'Delete E2E web export' }).isEnabled())
      .toBe(true);
    await page.unroute('**/api/publishButtons/*/trash');

    // Delete: the confirmation warns that the published items go to the Recycle Bin.
    await card.getByRole('button', { name: 'Delete E2E web export' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete publishing button' });
    await confirm.getByText(PUBLISH_MESSAGES.deleteWarning).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await seeAlert(page, PUBLISH_MESSAGES.deleted);
    await card.waitFor({ state: 'detached' });
    await context.close();
  });

  it('edits several buttons at once, checks where to run, refuses a bad icon, and links from the site', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = (await (await context.request.get(`${base}/api/accounts/byName/evening-news`)).json())
      .results as { id: number; siteId: number };
    // Two buttons made through the API, Beta first: the page lists them by name.
    for (const name of ['Beta', 'Alpha']) {
      const body = newButtonBody({
        name,
        processModuleId: 'transcode',
        destinationModuleId: 'folder-export',
      });
      const destination = body.phases[0]?.phase.network.nodes[1];
      if (destination) destination.options = { folder: `/exports/${name}` };
      const token = (await context.cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '';
      const answer = await context.request.post(`${base}/api/accounts/${account.id}/publishButtons`, {
        headers: { 'x-csrftoken': token },
        data: body,
      });
      const status = answer.status();
      expect(status).toBe(200);
    }
    await page.goto(`${base}/accounts/evening-news/publishing`);
    const cards = page.getByTestId('publish-button-card');
    await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(2);
    const names = await cards.evaluateAll((list) => list.map((card) => card.getAttribute('aria-label')));
    expect(names.indexOf('Publishing button Alpha')).toBeLessThan(names.indexOf('Publishing button Beta'));

    // Multi-select: keep both for 14 days and disable them in one save.
    await page.getByLabel('Select Alpha').check();
    await page.getByLabel('Select Beta').check();
    const bar = page.getByTestId('multi-edit');
    await bar.getByText('2 selected').waitFor();
    await choose(page, bar.getByLabel('Keep for'), '14 days');
    await choose(page, bar.getByLabel('Enabled'), 'Disabled');
    await screenshots(page, 'publishing-multi-select');
    await bar.getByRole('button', { name: 'Save' }).click();
    await seeAlert(page, PUBLISH_MESSAGES.buttonsSaved(2));
    for (const name of ['Alpha', 'Beta']) {
      const card = page.getByRole('region', { name: `Publishing button ${name}` });
      await expect.poll(() => card.getByLabel('Keep for').inputValue()).toBe('14 days');
      await expect.poll(() => card.getByLabel('Enabled').isChecked()).toBe(false);
    }

    // Where to run: an edge server cannot run Transcode 2.1 (or is not available).
    const alpha = page.getByRole('region', { name: 'Publishing button Alpha' });
    await alpha.getByLabel(PUBLISH_MESSAGES.whereToRun).click();
    await page.locator('.mantine-Select-option:visible').first().waitFor();
    const edgeOptions = page.locator('.mantine-Select-option:visible').filter({ hasNotText: 'Cloud' });
    if ((await edgeOptions.count()) > 0) {
      await edgeOptions.first().click();
      await alpha.getByTestId('location-problem').waitFor();
      expect(await alpha.getByTestId('location-problem').textContent()).toMatch(
        /will not be able to run this publishing button because (the location is not available|the module Transcode must be upgraded)/,
      );
      await alpha.getByRole('button', { name: 'Discard changes' }).click();
      await page
        .getByRole('dialog', { name: 'Discard changes' })
        .getByRole('button', { name: 'Discard' })
        .click();
    } else await page.keyboard.press('Escape');

    // An icon the server refuses: a warning, and the dialog is back to idle.
    await alpha.getByRole('button', { name: 'Upload icon' }).click();
    const iconDialog = page.getByRole('dialog', { name: PUBLISH_MESSAGES.uploadIconTitle });
    await iconDialog.locator('input[type=file]').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all'),
    });
    await iconDialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await page
      .getByText(/^Unable to upload icon - /)
      .first()
      .waitFor();
    await expect
      .poll(() => iconDialog.getByRole('button', { name: 'Upload', exact: true }).isDisabled())
      .toBe(false);
    await iconDialog.getByRole('button', { name: 'Cancel' }).click();

    // The site page links to the site's publishing buttons.
    await page.goto(`${base}/site/${account.siteId}/`);
    await page.getByRole('link', { name: 'Publishing buttons' }).click();
    await page.getByRole('heading', { name: 'Publishing buttons' }).waitFor();
    await page.getByRole('button', { name: PUBLISH_MESSAGES.addTitle }).first().waitFor();
    await context.close();
  });
  it('shows a viewer the buttons they may use, read-only, and not the one hidden from their role', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.viewer', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/evening-news/publishing`);
    await page.getByTestId('publishing-read-only').waitFor();
    await page.getByText('Archive copy', { exact: true }).waitFor();
    expect(await page.getByText('Partner FTP', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: PUBLISH_MESSAGES.addTitle }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByTestId('publish-status').count()).toBe(0);
    await screenshots(page, 'publishing-read-only');
    await context.close();
  });
});

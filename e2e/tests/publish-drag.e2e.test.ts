import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  API_VERSION_HEADER,
  API_VERSIONS,
  CLIP_EXPORT_MESSAGES,
  NODE_MESSAGES,
  type NodeListing,
  newButtonBody,
  type Phase,
  PLAYER_MESSAGES,
} from '@media/contract';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, closeNotifications, csrf } from '../api.ts';
import { E2E_ADMIN_PASSWORD, newPage, screenshot, signIn, useServerAndBrowser } from '../harness.ts';

const ACCOUNT = 'evening-news';
const TODAY = `/${ACCOUNT}/News/Today`;
const nodesHeaders = { [API_VERSION_HEADER]: API_VERSIONS.nodes };

type Probe = { streams: { codec_type: string; codec_name: string }[]; format: { duration: string } };
const ffprobe = (file: string) =>
  JSON.parse(
    execFileSync('ffprobe', [
      ...['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file],
    ]).toString(),
  ) as Probe;

/** The children table's row of a node, by its path. */
const row = (page: Page, nodePath: string) => page.locator(`tr[data-row-id="${nodePath}"]`);

/** A publishing button of the account: source → transcode to MP4 → Export to folder, its folder left empty. */
const createAskingExportButton = async (context: BrowserContext, base: string, name: string) => {
  const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/${ACCOUNT}`);
  const body = newButtonBody({ name, processModuleId: 'transcode', destinationModuleId: 'folder-export' });
  for (const node of (body.phases[0] as Phase).phase.network.nodes) {
    if (node.moduleId === 'folder-export') node.options = { folder: '' };
    if (node.moduleId === 'transcode') node.options = { format: 'mp4', videoBitrate: 800 };
  }
  const created = await context.request.post(`${base}/api/accounts/${account.id}/publishButtons`, {
    data: body,
    headers: await csrf(context),
  });
  expect(created.status(), await created.text()).toBe(200);
};

/**
 * Drags with the mouse the way a person does (press, move in steps, release), so that the page sees a real
 * HTML5 drag; `whileOver` runs with the pointer held over the target. A press the browser did not take for
 * the start of a drag (a busy machine) is let go and made again.
 */
const dragOnto = async (page: Page, from: Locator, to: Locator, whileOver?: () => Promise<void>) => {
  await expect
    .poll(() =>
      from.locator('img').evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth),
    )
    .toBeGreaterThan(0);
  for (let attempt = 1; ; attempt++) {
    await from.hover();
    await page.mouse.down();
    const box = await to.boundingBox();
    if (!box) throw new Error('the drop target is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
    await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2, { steps: 2 });
    const over = await expect
      .poll(() => to.getAttribute('data-drop-target'), { timeout: 5000 })
      .toBe('over')
      .then(
        () => true,
        () => false,
      );
    if (over) break;
    await page.mouse.up();
    if (attempt === 3) throw new Error('the drag did not reach the drop target');
  }
  await whileOver?.();
  await page.mouse.up();
};

/** Drag and drop in the media manager (spec3 §2 "Move, copy and publish"; issue 15 e2e acceptance). */
describe('publishing by drag and drop, and the player exporting a clip', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1' });

  it('publishes a node dropped on a publishing button: options dialog, progress, Done notification, the exported file', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await createAskingExportButton(context, base, 'Drop export');

    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(TODAY)}`);
    const tree = page.getByRole('tree', { name: 'Folders' });
    // The tree shows the account's buttons under Publish, open from the start.
    const button = tree.getByRole('treeitem', { name: 'Drop export' });
    await button.waitFor();
    expect(await button.getAttribute('data-path')).toBe(`/${ACCOUNT}/Publish/Drop export`);
    const weather = row(page, `${TODAY}/Weather opener`);
    await weather.waitFor();

    // Held over the button, it shows where the node will go.
    await closeNotifications(page);
    await dragOnto(page, weather.getByTestId('drag-handle'), button.locator('[data-drop-target]'), () =>
      screenshot(page, 'publish-drag-over-button'),
    );

    // The folder was left empty: the options dialog asks for it for this node.
    const dialog = page.getByRole('dialog', { name: 'Publish with Drop export: Weather opener' });
    await dialog.waitFor();
    const publish = dialog.getByRole('button', { name: 'Publish' });
    expect(await publish.isDisabled()).toBe(true);
    await dialog.getByLabel('Folder').fill('dropped');
    await publish.click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByText(NODE_MESSAGES.publishedOn(`/${ACCOUNT}/Publish/Drop export`))
      .first()
      .waitFor();

    // Its progress shows beside the tree, live, until it is done with where the file went.
    const recent = page.getByRole('region', { name: 'Recent publishes' });
    const item = recent.getByTestId('recent-publish').filter({ hasText: 'Weather opener' });
    await item.waitFor();
    await item.getByText(/^(running|done)/).waitFor({ timeout: 60_000 });
    await screenshot(page, 'publish-drag-progress');
    await item.getByText('done', { exact: true }).waitFor({ timeout: 60_000 });
    await item.getByText('exports/evening-news/dropped/Weather opener.mp4').waitFor();
    expect(await item.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await closeNotifications(page);
    await screenshot(page, 'publish-drag-done');

    // The file is a real video under DATA_DIR/exports.
    const exported = path.join(setup.server.dataDir, 'exports', ACCOUNT, 'dropped', 'Weather opener.mp4');
    expect(fs.existsSync(exported)).toBe(true);
    const probe = ffprobe(exported);
    expect(probe.streams.find((stream) => stream.codec_type === 'video')?.codec_name).toBe('h264');
    expect(Number(probe.format.duration)).toBeGreaterThan(4);

    // The Done notification, with its link to the button's place in the tree and its published items.
    await page.getByRole('button', { name: /Notifications/ }).click();
    await page.getByRole('tab', { name: /Done/ }).click();
    const done = page
      .getByRole('tabpanel', { name: /Done/ })
      .getByTestId('notification-item')
      .filter({ hasText: NODE_MESSAGES.publishedOn(`${TODAY}/Weather opener (Drop export)`) });
    await done.waitFor();
    await done.getByRole('link', { name: 'Open' }).click();
    await expect
      .poll(() => new URL(page.url()).searchParams.get('path'))
      .toBe(`/${ACCOUNT}/Publish/Drop export`);
    const items = page.getByRole('region', { name: 'Publishing button Drop export' });
    await items.getByText('exports/evening-news/dropped/Weather opener.mp4').waitFor();
    expect(await tree.getByRole('treeitem', { name: 'Drop export' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    // Following the link closed the notifications.
    await page.getByRole('tabpanel', { name: /Done/ }).waitFor({ state: 'hidden' });
    await closeNotifications(page);
    await screenshot(page, 'publish-drag-button-items');
    await context.close();
  });

  it('opens Move or copy with the folder chosen when a node is dropped on a folder of the tree', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(TODAY)}`);
    const press = row(page, `${TODAY}/Press conference`);
    await press.waitFor();
    const sport = page.getByRole('tree', { name: 'Folders' }).getByRole('treeitem', { name: 'Sport' });
    await dragOnto(page, press.getByTestId('drag-handle'), sport.locator('[data-drop-target]'));
    const dialog = page.getByRole('dialog', { name: 'Move or copy' });
    await dialog.getByText(`/${ACCOUNT}/Sport`).waitFor();
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText(`is copied to /${ACCOUNT}/Sport successfully!`, { exact: false }).first().waitFor();
    const copied = await apiGet<NodeListing>(
      context,
      `${base}/api/nodes?path=${encodeURIComponent(`/${ACCOUNT}/Sport`)}`,
      nodesHeaders,
    );
    expect(copied.children.map((node) => node.name)).toContain('Press conference');
    await context.close();
  });

  it("renders a clip with the player's export button, then plays the rendered file", async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const listing = await apiGet<NodeListing>(
      context,
      `${base}/api/nodes?path=${encodeURIComponent(TODAY)}&type=edl`,
      nodesHeaders,
    );
    const clip = listing.children.find((node) => node.name === 'Weather opener (clip)');
    const clipId = clip?.mediaId as number;
    expect(clipId, 'the demo clip').toBeGreaterThan(0);
    // The demo's clip has no file yet.
    expect((await context.request.get(`${base}/api/edls/${clipId}/content`)).status()).toBe(404);

    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(TODAY)}`);
    await page.getByRole('button', { name: 'Weather opener (clip)', exact: true }).click();
    const player = page.getByTestId('floating-player');
    await player.waitFor();
    const frame = page.frameLocator('iframe[title="Weather opener (clip)"]');
    const video = frame.getByTestId('player-video');
    await frame.getByRole('button', { name: PLAYER_MESSAGES.markIn }).waitFor({ timeout: 15_000 });
    // It plays from its edl: the source's file.
    expect(await video.getAttribute('src')).not.toContain(`/api/media/${clipId}/`);

    const exportButton = player.getByRole('button', { name: PLAYER_MESSAGES.exportButton });
    expect(await exportButton.getAttribute('title')).toBe(CLIP_EXPORT_MESSAGES.exportHint);
    await exportButton.click();
    // While it renders the title bar says so in place of the button.
    await player.getByRole('status').getByText(CLIP_EXPORT_MESSAGES.rendering).waitFor();
    await screenshot(page, 'player-export-rendering');
    await page.getByText(CLIP_EXPORT_MESSAGES.rendered('Weather opener (clip)')).waitFor({ timeout: 60_000 });
    await expect.poll(() => video.getAttribute('src')).toContain(`/api/media/${clipId}/content`);
    const loaded = () =>
      video.evaluate((element) => {
        const v = element as unknown as { readyState: number; duration: number };
        return { readyState: v.readyState, duration: v.duration };
      });
    await expect.poll(async () => (await loaded()).readyState, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    // The clip runs from 1 s to 4 s of its source.
    expect((await loaded()).duration).toBeCloseTo(3, 0);
    await player.getByRole('button', { name: PLAYER_MESSAGES.exportButton }).waitFor();
    await screenshot(page, 'player-export-rendered');

    const served = await context.request.get(`${base}/api/edls/${clipId}/content`);
    expect(served.status()).toBe(200);
    const file = path.join(setup.server.dataDir, 'rendered-clip.mp4');
    fs.writeFileSync(file, await served.body());
    const probe = ffprobe(file);
    expect(probe.streams.find((stream) => stream.codec_type === 'video')?.codec_name).toBe('h264');
    expect(Number(probe.format.duration)).toBeCloseTo(3, 0);
    await context.close();
  });
});

import {
  API_VERSION_HEADER,
  API_VERSIONS,
  type Clipping,
  clipSavePayload,
  embeddedPlayerPath,
  type NodeListing,
  PLAYER_MESSAGES,
  type PlayerCommand,
  type PlayerEvent,
  type PlayerMediaInfo,
} from '@media/contract';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  newPage,
  screenshot,
  signIn,
  useServerAndBrowser,
  watchCspViolations,
} from '../harness.ts';

const ACCOUNT = 'evening-news';
const FOLDER = `/${ACCOUNT}/News/Today`;
const headers = { [API_VERSION_HEADER]: API_VERSIONS.nodes };

const apiGet = async <T>(context: BrowserContext, url: string) => {
  const response = await context.request.get(url, { headers });
  expect(response.status(), url).toBe(200);
  return ((await response.json()) as { results: T }).results;
};

/**
 * Frames the embedded video player in the page the way the floating player does, and records every message
 * the player frame posts to it.
 */
const framePlayer = async (page: Page, src: string) => {
  await page.evaluate(`(() => {
    const frame = document.createElement('iframe');
    frame.id = 'player-frame';
    frame.src = ${JSON.stringify(src)};
    frame.style.cssText = 'position:fixed;left:12px;top:46px;width:640px;height:400px;border:0;z-index:9999';
    window.playerEvents = [];
    window.addEventListener('message', (event) => {
      if (event.source === frame.contentWindow) window.playerEvents.push(event.data);
    });
    document.body.append(frame);
  })()`);
  await expect
    .poll(() => page.frames().some((frame) => frame.url().includes('/reactvideoplayer')))
    .toBe(true);
  const frame = page.frames().find((candidate) => candidate.url().includes('/reactvideoplayer')) as Frame;
  await frame.getByTestId('embedded-player').waitFor();
  return frame;
};

const send = (page: Page, command: PlayerCommand) =>
  page.evaluate(
    `document.getElementById('player-frame').contentWindow.postMessage(${JSON.stringify(command)}, window.location.origin)`,
  );

const events = (page: Page) => page.evaluate('window.playerEvents') as Promise<PlayerEvent[]>;
const eventOf = async <T extends PlayerEvent['type']>(page: Page, type: T) => {
  await expect.poll(async () => (await events(page)).some((event) => event.type === type)).toBe(true);
  return (await events(page)).find((event) => event.type === type) as Extract<PlayerEvent, { type: T }>;
};

const videoTime = (frame: Frame) =>
  frame
    .getByTestId('player-video')
    .evaluate((video) => (video as unknown as { currentTime: number }).currentTime);

const seekTo = async (page: Page, frame: Frame, seconds: number) => {
  await send(page, { type: 'seek', seconds });
  await expect.poll(() => videoTime(frame)).toBeCloseTo(seconds, 2);
};

describe('player', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1' });

  it('plays a media in the embedded player, marks in and out, and the clipping it answers saves a clip', async () => {
    const { context, page } = await newPage(setup.browser);
    const cspViolations = await watchCspViolations(page);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    const listing = await apiGet<NodeListing>(
      context,
      `${base}/api/nodes?path=${encodeURIComponent(FOLDER)}`,
    );
    const source = listing.children.find((node) => node.name === 'Weather opener' && node.mediaId);
    expect(source, 'the demo source Weather opener').toBeDefined();
    const mediaId = source?.mediaId as number;
    const info = await apiGet<PlayerMediaInfo>(context, `${base}/api/media/${mediaId}`);
    expect(info).toMatchObject({ mediaId, type: 'media', accountName: ACCOUNT, exportEnabled: true });

    // The embedded player address is a bare page that another page of the same origin may frame.
    const frame = await framePlayer(page, embeddedPlayerPath(info.accountId, info.accountName));
    await expect.poll(() => frame.getByRole('navigation').count()).toBe(0);

    await send(page, { type: 'loadSource', mediaId, fps: info.edl?.fps });
    const ready = await eventOf(page, 'jsplayerReady');
    expect(ready.videoWidth).toBe(info.proxyWidth);
    expect(ready.videoHeight).toBe(info.proxyHeight);
    expect(ready.duration).toBeGreaterThan(5);

    // The in and out controls show in the editor controls mode only.
    expect(await frame.getByRole('button', { name: PLAYER_MESSAGES.markIn }).count()).toBe(0);
    await send(page, { type: 'controlsMode', mode: 'editor' });
    await frame.getByRole('button', { name: PLAYER_MESSAGES.markIn }).waitFor();

    await send(page, { type: 'play' });
    await expect.poll(() => videoTime(frame)).toBeGreaterThan(0.2);
    await send(page, { type: 'stop' });
    await seekTo(page, frame, 1);
    await frame.getByRole('button', { name: PLAYER_MESSAGES.markIn }).click();
    await expect.poll(() => frame.getByTestId('player-in').textContent()).toBe('00:00:01:00');
    await seekTo(page, frame, 3);
    // Key O marks the out point like the button.
    await frame.getByTestId('player-video').focus();
    await frame.page().keyboard.press('o');
    await expect.poll(() => frame.getByTestId('player-out').textContent()).toBe('00:00:03:00');
    await seekTo(page, frame, 2);

    await send(page, { type: 'requestInOutPoints' });
    const clipping: Clipping = await eventOf(page, 'clipping');
    expect(clipping).toMatchObject({
      inFrame: 25,
      outFrame: 75,
      imageFrame: 50,
      fps: 25,
      length: 50,
      videoWidth: info.proxyWidth,
      isSelection: true,
      edl: { fps: 25, events: [{ mediaId, inFrame: 25, outFrame: 75 }] },
    });
    expect(clipping.imageJpegDataURL).toMatch(/^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/);
    expect(clipping.imageJpegDataURL.length).toBeGreaterThan(2000);
    await screenshot(page, 'player-embedded');

    // A seek to the end, as the floating player sends for a start of 'end'.
    await send(page, { type: 'seek', skipToEnd: true });
    await expect.poll(async () => (await videoTime(frame)) > 5.5).toBe(true);

    // The clip save payload the naming dialog sends is accepted: a clip of 2 s with its picture at 1 s.
    const name = PLAYER_MESSAGES.clipTitle(info.name);
    const saved = await context.request.post(`${base}/api/nodes`, {
      headers: { ...headers, ...(await csrf(context)) },
      data: clipSavePayload({ ...clipping, name }, FOLDER),
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const after = await apiGet<NodeListing>(
      context,
      `${base}/api/nodes?path=${encodeURIComponent(FOLDER)}&type=edl`,
    );
    const clip = after.children.find((node) => node.name === name);
    expect(clip).toMatchObject({ type: 'edl' });
    expect(clip?.thumbId).not.toBeNull();
    // The page, the framed player page and the playing video all keep to the Content-Security-Policy.
    expect(cspViolations()).toEqual([]);
    await context.close();
  });

  it('answers errorLoadingMedia with the reason when the media cannot be loaded', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/${ACCOUNT}`);
    await framePlayer(page, embeddedPlayerPath(account.id, ACCOUNT));
    await send(page, { type: 'loadSource', mediaId: 999_999 });
    const error = await eventOf(page, 'errorLoadingMedia');
    expect(error.reason).toMatch(/not found/i);
    await context.close();
  });
  it('opens from the media manager: floats, minimises, and saves a clip to the folder', async () => {
    const { page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(FOLDER)}`);
    await page.getByRole('button', { name: 'Weather opener', exact: true }).click();
    const player = page.getByTestId('floating-player');
    await player.waitFor();
    const frame = page.frameLocator('iframe[title="Weather opener"]');
    // The controls mode 'editor' arrives a second after loadSource, itself a second after the frame loads.
    await frame.getByRole('button', { name: 'Mark in' }).waitFor({ timeout: 15_000 });
    const box = await player.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(650);
    // It opens at the top right below the header: the folder tree and the header's controls stay in view.
    const tree = await page.getByRole('tree', { name: 'Folders' }).boundingBox();
    const header = await page.locator('.mantine-AppShell-header').boundingBox();
    expect(box?.x ?? 0).toBeGreaterThanOrEqual((tree?.x ?? 0) + (tree?.width ?? 0));
    expect(box?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
    await page.getByRole('button', { name: 'Minimise' }).click();
    await expect.poll(async () => (await player.boundingBox())?.width).toBe(320);
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('button', { name: PLAYER_MESSAGES.exportButton }).click();
    const dialog = page.getByTestId('clip-naming-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toContain(`Save to current location: ${FOLDER}`);
    await expect.poll(() => dialog.getByRole('textbox').inputValue()).toBe('Weather opener (copy)');
    await screenshot(page, 'player-floating-naming');
    // The first test of this file saved the default title already; a clash would keep the dialog open.
    await dialog.getByRole('textbox').fill('Weather opener (floating)');
    await dialog.getByRole('button', { name: 'Clip' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Close' }).first().click();
    await player.waitFor({ state: 'detached' });
    // The new clip shows in the folder through the live update.
    await page.getByRole('button', { name: 'Weather opener (floating)', exact: true }).waitFor();
    await screenshot(page, 'player-clip-saved');
  });

  it('says so in the window when the media cannot be played, offers no export, and closes', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    // The file is gone by the time the player asks for it.
    await context.route('**/api/media/*/content**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"message":"Gone"}}' }),
    );
    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(FOLDER)}`);
    await page.getByRole('button', { name: 'Weather opener', exact: true }).click();
    const player = page.getByTestId('floating-player');
    const failure = player.getByTestId('player-failure');
    await failure.waitFor({ timeout: 15_000 });
    expect(await failure.textContent()).toContain('An error occurred opening the Player');
    expect(await player.getByRole('button', { name: PLAYER_MESSAGES.exportButton }).isDisabled()).toBe(true);
    await screenshot(page, 'player-failed');
    await failure.getByRole('button', { name: PLAYER_MESSAGES.close }).click();
    await player.waitFor({ state: 'detached' });
    await context.close();
  });
});

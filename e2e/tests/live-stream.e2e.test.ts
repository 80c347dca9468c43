import { type EdgeServer, type IngestQueueItem, PLAYER_MESSAGES } from '@media/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiGet, csrf } from '../api.ts';
import {
  cutClip,
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  playMuted,
  screenshot,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const ACCOUNT = 'evening-news';
const ENDPOINT = 'Studio test pattern';

const itemAction = async (page: Page, id: number, action: string) => {
  await page.getByRole('button', { name: `Actions for item ${id}` }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
};

/**
 * A live stream with the real local agent (issue 16): a test stream endpoint on the local edge server is
 * started from the ingest queue, watched live in the floating player while it records, stopped, and its
 * recording plays from the media tree, where a clip is cut from it.
 */
describe('a live stream recorded, watched live, and clipped', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD, LOCAL_EDGE: '1' });

  it('start the test stream, monitor it live, stop it, play the recording, cut a clip', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();

    // A stream ingest service with a test stream endpoint on the local edge, feeding the account's folder.
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/${ACCOUNT}`);
    const edges = await apiGet<EdgeServer[]>(
      context,
      `${base}/api/edgeServers?searchText=${encodeURIComponent('Local edge server')}`,
    );
    const edge = edges.find((row) => row.name === 'Local edge server');
    if (!edge) throw new Error('no local edge server');
    const folders = await apiGet<{ id: number; name: string }[]>(
      context,
      `${base}/api/accounts/${account.id}/arrivalsFolders`,
    );
    const folder = folders.find((row) => row.name === 'Incoming rushes');
    if (!folder) throw new Error('no arrivals folder Incoming rushes');
    const service = await context.request.post(`${base}/api/edgeServers/${edge.id}/services`, {
      data: {
        edgeServerId: edge.id,
        name: 'Local streams',
        typeId: 'StreamIngestService',
        options: { segmentSeconds: { value: '2' } },
      },
      headers: await csrf(context),
    });
    expect(service.status()).toBe(200);
    const serviceId = ((await service.json()) as { results: { id: number } }).results.id;
    const endpoint = await context.request.post(`${base}/api/services/${serviceId}/endpoints`, {
      data: {
        name: ENDPOINT,
        typeId: 'TeststreamEndpoint',
        accountId: account.id,
        arrivalsFolderId: folder.id,
        options: {},
      },
      headers: await csrf(context),
    });
    expect(endpoint.status()).toBe(200);
    const endpointId = ((await endpoint.json()) as { results: { id: number } }).results.id;
    // A new endpoint is offline until a person switches it online.
    const online = await context.request.post(`${base}/api/endpoints/${endpointId}`, {
      data: { name: ENDPOINT, accountId: account.id, arrivalsFolderId: folder.id, online: true },
      headers: await csrf(context),
    });
    expect(online.status()).toBe(200);

    // The agent offers the stream in the queue, waiting for Start.
    const item = async () =>
      (
        await apiGet<IngestQueueItem[]>(
          context,
          `${base}/api/accounts/${account.id}/ingestQueueItems?pageSize=1000`,
        )
      ).find((row) => row.endpoint?.name === ENDPOINT && !row.isSchedule && row.status !== 'deleted');
    await expect
      .poll(async () => (await item())?.status, { timeout: 60_000, interval: 1000 })
      .toBe('actionRequired');
    const stream = (await item()) as IngestQueueItem;
    await page.goto(`${base}/accounts/${account.id}/ingestQueue?mode=streams`);
    const row = page.locator(`tbody tr[data-row-id="${stream.id}"]`);
    await row.waitFor();
    await itemAction(page, stream.id, 'Start stream');
    await expect
      .poll(async () => (await row.getByTestId('ingest-status').textContent()) ?? '', { timeout: 60_000 })
      .toMatch(/recording$/);

    // Monitor: once the first segments are up, the floating player plays the stream live.
    await expect
      .poll(async () => (await item())?.liveNode?.mediaId ?? null, { timeout: 60_000, interval: 1000 })
      .not.toBeNull();
    const liveNode = (await item())?.liveNode;
    const nodeName = liveNode?.path.split('/').at(-1) ?? '';
    await itemAction(page, stream.id, 'Monitor');
    const player = page.getByTestId('floating-player');
    await player.waitFor();
    const frame = page.frameLocator('[data-testid="floating-player"] iframe');
    await frame.getByTestId('player-live').waitFor({ timeout: 30_000 });
    const video = frame.getByTestId('player-video');
    await expect
      .poll(() => video.evaluate((element) => (element as unknown as { readyState: number }).readyState), {
        timeout: 30_000,
      })
      .toBeGreaterThanOrEqual(2);
    const currentTime = await playMuted(video);
    const first = await currentTime();
    await expect.poll(currentTime, { timeout: 30_000 }).toBeGreaterThan(first + 1.5);
    await screenshot(page, 'live-stream-monitor');

    // Stop: the recording lands on the node that played live, and the open player goes on with the file.
    await itemAction(page, stream.id, 'Stop stream');
    await expect
      .poll(async () => (await row.getByTestId('ingest-status').textContent()) ?? '', { timeout: 120_000 })
      .toBe('ingested');
    await frame.getByTestId('player-live').waitFor({ state: 'detached', timeout: 30_000 });
    await expect
      .poll(() => video.evaluate((element) => (element as unknown as { src: string }).src), {
        timeout: 30_000,
      })
      .toContain(`/api/media/${liveNode?.mediaId}/content`);
    await page.getByRole('button', { name: PLAYER_MESSAGES.close }).first().click();
    await player.waitFor({ state: 'hidden' });

    // The recording plays from the media tree, and a clip is cut from it.
    const folderPath = `/${ACCOUNT}/Arrivals/Incoming rushes`;
    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(folderPath)}`);
    await page.getByRole('button', { name: nodeName, exact: true }).click({ timeout: 30_000 });
    await player.waitFor();
    const recordingFrame = page.frameLocator('[data-testid="floating-player"] iframe');
    await recordingFrame.getByRole('button', { name: 'Mark in' }).waitFor({ timeout: 20_000 });
    expect(await recordingFrame.getByTestId('player-live').count()).toBe(0);
    const recordingVideo = recordingFrame.getByTestId('player-video');
    const recordingTime = await playMuted(recordingVideo);
    await expect.poll(recordingTime, { timeout: 20_000 }).toBeGreaterThan(1);
    await cutClip(page, recordingFrame, { from: 0.5, to: 2.5, name: 'Live clip' });
    await screenshot(page, 'live-stream-clip-saved');
    await context.close();
  }, 360_000);
});

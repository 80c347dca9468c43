import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { IngestQueueItem } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { apiGet } from '../api.ts';
import {
  cutClip,
  E2E_DEMO_PASSWORD,
  newPage,
  playMuted,
  screenshot,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const ACCOUNT = 'evening-news';
const FOLDER = `/${ACCOUNT}/Arrivals/Incoming rushes`;
const CLIP = 'e2e-drop';

/**
 * The whole flow of DESIGN.md with the real local agent (issue 13): a video dropped into the local edge's
 * folder goes through the ingest queue (queued, ingesting with a percentage, ingested), lands in the
 * account's media tree, plays in the floating player, and a clip is cut from it.
 */
describe('a dropped video becomes media one can play and clip', () => {
  const setup = useServerAndBrowser({ SEED_DEMO: '1', DEMO_PASSWORD: E2E_DEMO_PASSWORD, LOCAL_EDGE: '1' });

  it('drop, watch the queue, open in the media manager, play, clip', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, `${ACCOUNT}.manager`, E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/${ACCOUNT}`);
    await page.goto(`${base}/accounts/${account.id}/ingestQueue`);
    await page.locator('tbody tr[data-row-id]').first().waitFor();

    // Long enough that the queue shows it ingesting for a while; small enough for a quick test.
    const made = path.join(setup.server.dataDir, `${CLIP}.mp4`);
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine'],
      ...['-t', '12', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', made],
    ]);
    fs.renameSync(made, path.join(setup.server.dataDir, 'edge', 'arrivals', `${CLIP}.mp4`));

    const item = async () =>
      (
        await apiGet<IngestQueueItem[]>(
          context,
          `${base}/api/accounts/${account.id}/ingestQueueItems?pageSize=1000`,
        )
      ).find((row) => row.clipName === CLIP);
    const row = () => page.locator('tbody tr[data-row-id]').filter({ hasText: CLIP });
    await expect.poll(async () => (await item())?.status, { timeout: 60_000 }).toMatch(/queued|ingesting/);
    // The queue shows the percentage while the agent works.
    await expect
      .poll(async () => (await row().getByTestId('ingest-status').textContent()) ?? '', { timeout: 60_000 })
      .toMatch(/ingesting \d+%/);
    await screenshot(page, 'ingest-flow-ingesting');
    await expect
      .poll(async () => (await row().getByTestId('ingest-status').textContent()) ?? '', { timeout: 120_000 })
      .toBe('ingested');
    expect(await item()).toMatchObject({ status: 'ingested', proxyWidth: 640, proxyHeight: 360 });

    // In the media tree, it plays in the floating player.
    await page.goto(`${base}/accounts/${ACCOUNT}/media?path=${encodeURIComponent(FOLDER)}`);
    await page.getByRole('button', { name: CLIP, exact: true }).click();
    const player = page.getByTestId('floating-player');
    await player.waitFor();
    const frame = page.frameLocator(`iframe[title="${CLIP}"]`);
    await frame.getByRole('button', { name: 'Mark in' }).waitFor({ timeout: 20_000 });
    const video = frame.getByTestId('player-video');
    const currentTime = await playMuted(video);
    await expect.poll(currentTime).toBeGreaterThan(1);
    await screenshot(page, 'ingest-flow-playing');

    // Cut a clip: in at the start, out a few seconds later, saved beside the source.
    await cutClip(page, frame, { from: 1, to: 4, name: `${CLIP} (clip)` });
    await screenshot(page, 'ingest-flow-clip-saved');
    await context.close();
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newButtonBody, type Phase, PUBLISH_HELP_MESSAGES, type Publish } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { startFakeGoogle } from '../../apps/server/test/fake-google.ts';
import { apiGet, csrf } from '../api.ts';
import {
  E2E_ADMIN_PASSWORD,
  E2E_DEMO_PASSWORD,
  newPage,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

// Google's side of the connection, on 127.0.0.1, before the server starts with its addresses.
const google = await startFakeGoogle();

/**
 * The publish-help screen (spec2 area "publish help", spec3 §2/§4): a YouTube publish fails because the
 * account has no channel; its help opens Google's consent screen in a popup, Continue publishes again,
 * and the video reaches YouTube (a fake Google on 127.0.0.1).
 */
describe('publish help', () => {
  const setup = useServerAndBrowser({
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    GOOGLE_CLIENT_ID: google.google.clientId,
    GOOGLE_CLIENT_SECRET: google.google.clientSecret,
    GOOGLE_AUTH_URL: google.google.authUrl,
    GOOGLE_TOKEN_URL: google.google.tokenUrl,
    YOUTUBE_API_URL: google.google.youtubeApiUrl,
  });

  it('connects the YouTube channel from a failed item’s help and publishes it again', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'admin', E2E_ADMIN_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    const account = await apiGet<{ id: number }>(context, `${base}/api/accounts/byName/evening-news`);
    const body = newButtonBody({ name: 'Tube', processModuleId: 'as-is', destinationModuleId: 'youtube' });
    for (const node of (body.phases[0] as Phase).phase.network.nodes)
      if (node.moduleId === 'youtube') node.options = { title: 'Press conference', privacy: 'private' };
    const headers = await csrf(context);
    const created = await context.request.post(`${base}/api/accounts/${account.id}/publishButtons`, {
      data: body,
      headers,
    });
    expect(created.status(), await created.text()).toBe(200);
    const published = await context.request.post(`${base}/api/nodesTransfer`, {
      data: {
        srcPath: '/evening-news/News/Today/Press conference',
        dstPath: '/evening-news/Publish/Tube',
        operation: 'publish',
      },
      headers,
    });
    expect(published.status(), await published.text()).toBe(200);
    const [id] = ((await published.json()) as { results: { publishIds: number[] } }).results.publishIds as [
      number,
    ];
    await expect
      .poll(async () => (await apiGet<Publish>(context, `${base}/api/publishes/${id}`)).status, {
        timeout: 30_000,
      })
      .toBe('failed');

    await page.goto(`${base}/publishes/${id}/help`);
    const help = page.getByLabel('Help');
    await help.getByRole('button', { name: 'Open the sign-in window' }).waitFor();
    await page.getByText(PUBLISH_HELP_MESSAGES.youtubeNotConnected).first().waitFor();
    await screenshots(page, 'publish-help-connect');
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      help.getByRole('button', { name: 'Open the sign-in window' }).click(),
    ]);
    await popup.waitForLoadState();
    expect(await popup.locator('body').textContent()).toBe(
      PUBLISH_HELP_MESSAGES.youtubeConnected('Newsroom Channel', 'evening-news'),
    );
    await popup.close();

    await help.getByRole('button', { name: 'Continue' }).click();
    const again = help.getByRole('status').filter({ hasText: /Publishing again as item \d+/ });
    await again.waitFor();
    await screenshots(page, 'publish-help-again');
    const next = Number(/item (\d+)/.exec((await again.textContent()) ?? '')?.[1]);
    await page.goto(`${base}/publishes/${next}/help`);
    await page
      .getByLabel('Published item')
      .getByText(/youtube\.com\/watch\?v=/)
      .waitFor({ timeout: 30_000 });
    await page.getByLabel('Published item').getByText('done').waitFor();

    const [upload] = google.state.uploads;
    expect(upload?.metadata).toMatchObject({
      snippet: { title: 'Press conference' },
      status: { privacyStatus: 'private' },
    });
    const received = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'youtube-')), 'video.mp4');
    fs.writeFileSync(received, upload?.bytes as Buffer);
    const streams = JSON.parse(
      execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', received]).toString(),
    ) as { streams: { codec_type: string; codec_name: string }[] };
    expect(streams.streams.find((stream) => stream.codec_type === 'video')?.codec_name).toBe('h264');
    await context.close();
    await google.close();
  });
});

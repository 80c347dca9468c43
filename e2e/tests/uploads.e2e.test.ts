import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { defaultUploadLocation, MSG_METADATA_MAPPING_TARGET } from '@media/contract';
import { describe, expect, it } from 'vitest';
import {
  E2E_DEMO_PASSWORD,
  newPage,
  playMuted,
  screenshots,
  signIn,
  useServerAndBrowser,
} from '../harness.ts';

const MAX_BYTES = 400_000;

describe('web upload and metadata upload pages', () => {
  const setup = useServerAndBrowser({
    SEED_DEMO: '1',
    DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
  });

  it('uploads media one file at a time with its name and options, shows refusals and failures, and lists them', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Web upload' }).click();
    await page.getByRole('heading', { name: 'Web upload' }).waitFor();
    await page.getByText('Nothing has been uploaded yet').waitFor();
    expect(await page.getByLabel('Location').inputValue()).toBe(defaultUploadLocation(new Date()));

    await page.locator('input[type=file]').setInputFiles([
      { name: 'clip.mov', mimeType: 'video/quicktime', buffer: Buffer.from('a short clip') },
      { name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
      { name: 'huge.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(MAX_BYTES + 1, 7) },
      { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await page.getByText('These files are not media or documents: setup.exe').waitFor();
    const chosen = page.getByRole('table', { name: 'Chosen files' });
    await expect.poll(() => chosen.locator('tbody tr').count()).toBe(3);
    await chosen.getByLabel('Name of clip.mov').fill('Opening shot');
    await chosen.getByRole('button', { name: 'Remove notes.pdf' }).click();
    await screenshots(page, 'web-upload-chosen');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Upload complete: 1 uploaded, 1 failed. Add files to upload more.').waitFor();
    expect(await chosen.locator('tr[data-status="complete"]').count()).toBe(1);
    await chosen.getByText(`The file is larger than the ${MAX_BYTES} bytes allowed`).waitFor();
    await page.getByText('Opening shot', { exact: true }).last().waitFor();
    await screenshots(page, 'web-upload-complete');

    // 'a short clip' is no video: its proxy job fails, saying why.
    await page
      .getByTestId('upload-error')
      .getByText('clip.mov has no picture or sound that ffmpeg can read')
      .waitFor();

    // Adding files after the round starts a new one: a real video (under the limit) becomes a node that plays.
    const bRoll = path.join(setup.server.dataDir, 'b-roll.mp4');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25', '-f', 'lavfi', '-i', 'sine'],
      ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', bRoll],
    ]);
    await page.locator('input[type=file]').setInputFiles(bRoll);
    await expect.poll(() => chosen.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Upload complete: 1 uploaded. Add files to upload more.').waitFor();
    const played = page.getByRole('button', { name: `Play /${defaultUploadLocation(new Date())}/b-roll` });
    await played.waitFor({ timeout: 60_000 });
    await screenshots(page, 'web-upload-ready');
    await played.click();
    const frame = page.frameLocator('iframe[title="b-roll"]');
    const video = frame.getByTestId('player-video');
    await video.waitFor({ timeout: 20_000 });
    const currentTime = await playMuted(video);
    await expect.poll(currentTime).toBeGreaterThan(0.5);
    const uploads = await context.request.get(
      `${base}/api/accounts/${(await (await context.request.get(`${base}/api/accounts/byName/evening-news`)).json()).results.id}/uploads`,
    );
    const body = (await uploads.json()) as { results: { name: string; format: string; location: string }[] };
    expect(body.results.map((u) => u.name)).toEqual(['b-roll', 'Opening shot']);
    expect(body.results[1]).toMatchObject({
      format: 'PAL_wide',
      location: defaultUploadLocation(new Date()),
    });

    // Adding files while a file is sent cancels that file and returns to choosing, with both (spec1 §4).
    const holds: (() => void)[] = [];
    await page.route('**/uploads?*', (route) =>
      route.request().method() === 'POST'
        ? new Promise<void>((resolve) => holds.push(resolve)).then(() =>
            route.continue().catch(() => undefined),
          )
        : route.continue(),
    );
    // Another file than the last (choosing the same one again is no change of the input).
    const cutaway = path.join(setup.server.dataDir, 'cutaway.mp4');
    fs.copyFileSync(bRoll, cutaway);
    await page.locator('input[type=file]').setInputFiles(cutaway);
    await expect.poll(() => chosen.locator('tr[data-status="choosing"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await chosen.locator('tr[data-status="uploading"]').waitFor();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'second.mov', mimeType: 'video/quicktime', buffer: Buffer.from('second') });
    await expect.poll(() => chosen.locator('tr[data-status="choosing"]').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Upload', exact: true }).isEnabled()).toBe(true);
    for (const release of holds) release();
    await page.unroute('**/uploads?*');
    await context.close();
  });

  it('uploads metadata mapping files for a manager, and keeps others out', async () => {
    const { context, page } = await newPage(setup.browser);
    const base = setup.server.url;
    await signIn(page, base, 'evening-news.manager', E2E_DEMO_PASSWORD);
    await page.getByTestId('signed-in-user').waitFor();
    await page.goto(`${base}/accounts/evening-news/`);
    await page.getByRole('link', { name: 'Metadata upload' }).click();
    await page.getByRole('heading', { name: MSG_METADATA_MAPPING_TARGET('evening-news') }).waitFor();
    await page.locator('input[type=file]').setInputFiles([
      { name: 'reels.csv', mimeType: 'text/csv', buffer: Buffer.from('reel,title\n1,Intro\n') },
      { name: 'shots.csv', mimeType: 'text/csv', buffer: Buffer.from('shot,take\n1,2\n') },
    ]);
    await page.getByText('reels.csv, shots.csv').waitFor();
    await page.getByLabel('Name of shots.csv').fill('Shot list');
    await page.getByRole('button', { name: 'Upload file(s)' }).click();
    await expect.poll(() => page.locator('tr[data-status="complete"]').count()).toBe(2);
    await page.getByText('Shot list').last().waitFor();
    await screenshots(page, 'metadata-upload');
    // The stored file downloads under its own name.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download shots.csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('shots.csv');
    expect(fs.readFileSync(await download.path(), 'utf8')).toBe('shot,take\n1,2\n');
    await context.close();

    const editor = await newPage(setup.browser);
    await signIn(editor.page, base, 'evening-news.editor', E2E_DEMO_PASSWORD);
    await editor.page.getByTestId('signed-in-user').waitFor();
    await editor.page.goto(`${base}/accounts/evening-news/`);
    await editor.page.getByRole('link', { name: 'Web upload' }).waitFor();
    expect(await editor.page.getByRole('link', { name: 'Metadata upload' }).count()).toBe(0);
    await editor.context.close();
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MediaNode } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../src/modules/nodes/tables.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import { buildTestApp, eventually, makeWorld, type TestApp, testDriver, type World } from './harness.ts';
import { postNodes } from './nodes-world.ts';

/**
 * Clips and sequences as media (issue 15 item 5): saving an edl sends a job that renders it into one
 * playable MP4 from the proxies of its pieces, frame-accurately (checked with ffprobe on what is served).
 */
describe(`clips render into playable files (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clip-render-'));
  const proxies: { id: number }[] = [];

  const storedProxy = async (name: string, options: Parameters<typeof makeClip>[1]) => {
    const file = path.join(work, `${name}.mp4`);
    makeClip(file, options);
    const key = `media/accounts/${w.account.id}/test/${name}.mp4`;
    await t.ctx.storage.putStream(key, fs.createReadStream(file));
    const info = videoOf(ffprobe(file));
    const row = await makeMediaRow(t.ctx.db, {
      accountId: w.account.id,
      name,
      storagePath: key,
      contentType: 'video/mp4',
      width: info?.width ?? null,
      height: info?.height ?? null,
      fps: 25,
      duration: options.seconds,
    });
    await makeNodeRow(t.ctx.db, {
      accountId: w.account.id,
      parentPath: '/',
      name,
      type: 'source',
      mediaId: row.id,
    });
    return row;
  };
  const clipMedia = async (mediaId: number) => {
    const [row] = await t.ctx.db.select().from(media).where(eq(media.id, mediaId));
    return row;
  };
  const settled = async (mediaId: number) => {
    await eventually(async () => (await clipMedia(mediaId))?.status !== 'processing', 60_000);
    return clipMedia(mediaId);
  };
  const save = (name: string, events: { mediaId: number; inFrame: number; outFrame: number }[]) =>
    postNodes<{ results: MediaNode }>(w.editor.client, '/api/nodes', {
      parentPath: `/${w.account.name}`,
      type: events.length > 1 ? 'sequence' : 'edl',
      name,
      edl: { fps: 25, events },
    });

  beforeAll(async () => {
    t = await buildTestApp({ WORKERS: '2' });
    w = await makeWorld(t);
    proxies.push(await storedProxy('wide', { seconds: 3, size: '320x180', rate: 25 }));
    proxies.push(await storedProxy('silent', { seconds: 2, size: '160x120', rate: 25, audio: false }));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('renders a sequence of pieces: its duration is the sum of (out − in) / fps', async () => {
    const [wide, silent] = proxies as [{ id: number }, { id: number }];
    const saved = await save('Round-up', [
      { mediaId: wide.id, inFrame: 10, outFrame: 35 },
      { mediaId: silent.id, inFrame: 0, outFrame: 20 },
      { mediaId: wide.id, inFrame: 60, outFrame: 65 },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const mediaId = saved.body.results.mediaId as number;
    expect((await clipMedia(mediaId))?.status).toBe('processing');
    const done = await settled(mediaId);
    expect(done).toMatchObject({ status: 'ready', contentType: 'video/mp4', width: 320, height: 180 });

    const served = await w.editor.client.get(`/api/media/${mediaId}/content`);
    expect(served.status).toBe(200);
    const file = path.join(work, 'round-up.mp4');
    fs.writeFileSync(file, served.raw.rawPayload);
    const info = ffprobe(file);
    expect(videoOf(info)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    // (35 − 10) + (20 − 0) + (65 − 60) = 50 frames at 25 fps: 2 s.
    const frames = execFileSync('ffprobe', [
      ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file],
    ])
      .toString()
      .trim();
    expect(Number(frames)).toBe(50);
    expect(Number(info.format.duration)).toBeCloseTo(2, 1);
    expect(done?.duration).toBeCloseTo(2, 1);
  });

  it('fails a clip whose piece cannot be read, saying why, and keeps no file', async () => {
    const broken = await makeMediaRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'broken',
      storagePath: `media/accounts/${w.account.id}/test/broken.mp4`,
    });
    await t.ctx.storage.putStream(
      `media/accounts/${w.account.id}/test/broken.mp4`,
      Readable.from([Buffer.from('not a video')]),
    );
    const saved = await save('Broken clip', [{ mediaId: broken.id, inFrame: 0, outFrame: 10 }]);
    expect(saved.status).toBe(200);
    const mediaId = saved.body.results.mediaId as number;
    const done = await eventually(async () => (await clipMedia(mediaId))?.status === 'failed', 30_000).then(
      () => clipMedia(mediaId),
    );
    expect(done?.error).toBe(
      `The clip could not be rendered: media ${broken.id} has no picture or sound that ffmpeg can read`,
    );
    expect(done?.storagePath).toBeNull();
    expect((await w.editor.client.get(`/api/media/${mediaId}/content`)).status).toBe(404);
  });
});

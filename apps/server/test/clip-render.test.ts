import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { EdlSource, EdlVersion, MediaNode } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../src/modules/nodes/tables.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import {
  buildTestApp,
  eventually,
  makeWorld,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';
import { postNodes, VERSION_HEADERS } from './nodes-world.ts';

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
  const framesOf = async (url: string, name: string) => {
    const served = await w.editor.client.get(url);
    expect(served.status).toBe(200);
    const file = path.join(work, name);
    fs.writeFileSync(file, served.raw.rawPayload);
    return Number(
      execFileSync('ffprobe', [
        ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
        ...['-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', file],
      ])
        .toString()
        .trim(),
    );
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
  it('saves a clip again: the replaced edl is kept, the clip renders again, the old file goes', async () => {
    const [wide] = proxies as [{ id: number }];
    const saved = await save('Cut', [{ mediaId: wide.id, inFrame: 0, outFrame: 25 }]);
    const mediaId = saved.body.results.mediaId as number;
    const first = await settled(mediaId);
    expect(await framesOf(`/api/edls/${mediaId}/content`, 'cut-1.mp4')).toBe(25);
    const path = `/${w.account.name}/Cut`;

    const again = await w.editor.client.post(
      `/api/media/${mediaId}/data?path=${encodeURIComponent(path)}`,
      { edl: { id: mediaId, fps: 25, events: [{ mediaId: wide.id, inFrame: 25, outFrame: 75 }] } },
      { headers: VERSION_HEADERS },
    );
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const second = await settled(mediaId);
    expect(second?.status).toBe('ready');
    expect(second?.storagePath).not.toBe(first?.storagePath);
    // The former file goes once the row points at the new one (a row never points at a missing file).
    await eventually(
      async () =>
        (await t.ctx.storage.stat(first?.storagePath as string).catch(() => undefined)) === undefined,
      10_000,
    );
    expect(await framesOf(`/api/media/${mediaId}/content?accountId=${w.account.id}`, 'cut-2.mp4')).toBe(50);

    const versions = await w.editor.client.get<{ results: EdlVersion[] }>(
      `/api/edls/${mediaId}/previousVersions?path=${encodeURIComponent(path)}`,
    );
    expect(versions.status).toBe(200);
    expect(versions.body.results).toEqual([
      {
        version: 1,
        edl: { id: mediaId, fps: 25, events: [{ mediaId: wide.id, inFrame: 0, outFrame: 25 }] },
        duration: 1,
        replacedTime: expect.any(String),
        replacedBy: w.editor.user.username,
      },
    ]);
    const sources = await w.editor.client.get<{ results: EdlSource[] }>(
      `/api/edls/${mediaId}/sources?accountId=${w.account.id}`,
    );
    expect(sources.body.results).toEqual([
      { mediaId: wide.id, name: 'wide', duration: 3, fps: 25, width: 320, height: 180 },
    ]);
  });

  it('refuses bad edls (400), those who may not edit (403) and what is not a clip there (404), changing nothing', async () => {
    const [wide] = proxies as [{ id: number }];
    const saved = await save('Kept', [{ mediaId: wide.id, inFrame: 0, outFrame: 10 }]);
    const mediaId = saved.body.results.mediaId as number;
    await settled(mediaId);
    const path = encodeURIComponent(`/${w.account.name}/Kept`);
    const post = (who: TestClient, id: number, query: string, body: unknown) =>
      who.post(`/api/media/${id}/data?${query}`, body, { headers: VERSION_HEADERS });
    const edl = (id: number) => ({ edl: { fps: 25, events: [{ mediaId: id, inFrame: 0, outFrame: 5 }] } });
    const theirs = await makeMediaRow(t.ctx.db, { accountId: w.otherAccount.id, name: 'theirs' });

    expect(
      (await post(w.editor.client, mediaId, `path=${path}`, { edl: { fps: 25, events: [] } })).status,
    ).toBe(400);
    expect((await post(w.editor.client, mediaId, `path=${path}`, { ...edl(wide.id), extra: 1 })).status).toBe(
      400,
    );
    expect((await post(w.editor.client, mediaId, `path=${path}`, edl(theirs.id))).status).toBe(400);
    expect((await post(w.editor.client, mediaId, 'path=', edl(wide.id))).status).toBe(400);
    expect((await post(w.outsider.client, mediaId, `path=${path}`, edl(wide.id))).status).toBe(404);
    const viewer = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, viewer.id, w.account.id, 'Viewer');
    const viewerClient = await t.client().signIn(viewer.username, viewer.password as string);
    expect((await post(viewerClient, mediaId, `path=${path}`, edl(wide.id))).status).toBe(403);
    // The viewer reads what the clip is made of.
    expect((await viewerClient.get(`/api/edls/${mediaId}/sources`)).status).toBe(200);
    // Another media than the clip at the path, an unknown one, a source's media, another account's id.
    expect((await post(w.editor.client, wide.id, `path=${path}`, edl(wide.id))).status).toBe(404);
    expect((await post(w.editor.client, 999_999, `path=${path}`, edl(wide.id))).status).toBe(404);
    expect((await w.editor.client.get(`/api/edls/${wide.id}/sources`)).status).toBe(404);
    expect((await w.editor.client.get(`/api/edls/999999/content`)).status).toBe(404);
    expect(
      (await w.editor.client.get(`/api/edls/${mediaId}/sources?accountId=${w.otherAccount.id}`)).status,
    ).toBe(404);
    expect((await w.editor.client.get(`/api/edls/x/sources`)).status).toBe(400);
    const versions = await w.editor.client.get<{ results: EdlVersion[] }>(
      `/api/edls/${mediaId}/previousVersions?path=${path}`,
    );
    expect(versions.body.results).toEqual([]);
    expect((await clipMedia(mediaId))?.edl?.events).toEqual([{ mediaId: wide.id, inFrame: 0, outFrame: 10 }]);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultUploadLocation, proxyPlan, type Upload } from '@media/contract';
import { probe } from '@media/media-tools';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, nodes } from '../src/modules/nodes/tables.ts';
import { uploads } from '../src/modules/uploads/tables.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import {
  buildTestApp,
  type Collection,
  eventually,
  makeWorld,
  multipartFile,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

/**
 * Web uploads into the tree (issue 13): a media upload is a node at its location at once, and a cloud job
 * makes its proxy with the format and aspect chosen; the node then plays (checked with ffprobe).
 */
describe(`web uploads become playable nodes (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-processing-'));

  beforeAll(async () => {
    t = await buildTestApp({ WORKERS: '2' });
    w = await makeWorld(t);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const upload = async (file: string, query: string) => {
    const { body, headers } = multipartFile({
      fileName: path.basename(file),
      content: fs.readFileSync(file),
    });
    const sent = await w.editor.client.request<Results<Upload>>({
      method: 'POST',
      url: `/api/accounts/${w.account.id}/uploads?${query}`,
      body,
      headers,
    });
    expect(sent.status).toBe(200);
    return sent.body.results;
  };
  /** The upload as its page lists it, once its job has finished (watched in the table, not to spend the rate limit). */
  const settled = async (id: number) => {
    await eventually(async () => {
      const [row] = await t.ctx.db.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, id));
      return row && ['ready', 'failed'].includes(row.status);
    }, 60_000);
    const list = await w.editor.client.get<Collection<Upload>>(`/api/accounts/${w.account.id}/uploads`);
    const found = list.body.results.find((u) => u.id === id);
    if (!found) throw new Error(`upload ${id} not listed`);
    return found;
  };
  const mediaOf = async (nodeId: number | null) => {
    const [row] = await t.ctx.db
      .select({ node: nodes, media })
      .from(nodes)
      .innerJoin(media, eq(media.id, nodes.mediaId))
      .where(eq(nodes.id, nodeId ?? 0));
    if (!row) throw new Error(`no media node ${nodeId}`);
    return row;
  };
  const served = async (mediaId: number, name: string) => {
    const answer = await w.editor.client.get(`/api/media/${mediaId}/content`);
    expect(answer.status).toBe(200);
    const file = path.join(work, name);
    fs.writeFileSync(file, answer.raw.rawPayload);
    return file;
  };

  it("makes the proxy in the format and aspect the user chose, at the upload's location", async () => {
    const clip = path.join(work, 'interview.mp4');
    makeClip(clip, { seconds: 2, size: '640x360' });
    const sent = await upload(
      clip,
      'uploadname=Interview&format=NTSC_wide&aspect=normal&location=Shoots%2FMonday',
    );
    expect(sent).toMatchObject({ status: 'processing', nodePath: '/Shoots/Monday/Interview' });
    const done = await settled(sent.id);
    expect(done, done.error ?? '').toMatchObject({ status: 'ready', progress: null, error: null });
    const { node, media: row } = await mediaOf(done.nodeId);
    expect(row).toMatchObject({ status: 'ready', type: 'media', width: 480, height: 360, fps: 30 });
    const file = await served(row.id, 'interview-proxy.mp4');
    const out = ffprobe(file);
    // NTSC frame rate; the 4:3 frame the user asked for, the 16:9 picture padded inside it.
    expect(videoOf(out)).toMatchObject({ codec_name: 'h264', width: 480, height: 360, r_frame_rate: '30/1' });
    expect(out.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(out.format.duration) - 2)).toBeLessThan(0.2);
    expect((await probe(file))?.moovFirst).toBe(true);
    expect(node.metadata).toMatchObject({
      sourcewidth: '640',
      sourceheight: '360',
      filename: 'interview.mp4',
    });
    const thumb = await w.editor.client.get(`/api/thumbs/${node.thumbId}/image.jpg`);
    expect([...thumb.raw.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    // The source is kept in the cloud, byte for byte.
    const source = await t.ctx.storage.localCopy(row.sourcePath ?? 'none');
    expect(fs.readFileSync(source.path).equals(fs.readFileSync(clip))).toBe(true);
  });

  it("lands in 'File Uploads/' and today's date by default, following the account's ingest format", async () => {
    const clip = path.join(work, 'short.mp4');
    makeClip(clip, { seconds: 1, size: '320x240', rate: 25 });
    const sent = await upload(clip, 'uploadname=Short');
    expect(sent.nodePath).toBe(`/${defaultUploadLocation(new Date())}/Short`);
    const done = await settled(sent.id);
    expect(done.status, done.error ?? '').toBe('ready');
    const { media: row } = await mediaOf(done.nodeId);
    // The default format (PAL, wide, standard), never taller than the 240-line source.
    const plan = proxyPlan({ width: 320, height: 240 }, 'PAL_wide', 640);
    expect(plan.height).toBe(240);
    expect(videoOf(ffprobe(await served(row.id, 'short-proxy.mp4')))).toMatchObject({
      width: plan.width,
      height: 240,
      r_frame_rate: '25/1',
    });
  });

  it('keeps a picture as a still', async () => {
    const picture = path.join(work, 'board.png');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=800x600',
      '-frames:v',
      '1',
      picture,
    ]);
    const done = await settled((await upload(picture, 'uploadname=Board')).id);
    expect(done.status, done.error ?? '').toBe('ready');
    const { media: row } = await mediaOf(done.nodeId);
    expect(row).toMatchObject({ type: 'still', contentType: 'image/jpeg', width: 800, height: 600 });
    expect(videoOf(ffprobe(await served(row.id, 'board.jpg')))).toMatchObject({
      codec_name: 'mjpeg',
      width: 800,
    });
  });

  it('fails a file ffmpeg cannot read at once, saying why, and the node does not claim to play', async () => {
    const fake = path.join(work, 'fake.mov');
    fs.writeFileSync(fake, 'not really a movie');
    const done = await settled((await upload(fake, 'uploadname=Fake')).id);
    expect(done).toMatchObject({
      status: 'failed',
      error: 'fake.mov has no picture or sound that ffmpeg can read',
    });
    const { media: row } = await mediaOf(done.nodeId);
    expect(row).toMatchObject({ status: 'failed', storagePath: null });
    expect((await w.editor.client.get(`/api/media/${row.id}/content`)).status).toBe(404);
  });
});

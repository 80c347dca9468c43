import fs from 'node:fs';
import path from 'node:path';
import type { EdgeAgent } from '@media/edge-agent';
import { probe } from '@media/media-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, videoOf } from './agent-ingest-world.ts';
import { testDriver } from './harness.ts';
import { startS3Server } from './s3-server.ts';

/** Real ingest with the media in a bucket of a real S3-protocol server (STORAGE_URL=s3://…). */
describe(`real ingest into S3 storage (${testDriver()})`, () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let x: IngestWorld;
  let agent: EdgeAgent;
  let watched: { id: number; dir: string };

  beforeAll(async () => {
    s3 = await startS3Server(['media']);
    x = await makeIngestWorld('s3-ingest', s3.env('media', 'cloud/'));
    const folder = await makeArrivalsFolderRow(x.t.ctx.db, {
      accountId: x.w.account.id,
      name: 'Rushes',
      typeId: 'standard',
      options: { ingestFormat: '50_normal' },
    });
    watched = await x.endpoint('rushes', { arrivalsFolderId: folder.id });
    agent = x.agent();
  });
  afterAll(async () => {
    await x.close();
    await s3.close();
  });

  it('lands the proxy, the source and the poster in the bucket; the proxy plays by byte range', async () => {
    expect(x.t.ctx.storage.driver).toBe('s3');
    const clip = path.join(x.work, 'clip.mp4');
    makeClip(clip, { seconds: 2, size: '320x240' });
    fs.copyFileSync(clip, path.join(watched.dir, 'clip.mp4'));
    await x.round(agent);
    const item = await x.itemOf(watched.id, 'clip.mp4');
    expect(item.status, item.log).toBe('ingested');
    const served = await x.servedProxy(item.id);
    const out = ffprobe(served.file);
    expect(videoOf(out)).toMatchObject({ codec_name: 'h264', width: 320, height: 240, r_frame_rate: '50/1' });
    expect(Math.abs(Number(out.format.duration) - 2)).toBeLessThan(0.2);
    expect((await probe(served.file))?.moovFirst).toBe(true);
    // Every file of the node is an object of the bucket, none a file under DATA_DIR.
    for (const key of [served.media.storagePath, served.media.sourcePath, served.media.filmstripPath])
      expect(await x.t.ctx.storage.stat(key ?? 'none'), String(key)).toBeDefined();
    expect(fs.existsSync(path.join(x.t.config.dataDir, 'media'))).toBe(false);
    const source = await x.t.ctx.storage.localCopy(served.media.sourcePath ?? 'none');
    expect(fs.readFileSync(source.path).equals(fs.readFileSync(clip))).toBe(true);
    await source.release();
    const thumb = await x.w.editor.client.get(`/api/thumbs/${served.node.thumbId}/image.jpg`);
    expect(thumb.status).toBe(200);
    expect([...thumb.raw.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });
});

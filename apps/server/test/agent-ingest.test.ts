import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { API_VERSIONS, proxyPlan } from '@media/contract';
import { type EdgeAgent, queueIdOf } from '@media/edge-agent';
import { probe } from '@media/media-tools';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFormats } from '../src/modules/config/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { nodes } from '../src/modules/nodes/tables.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, videoOf } from './agent-ingest-world.ts';
import { eventually, testDriver } from './harness.ts';

/**
 * Real ingest (issue 13): the edge agent, over real HTTP, makes the proxy of the ingest format with ffmpeg,
 * uploads it with tus, and the node it lands as plays: the served bytes are checked with ffprobe.
 */
describe(`real ingest by the edge agent (${testDriver()})`, () => {
  let x: IngestWorld;
  let agent: EdgeAgent;
  let clip: string;
  const folders = { rushes: '', proxies: '' };
  const endpointIds = { rushes: 0, proxies: 0 };
  const itemOf = (sourceName: string, endpointId = endpointIds.rushes) => x.itemOf(endpointId, sourceName);
  const round = () => x.round(agent);

  beforeAll(async () => {
    x = await makeIngestWorld('real-ingest');
    const accountId = x.w.account.id;
    // A standard folder with its own format keeps sources; a proxy-only one follows the account's format.
    const rushes = await makeArrivalsFolderRow(x.t.ctx.db, {
      accountId,
      name: 'Rushes',
      typeId: 'standard',
      options: { ingestFormat: 'NTSC_wide', targetFolder: 'Arrivals' },
    });
    const proxies = await makeArrivalsFolderRow(x.t.ctx.db, {
      accountId,
      name: 'Proxies',
      typeId: 'proxyOnly',
      options: {},
    });
    await x.t.ctx.db.insert(ingestFormats).values({ accountId, position: 0, format: '50_normal' });
    for (const [name, folder] of [
      ['rushes', rushes],
      ['proxies', proxies],
    ] as const) {
      const made = await x.endpoint(name, { arrivalsFolderId: folder.id });
      endpointIds[name] = made.id;
      folders[name] = made.dir;
    }
    agent = x.agent();
    clip = path.join(x.work, 'clip.mp4');
    makeClip(clip, { seconds: 2, size: '640x480' });
  });
  afterAll(() => x.close());

  it('makes a proxy of the arrivals folder format that plays, and keeps the source', async () => {
    fs.copyFileSync(clip, path.join(folders.rushes, 'clip.mp4'));
    await round();
    const item = await itemOf('clip.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect(item.log).toContain('Proxy made');
    const plan = proxyPlan({ width: 640, height: 480 }, 'NTSC_wide', 640);
    expect(item).toMatchObject({ proxyWidth: plan.width, proxyHeight: plan.height, progress: null });
    const served = await x.servedProxy(item.id);
    expect(served.node.path).toBe('/Arrivals/Rushes/clip');
    expect(served.node.metadata).toMatchObject({ sourcewidth: '640', sourceheight: '480' });
    const out = ffprobe(served.file);
    expect(videoOf(out)).toMatchObject({
      codec_name: 'h264',
      width: 640,
      height: 360,
      r_frame_rate: '30/1',
    });
    expect(out.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(out.format.duration) - 2)).toBeLessThan(0.2);
    expect((await probe(served.file))?.moovFirst).toBe(true);
    expect(served.media).toMatchObject({ width: 640, height: 360, fps: 30 });
    // The standard folder keeps the source in the cloud, byte for byte.
    const source = await x.t.ctx.storage.localCopy(served.media.sourcePath ?? 'none');
    expect(fs.readFileSync(source.path).equals(fs.readFileSync(clip))).toBe(true);
    expect(served.media.filmstripPath).toBeTruthy();
    // The poster the agent made is the node's thumbnail.
    const thumb = await x.w.editor.client.request({
      method: 'GET',
      url: `/api/thumbs/${served.node.thumbId}/image.jpg`,
    });
    expect(thumb.status).toBe(200);
    expect([...thumb.raw.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('follows the account ingest format when the folder names none, and keeps no source in proxy-only', async () => {
    fs.copyFileSync(clip, path.join(folders.proxies, 'other.mp4'));
    await round();
    const item = await itemOf('other.mp4', endpointIds.proxies);
    expect(item.status, item.log).toBe('ingested');
    const served = await x.servedProxy(item.id);
    expect(videoOf(ffprobe(served.file))).toMatchObject({
      width: 480,
      height: 360,
      r_frame_rate: '50/1',
    });
    expect(served.media.sourcePath).toBeNull();
  });

  it('answers duplicated for the same content dropped again under another name', async () => {
    fs.copyFileSync(clip, path.join(folders.rushes, 'clip again.mp4'));
    await round();
    const item = await itemOf('clip again.mp4');
    expect(item.status).toBe('duplicated');
    expect(item.error).toBe(`Already ingested as /${x.w.account.name}/Arrivals/Rushes/clip`);
    expect(item.log).toContain(item.error);
    const named = await x.t.ctx.db.select().from(nodes).where(eq(nodes.name, 'clip again'));
    expect(named).toEqual([]);
  });

  it('answers missing for a file gone before its ingest, and failed with the reason for one ffmpeg cannot read', async () => {
    fs.writeFileSync(path.join(folders.rushes, 'broken.mp4'), Buffer.alloc(10_000, 3));
    // Its index first, its media data cut off: ffprobe reads the index, ffmpeg finds no frames.
    makeClip(path.join(x.work, 'faststart.mp4'), { seconds: 1, faststart: true });
    const faststart = fs.readFileSync(path.join(x.work, 'faststart.mp4'));
    fs.writeFileSync(
      path.join(folders.rushes, 'cut.mp4'),
      faststart.subarray(0, faststart.indexOf('mdat') + 4),
    );
    for (const sourceName of ['gone.mp4', 'broken.mp4', 'cut.mp4'])
      await x.t.ctx.db.insert(ingestQueueItems).values({
        edgeServerId: (await itemOf('clip.mp4')).edgeServerId,
        endpointId: endpointIds.rushes,
        accountId: x.w.account.id,
        // The id the agent's own scan gives the file, so that the scan finds this item rather than adding one.
        queueId: queueIdOf(endpointIds.rushes, sourceName),
        sourceName,
        rank: 100,
      });
    // Two at a time (the edge's concurrent ingests): rounds until none is left to do.
    await eventually(async () => {
      await round();
      const left = await x.t.ctx.db
        .select()
        .from(ingestQueueItems)
        .where(inArray(ingestQueueItems.status, ['queued', 'ingesting']));
      return left.length === 0 || undefined;
    }, 30_000);
    expect(await itemOf('gone.mp4')).toMatchObject({
      status: 'missing',
      error: 'The file is no longer there',
    });
    const broken = await itemOf('broken.mp4');
    expect(broken).toMatchObject({ status: 'failed', error: 'Not a media file' });
    expect(broken.log).toContain('ffprobe found no audio or video');
    const cut = await itemOf('cut.mp4');
    expect(cut).toMatchObject({ status: 'failed', proxyWidth: null });
    expect(cut.error).toMatch(/^ffmpeg failed \(exit \d+\)/);
    expect(cut.log).toContain('Probed: video h264 320x240');
    expect(cut.log).toContain('Failed while making the proxy');
    expect(cut.log).toContain('Conversion failed!');
    expect(await x.nodeOf(cut.id)).toBeUndefined();
  });

  it('stops ffmpeg when a person aborts the ingest, and lands nothing', async () => {
    makeClip(path.join(folders.rushes, 'long.mp4'), {
      seconds: 40,
      size: '1280x720',
      rate: 30,
      audio: false,
    });
    await agent.tick();
    await agent.tick();
    const item = await eventually(async () => {
      const row = await itemOf('long.mp4');
      return row.status === 'ingesting' && (row.progress ?? 0) >= 10 ? row : undefined;
    }, 30_000);
    const aborted = await x.w.accountManager.client.request({
      method: 'POST',
      url: `/api/ingestQueueItems/${item.id}`,
      body: { id: item.id, status: 'abort' },
      headers: { 'x-api-version': API_VERSIONS.ingest },
    });
    expect(aborted.status, JSON.stringify(aborted.body)).toBe(200);
    const at = Date.now();
    await agent.idle();
    expect(Date.now() - at).toBeLessThan(5000);
    const after = await itemOf('long.mp4');
    expect(after).toMatchObject({ status: 'failed', error: 'Aborted' });
    // Its work files are gone and it reports nothing more.
    expect(fs.existsSync(path.join(x.work, 'state', 'work', String(item.id)))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await itemOf('long.mp4')).log).toBe(after.log);
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(
      path.join(folders.rushes, 'long.mp4'),
    );
    expect(await x.t.ctx.db.select().from(nodes).where(eq(nodes.name, 'long'))).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS, proxyPlan } from '@media/contract';
import { EdgeAgent } from '@media/edge-agent';
import { probe } from '@media/media-tools';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestFormats } from '../src/modules/config/tables.ts';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { media, nodes } from '../src/modules/nodes/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, eventually, makeWorld, type TestApp, testDriver, type World } from './harness.ts';

const one = <T>(rows: T[]): T => {
  const [row] = rows;
  if (!row) throw new Error('expected a row');
  return row;
};

/** ffprobe's own reading of a file. */
const ffprobe = (file: string) =>
  JSON.parse(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]).toString(),
  ) as {
    format: { duration: string };
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      r_frame_rate?: string;
    }[];
  };

/**
 * Real ingest (issue 13): the edge agent, over real HTTP, makes the proxy of the ingest format with ffmpeg,
 * uploads it with tus, and the node it lands as plays: the served bytes are checked with ffprobe.
 */
describe(`real ingest by the edge agent (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let agent: EdgeAgent;
  let cloudUrl: string;
  let work: string;
  const token = 'agent-token-of-real-ingest-0123456';
  const folders = { rushes: '', proxies: '' };
  const endpointIds = { rushes: 0, proxies: 0 };

  const itemOf = async (sourceName: string, endpointId = endpointIds.rushes) =>
    one(
      await t.ctx.db
        .select()
        .from(ingestQueueItems)
        .where(and(eq(ingestQueueItems.sourceName, sourceName), eq(ingestQueueItems.endpointId, endpointId))),
    );
  const round = async () => {
    await agent.tick();
    await agent.tick();
    await agent.idle();
  };
  /** The media of the node an item made, and its proxy as served to a user of the account. */
  const servedProxy = async (itemId: number) => {
    const [row] = await t.ctx.db
      .select({ node: nodes, media })
      .from(nodes)
      .innerJoin(media, eq(media.id, nodes.mediaId))
      .where(eq(nodes.accountId, w.account.id))
      .then((rows) => rows.filter((r) => r.node.metadata.ingestQueueItemId === String(itemId)));
    if (!row) throw new Error(`no node for item ${itemId}`);
    const response = await w.editor.client.request({
      method: 'GET',
      url: `/api/media/${row.media.id}/content`,
      headers: { range: 'bytes=0-' },
    });
    expect([200, 206]).toContain(response.status);
    const file = path.join(work, `served-${itemId}.mp4`);
    fs.writeFileSync(file, response.raw.rawPayload);
    return { ...row, file };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    cloudUrl = `http://127.0.0.1:${address.port}`;
    w = await makeWorld(t);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'real-ingest-'));
    folders.rushes = path.join(work, 'rushes');
    folders.proxies = path.join(work, 'proxies');
    for (const folder of Object.values(folders)) fs.mkdirSync(folder);
    const owner = await makeUser(t.ctx.db);
    const edge = one(
      await t.ctx.db
        .insert(edgeServers)
        .values({
          name: 'Ingest edge',
          userId: owner.id,
          advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
          agentTokenHash: sha256(token),
        })
        .returning(),
    );
    const service = one(
      await t.ctx.db
        .insert(services)
        .values({ edgeServerId: edge.id, name: 'Files', typeId: 'FileIngestService', serviceGroupId: 0 })
        .returning(),
    );
    // A standard folder with its own format keeps sources; a proxy-only one follows the account's format.
    const rushes = await makeArrivalsFolderRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'Rushes',
      typeId: 'standard',
      options: { ingestFormat: 'NTSC_wide', targetFolder: 'Arrivals' },
    });
    const proxies = await makeArrivalsFolderRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'Proxies',
      typeId: 'proxyOnly',
      options: {},
    });
    await t.ctx.db
      .insert(ingestFormats)
      .values({ accountId: w.account.id, position: 0, format: '50_normal' });
    for (const [name, folder] of [
      ['rushes', rushes],
      ['proxies', proxies],
    ] as const) {
      endpointIds[name] = one(
        await t.ctx.db
          .insert(endpoints)
          .values({
            serviceId: service.id,
            name: `Watch ${name}`,
            typeId: 'LocalFolderEndpoint',
            accountId: w.account.id,
            arrivalsFolderId: folder.id,
            options: { path: folders[name] },
            online: true,
          })
          .returning(),
      ).id;
    }
    agent = new EdgeAgent({
      cloudUrl,
      token,
      allowedRoots: [work],
      settleMs: 0,
      scanIntervalMs: 0,
      stateDir: path.join(work, 'state'),
    });
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=25', '-f', 'lavfi', '-i', 'sine'],
      ...['-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest'],
      path.join(work, 'clip.mp4'),
    ]);
  });
  afterAll(async () => {
    await agent.stop();
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('makes a proxy of the arrivals folder format that plays, and keeps the source', async () => {
    fs.copyFileSync(path.join(work, 'clip.mp4'), path.join(folders.rushes, 'clip.mp4'));
    await round();
    const item = await itemOf('clip.mp4');
    expect(item.status, item.log).toBe('ingested');
    expect(item.log).toContain('Proxy made');
    const plan = proxyPlan({ width: 640, height: 480 }, 'NTSC_wide', 640);
    expect(item).toMatchObject({ proxyWidth: plan.width, proxyHeight: plan.height, progress: null });
    const served = await servedProxy(item.id);
    expect(served.node.path).toBe('/Arrivals/Rushes/clip');
    expect(served.node.metadata).toMatchObject({ sourcewidth: '640', sourceheight: '480' });
    const out = ffprobe(served.file);
    expect(out.streams.find((s) => s.codec_type === 'video')).toMatchObject({
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
    const source = await t.ctx.storage.localCopy(served.media.sourcePath ?? 'none');
    expect(fs.readFileSync(source.path).equals(fs.readFileSync(path.join(work, 'clip.mp4')))).toBe(true);
    expect(served.media.filmstripPath).toBeTruthy();
    expect(served.node.thumbId).not.toBeNull();
  });

  it('follows the account ingest format when the folder names none, and keeps no source in proxy-only', async () => {
    fs.copyFileSync(path.join(work, 'clip.mp4'), path.join(folders.proxies, 'other.mp4'));
    await round();
    const item = await itemOf('other.mp4', endpointIds.proxies);
    expect(item.status, item.log).toBe('ingested');
    const served = await servedProxy(item.id);
    expect(ffprobe(served.file).streams.find((s) => s.codec_type === 'video')).toMatchObject({
      width: 480,
      height: 360,
      r_frame_rate: '50/1',
    });
    expect(served.media.sourcePath).toBeNull();
  });

  it('answers duplicated for the same content dropped again under another name', async () => {
    fs.copyFileSync(path.join(work, 'clip.mp4'), path.join(folders.rushes, 'clip again.mp4'));
    await round();
    const item = await itemOf('clip again.mp4');
    expect(item.status).toBe('duplicated');
    expect(item.error).toBe('Already ingested as clip.mp4');
    const named = await t.ctx.db.select().from(nodes).where(eq(nodes.name, 'clip again'));
    expect(named).toEqual([]);
  });

  it('answers missing for a file gone before its ingest, and failed for one that is not media', async () => {
    fs.writeFileSync(path.join(folders.rushes, 'broken.mp4'), Buffer.alloc(10_000, 3));
    for (const sourceName of ['gone.mp4', 'broken.mp4'])
      await t.ctx.db.insert(ingestQueueItems).values({
        edgeServerId: (await itemOf('clip.mp4')).edgeServerId,
        endpointId: endpointIds.rushes,
        accountId: w.account.id,
        queueId: `direct-${sourceName}`,
        sourceName,
        rank: 100,
      });
    await round();
    expect(await itemOf('gone.mp4')).toMatchObject({
      status: 'missing',
      error: 'The file is no longer there',
    });
    const broken = await itemOf('broken.mp4');
    expect(broken).toMatchObject({ status: 'failed', error: 'Not a media file' });
    expect(broken.log).toContain('ffprobe found no audio or video');
  });

  it('stops ffmpeg when a person aborts the ingest, and lands nothing', async () => {
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '40'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', path.join(folders.rushes, 'long.mp4')],
    ]);
    await agent.tick();
    await agent.tick();
    const item = await eventually(async () => {
      const row = await itemOf('long.mp4');
      return row.status === 'ingesting' && (row.progress ?? 0) >= 10 ? row : undefined;
    }, 30_000);
    const aborted = await w.accountManager.client.request({
      method: 'POST',
      url: `/api/ingestQueueItems/${item.id}`,
      body: { id: item.id, status: 'abort' },
      headers: { 'x-api-version': API_VERSIONS.ingest },
    });
    expect(aborted.status, JSON.stringify(aborted.body)).toBe(200);
    const at = Date.now();
    await agent.idle();
    expect(Date.now() - at).toBeLessThan(5000);
    expect(await itemOf('long.mp4')).toMatchObject({ status: 'failed', error: 'Aborted' });
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(
      path.join(folders.rushes, 'long.mp4'),
    );
    expect(await t.ctx.db.select().from(nodes).where(eq(nodes.name, 'long'))).toEqual([]);
  });
});

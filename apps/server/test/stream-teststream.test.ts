import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  API_VERSIONS,
  INGEST_MESSAGES,
  type IngestQueueItem,
  type PlayerMediaInfo,
  STREAM_ENDPOINT_REFUSALS,
} from '@media/contract';
import type { EdgeAgent } from '@media/edge-agent';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { liveSegments } from '../src/modules/nodes/tables.ts';
import { ffprobe, type IngestWorld, videoOf } from './agent-ingest-world.ts';
import { eventually, type Results, testDriver, type World } from './harness.ts';
import { expectRecordedUntilStop, makeStreamWorld, type StreamWorld } from './stream-world.ts';

/**
 * The test stream (issue 16, first slice): a TeststreamEndpoint of a stream ingest service waits with an item
 * in actionRequired; Start makes a real agent record ffmpeg's generated picture and tone into segments,
 * reporting `recording` with the seconds and bytes recorded; Stop ends it cleanly and the recording goes
 * through the normal ingest into a node whose proxy plays for as long as it was recorded.
 */
describe(`test stream recorded by the edge agent (${testDriver()})`, () => {
  let s: StreamWorld;
  let x: IngestWorld;
  let agent: EdgeAgent;
  const ids = { test: 0, sdi: 0, zixi: 0, rtmp: 0 };
  const post = (client: World['admin']['client'], id: number, body: object) => s.act(client, id, body);
  const row = (id: number) => s.row(id);
  const streamItem = (status: string) => s.streamItems(ids.test, status);
  const endpointOf = (id: number) => s.endpointOf(id);

  beforeAll(async () => {
    s = await makeStreamWorld('teststream');
    x = s.x;
    ids.test = await s.stream('Test pattern', 'TeststreamEndpoint', { autoCapture: 'scheduled' });
    ids.sdi = await s.stream('Studio SDI', 'SdiEndpoint');
    ids.zixi = await s.stream('Zixi feed', 'ZixiEndpoint', { host: 'zixi.example', streamId: 'a' });
    ids.rtmp = await s.stream('Reporter push', 'RtmpPushEndpoint', { streamKey: 'a key' });
    agent = x.agent();
    // The first round reports nothing yet (the agent has not seen the endpoints); the second does.
    await agent.tick();
    await agent.tick();
  });
  afterAll(() => x.close());

  it('reports the test stream ready and the streams it cannot record as errors saying why', async () => {
    expect(await x.endpointStatus('Test pattern')).toMatchObject({ status: 'ok' });
    expect(await x.endpointStatus('Studio SDI')).toMatchObject({
      status: 'error',
      message: STREAM_ENDPOINT_REFUSALS.SdiEndpoint,
    });
    expect(await x.endpointStatus('Zixi feed')).toMatchObject({
      status: 'error',
      message: STREAM_ENDPOINT_REFUSALS.ZixiEndpoint,
    });
    expect(await x.endpointStatus('Reporter push')).toMatchObject({
      status: 'error',
      message: 'A stream key holds letters, digits and - _ . ~ only',
    });
    // Only the stream it records waits for Start; one item, however often the agent calls in.
    await agent.tick();
    expect(await streamItem('actionRequired')).toHaveLength(1);
    const others = await x.t.ctx.db
      .select()
      .from(ingestQueueItems)
      .where(eq(ingestQueueItems.endpointId, ids.sdi));
    expect(others).toHaveLength(0);
  });

  it('refuses Start and Stop to people without the right, for unknown items, and out of turn', async () => {
    const [waiting] = await streamItem('actionRequired');
    if (!waiting) throw new Error('no item waits for Start');
    expect((await post(x.w.editor.client, waiting.id, { action: 'start' })).status).toBe(403);
    expect((await post(x.w.outsider.client, waiting.id, { action: 'stop' })).status).toBe(403);
    expect((await post(x.w.accountManager.client, 2_000_000, { action: 'start' })).status).toBe(404);
    const stop = await post(x.w.accountManager.client, waiting.id, { action: 'stop' });
    expect(stop.status).toBe(400);
    expect(stop.body.error.message).toBe(INGEST_MESSAGES.stopRefused);
    expect((await post(x.w.accountManager.client, waiting.id, { action: 'record' })).status).toBe(400);
    expect((await row(waiting.id)).status).toBe('actionRequired');
    // The agent's report of a recording is checked too.
    const report = await fetch(`${x.cloudUrl}/api/agent/queueItems/${waiting.id}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${x.token}`,
        'x-api-version': API_VERSIONS.ingest,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ status: 'ingesting', recording: 'yes' }),
    });
    expect(report.status).toBe(400);
    expect((await row(waiting.id)).status).toBe('actionRequired');
  });

  it('records from Start to Stop into a node whose proxy plays for as long, with picture and sound', async () => {
    const [waiting] = await streamItem('actionRequired');
    if (!waiting) throw new Error('no item waits for Start');
    const started = await post(x.w.accountManager.client, waiting.id, { action: 'start' });
    expect(started.status).toBe(200);
    expect(started.body.results.status).toBe('queued');
    await agent.tick();
    // Recording: the endpoint says so, the item counts seconds and bytes.
    const first = await eventually(async () => {
      const item = await row(waiting.id);
      return item.status === 'ingesting' && (item.duration ?? 0) > 0.5 ? item : undefined;
    }, 10_000);
    expect(await endpointOf(ids.test)).toMatchObject({ recording: true, queueItemId: waiting.id });
    const later = await eventually(async () => {
      const item = await row(waiting.id);
      return (item.duration ?? 0) >= 9.5 ? item : undefined;
    }, 20_000);
    const laterSeenAt = Date.now();
    expect(later.duration).toBeGreaterThan(first.duration ?? 0);
    expect(later.fileSize).toBeGreaterThan(0);
    // The queue shows the seconds and bytes recorded so far.
    const queue = await x.w.accountManager.client.get<Results<IngestQueueItem[]>>(
      `/api/accounts/${x.w.account.id}/ingestQueueItems?filters=ingesting`,
    );
    const shown = queue.body.results.find((item) => item.id === waiting.id);
    expect(shown?.duration).toBeGreaterThan(9);
    expect(shown?.fileSize).toBeGreaterThan(0);
    // Live: the stream's node is in its arrivals folder already, playing its segments as `lifestream`.
    const live = await eventually(() => x.nodeOf(waiting.id), 10_000);
    expect(live.media.type).toBe('lifestream');
    // The queue item offers it for monitoring (spec2 §4) while it records.
    const monitored = await x.w.accountManager.client.get<Results<IngestQueueItem[]>>(
      `/api/accounts/${x.w.account.id}/ingestQueueItems?filters=ingesting`,
    );
    const monitoredItem = monitored.body.results.find((item) => item.id === waiting.id);
    expect(monitoredItem?.endpoint?.recording).toBe(true);
    expect(monitoredItem?.liveNode).toEqual({
      id: live.node.id,
      mediaId: live.media.id,
      path: live.node.path,
      accountName: x.w.account.name,
    });
    const info = await x.w.editor.client.get<Results<PlayerMediaInfo>>(`/api/media/${live.media.id}`);
    expect(info.body.results.type).toBe('lifestream');
    const playlist = await x.w.editor.client.get<string>(`/api/media/${live.media.id}/live.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    const text = playlist.raw.body;
    expect(text).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(text).not.toContain('#EXT-X-ENDLIST');
    expect((text.match(/#EXTINF:/g) ?? []).length).toBeGreaterThanOrEqual(3);
    // ffprobe plays it through the cloud, as a signed-in viewer's player would.
    const cookie = [...x.w.editor.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    // (Not execFileSync: the cloud answering ffprobe runs in this process.)
    const { stdout } = await promisify(execFile)('ffprobe', [
      ...['-v', 'error', '-headers', `Cookie: ${cookie}\r\n`, '-print_format', 'json', '-show_streams'],
      `${x.cloudUrl}/api/media/${live.media.id}/live.m3u8`,
    ]);
    const probed = JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string }[] };
    expect(probed.streams.find((stream) => stream.codec_type === 'video')?.codec_name).toBe('h264');
    // Not to people outside the account, and only segments by their names.
    expect((await x.w.outsider.client.get(`/api/media/${live.media.id}/live.m3u8`)).status).toBe(404);
    expect((await x.w.editor.client.get(`/api/media/${live.media.id}/live/x.ts`)).status).toBe(400);
    expect((await x.w.editor.client.get(`/api/media/${live.media.id}/live/99999.ts`)).status).toBe(404);
    expect(later.whenStarted).not.toBeNull();
    const stopped = await post(x.w.accountManager.client, waiting.id, { action: 'stop' });
    expect(stopped.status).toBe(200);
    await eventually(async () => (await row(waiting.id)).status === 'ingested', 60_000);
    await agent.idle();
    const item = await row(waiting.id);
    expect(item.log).toContain('Recording stopped');
    expect(item.log).toContain('Proxy made');
    expect(await endpointOf(ids.test)).toMatchObject({ recording: false, queueItemId: null });
    const served = await x.servedProxy(item.id);
    expect(served.node.path.startsWith('/Arrivals/Live recordings/Test pattern ')).toBe(true);
    // The recording landed on the node that played live; the live segments are gone.
    expect(served.node.id).toBe(live.node.id);
    expect(served.media.type).toBe('media');
    const landed = await x.w.accountManager.client.get<Results<IngestQueueItem[]>>(
      `/api/accounts/${x.w.account.id}/ingestQueueItems?filters=ingested`,
    );
    expect(landed.body.results.find((shownItem) => shownItem.id === waiting.id)?.liveNode).toBeNull();
    expect((await x.w.editor.client.get(`/api/media/${live.media.id}/live.m3u8`)).status).toBe(404);
    expect(
      await x.t.ctx.db.select().from(liveSegments).where(eq(liveSegments.mediaId, live.media.id)),
    ).toEqual([]);
    const out = ffprobe(served.file);
    // It plays for as long as it recorded: about 10 s, up to when the agent heard Stop.
    expectRecordedUntilStop(
      Number(out.format.duration),
      { duration: later.duration ?? 0, at: laterSeenAt },
      item.log,
    );
    expect(videoOf(out)?.codec_name).toBe('h264');
    expect(out.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    // The next recording waits for its Start.
    await agent.tick();
    expect(await streamItem('actionRequired')).toHaveLength(1);
  }, 120_000);

  it('goes on recording after an agent restart, the time it was down a gap in the recording', async () => {
    const [waiting] = await streamItem('actionRequired');
    if (!waiting) throw new Error('no item waits for Start');
    expect((await post(x.w.accountManager.client, waiting.id, { action: 'start' })).status).toBe(200);
    await agent.tick();
    await eventually(async () => ((await row(waiting.id)).duration ?? 0) >= 3, 15_000);
    await agent.stop();
    const before = (await row(waiting.id)).duration ?? 0;
    expect((await row(waiting.id)).status).toBe('ingesting');
    agent = x.agent();
    await agent.tick();
    const resumed = await eventually(async () => {
      const item = await row(waiting.id);
      return (item.duration ?? 0) >= before + 3 ? item : undefined;
    }, 15_000);
    const resumedAt = Date.now();
    expect(resumed.log).toContain('goes on after an agent restart');
    expect(await endpointOf(ids.test)).toMatchObject({ recording: true });
    expect((await post(x.w.accountManager.client, waiting.id, { action: 'stop' })).status).toBe(200);
    // It records until the stop: on a loaded machine the stop comes seconds after the duration read above.
    const untilStop = (Date.now() - resumedAt) / 1000;
    await eventually(async () => (await row(waiting.id)).status === 'ingested', 60_000);
    await agent.idle();
    const recorded = (await row(waiting.id)).duration ?? 0;
    // Both parts are in it: more than the first part, and no more than what was reported with the stop.
    expect(recorded).toBeGreaterThan(before + 2.5);
    const out = ffprobe((await x.servedProxy(waiting.id)).file);
    expect(Math.abs(Number(out.format.duration) - recorded)).toBeLessThanOrEqual(0.5);
    expect(Number(out.format.duration)).toBeLessThanOrEqual((resumed.duration ?? 0) + untilStop + 2);
  }, 120_000);

  it('records by itself when autoCapture says so: always lets people stop it, ondemand leaves them no control', async () => {
    const always = await s.stream('Always bars', 'TeststreamEndpoint', { autoCapture: 'always' });
    const onDemand = await s.stream('Demand bars', 'TeststreamEndpoint', { autoCapture: 'ondemand' });
    // An agent calls in every few seconds; four times a second here is plenty.
    const recordingOf = async (endpointId: number) => {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await agent.tick();
      const [item] = await s.streamItems(endpointId, 'ingesting');
      return item && (item.duration ?? 0) >= 2 ? item : undefined;
    };
    // Nobody pressed Start: both record.
    const first = await eventually(() => recordingOf(always), 20_000);
    const demanded = await eventually(() => recordingOf(onDemand), 20_000);
    // People stop an always recording, and the next one begins by itself.
    expect((await post(x.w.accountManager.client, first.id, { action: 'stop' })).status).toBe(200);
    await eventually(async () => (await row(first.id)).status === 'ingested', 60_000);
    const next = await eventually(async () => {
      const item = await recordingOf(always);
      return item && item.id !== first.id ? item : undefined;
    }, 20_000);
    expect(next.id).not.toBe(first.id);
    // An ondemand recording is not people's to stop (nor to start).
    const refused = await post(x.w.accountManager.client, demanded.id, { action: 'stop' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(INGEST_MESSAGES.controlRefused);
    expect((await row(demanded.id)).status).toBe('ingesting');
    // Switching the endpoint offline ends it, with what it recorded.
    await x.t.ctx.db.update(endpoints).set({ online: false }).where(eq(endpoints.id, onDemand));
    await x.t.ctx.db.update(endpoints).set({ online: false }).where(eq(endpoints.id, always));
    await agent.tick();
    const ended = await eventually(async () => {
      const item = await row(demanded.id);
      return item.status !== 'ingesting' ? item : undefined;
    }, 60_000).catch(async (error: unknown) => {
      const item = await row(demanded.id);
      throw new Error(`${String(error)}: ${item.status} ${item.log}`);
    });
    expect(ended.status, `${ended.error} ${ended.log}`).toBe('ingested');
    expect(ended.log).toContain('Endpoint Demand bars was switched offline: the recording ends');
    await eventually(async () => (await row(next.id)).status !== 'ingesting', 60_000);
    await agent.idle();
    expect(Number(ffprobe((await x.servedProxy(demanded.id)).file).format.duration)).toBeGreaterThan(2);
  }, 150_000);
});

import { INGEST_MESSAGES, type IngestQueueItem, schedulePriority } from '@media/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeDemoThumbnail } from '../src/seed/demo-edge.ts';
import {
  type IngestWorld,
  makeIngestWorld,
  makeQueueItem,
  type QueueEndpoint,
  type QueueItemValues,
  queueRow,
} from './edge-world.ts';
import {
  buildTestApp,
  type ErrorBody,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`ingest queue (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let edge: IngestWorld['edge'];
  let otherEdge: IngestWorld['otherEdge'];
  let source: IngestWorld['source'];
  let stream: IngestWorld['stream'];
  let disabledStream: IngestWorld['disabledStream'];

  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
    ({ w, edge, otherEdge, source, stream, disabledStream } = await makeIngestWorld(t));
  });
  afterAll(() => t.close());

  const item = (endpoint: QueueEndpoint, values: QueueItemValues = {}, on: { id: number } = edge) =>
    makeQueueItem(t, endpoint, values, on);
  const row = (id: number) => queueRow(t, id);

  describe('one item', () => {
    const post = (client: World['admin']['client'], id: number, body: object) =>
      client.post<Results<IngestQueueItem> & ErrorBody>(`/api/ingestQueueItems/${id}`, { id, ...body });

    it('changes a status as spec2 §4 allows, and refuses others with the reason', async () => {
      const queued = await item(source, { status: 'queued' });
      const ok = await post(w.accountManager.client, queued.id, { status: 'actionRequired' });
      expect(ok.status).toBe(200);
      expect(ok.body.results.status).toBe('actionRequired');
      expect((await row(queued.id)).version).toBeGreaterThan(queued.version);
      const refused = await post(w.accountManager.client, queued.id, { status: 'ingested' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(
        INGEST_MESSAGES.statusChangeRefused('actionRequired', 'ingested'),
      );
      const deleted = await item(source, { status: 'deleted' });
      const fromDeleted = await post(w.siteManager.client, deleted.id, { status: 'queued' });
      expect(fromDeleted.body.error.message).toBe(INGEST_MESSAGES.statusChangeRefused('deleted', 'queued'));
      const streamItem = await item(stream, { status: 'failed', isStream: true });
      const byHand = await post(w.accountManager.client, streamItem.id, { status: 'queued' });
      expect(byHand.status).toBe(400);
      expect(byHand.body.error.message).toBe(INGEST_MESSAGES.streamStatusRefused);
      expect((await row(streamItem.id)).status).toBe('failed');
    });

    it("announces a change on the account's and the edge server's queue channels", async () => {
      const queued = await item(source, { status: 'queued' });
      const admin = w.admin.client;
      const created = await admin.post<Results<{ eventId: string }>>('/api/events/create');
      const eventId = created.body.results.eventId;
      const channels = [`edgeServers/${edge.id}/ingestQueue`, `accounts/${w.account.id}/ingestQueue`];
      expect((await admin.post(`/api/events/${eventId}/subscribe`, { channels })).status).toBe(200);
      await post(w.accountManager.client, queued.id, { status: 'actionRequired' });
      const seen = new Map<string, (string | number)[]>();
      for (let attempt = 0; attempt < 3 && seen.size < 2; attempt++) {
        const poll = await admin.get<Results<{ channel: string; data: { modified: (string | number)[] } }[]>>(
          `/api/events/${eventId}/longpoll`,
        );
        for (const update of poll.body.results) seen.set(update.channel, update.data.modified);
      }
      expect([...seen.keys()].sort()).toEqual([...channels].sort());
      for (const modified of seen.values()) expect(modified.map(Number)).toContain(queued.id);
    });

    it("aborts an ingesting file: failed with the error 'Aborted'", async () => {
      const ingesting = await item(source, { status: 'ingesting' });
      const res = await post(w.siteManager.client, ingesting.id, { status: 'abort' });
      expect(res.status).toBe(200);
      expect(res.body.results).toMatchObject({ status: 'failed', error: INGEST_MESSAGES.aborted });
      expect(res.body.results.whenFinished).not.toBeNull();
      const again = await item(source, { status: 'ingesting' });
      expect((await post(w.siteManager.client, again.id, { action: 'abort' })).body.results.status).toBe(
        'failed',
      );
      const queued = await item(source, { status: 'queued' });
      expect((await post(w.siteManager.client, queued.id, { action: 'abort' })).status).toBe(400);
    });

    it('starts a stream in actionRequired (it waits for the agent) and asks a recording one to stop; refuses when the endpoint is disabled', async () => {
      const waiting = await item(stream, { status: 'actionRequired', isStream: true });
      const started = await post(w.accountManager.client, waiting.id, { action: 'start' });
      expect(started.status).toBe(200);
      expect(started.body.results.status).toBe('queued');
      const startAgain = await post(w.accountManager.client, waiting.id, { action: 'start' });
      expect(startAgain.status).toBe(400);
      expect(startAgain.body.error.message).toBe(INGEST_MESSAGES.startRefused);
      // Not recording yet: nothing to stop.
      const stopQueued = await post(w.accountManager.client, waiting.id, { action: 'stop' });
      expect(stopQueued.body.error.message).toBe(INGEST_MESSAGES.stopRefused);
      const recording = await item(stream, { status: 'ingesting', isStream: true });
      const stopped = await post(w.accountManager.client, recording.id, { action: 'stop' });
      expect(stopped.status).toBe(200);
      // The agent finishes the recording and ingests it; until then the item stays ingesting.
      expect(stopped.body.results.status).toBe('ingesting');
      expect((await row(recording.id)).stopRequestedAt).not.toBeNull();
      const stopAgain = await post(w.accountManager.client, recording.id, { action: 'stop' });
      expect(stopAgain.status).toBe(200);
      const ingested = await item(stream, { status: 'ingested', isStream: true });
      const stopIngested = await post(w.accountManager.client, ingested.id, { action: 'stop' });
      expect(stopIngested.body.error.message).toBe(INGEST_MESSAGES.stopRefused);
      const blocked = await item(disabledStream, { status: 'actionRequired', isStream: true });
      const refused = await post(w.siteManager.client, blocked.id, { action: 'start' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.startRefused);
      expect((await row(blocked.id)).status).toBe('actionRequired');
    });

    it('reschedules a schedule, and makes a schedule from a stream in actionRequired', async () => {
      const startTime = '2030-01-02T03:04:05.000Z';
      const schedule = await item(stream, { status: 'queued', isStream: true, isSchedule: true });
      const moved = await post(w.accountManager.client, schedule.id, {
        action: 'reschedule',
        startTime,
        duration: 600,
        clipName: 'Moved',
      });
      expect(moved.status).toBe(200);
      expect(moved.body.results).toMatchObject({
        id: schedule.id,
        scheduledStartTime: startTime,
        duration: 600,
        priority: schedulePriority(startTime),
        clipName: 'Moved',
      });
      const live = await item(stream, { status: 'actionRequired', isStream: true, clipName: 'Live' });
      const made = await post(w.accountManager.client, live.id, {
        action: 'reschedule',
        startTime,
        duration: 60,
      });
      expect(made.status).toBe(200);
      expect(made.body.results.id).not.toBe(live.id);
      expect(made.body.results).toMatchObject({
        isStream: true,
        isSchedule: true,
        status: 'queued',
        clipName: 'Live',
        endpointId: stream.id,
        priority: schedulePriority(startTime),
      });
      expect((await row(live.id)).status).toBe('actionRequired');
      expect(made.body.results.serviceGroupServices.map((service) => service.edgeId)).toEqual([
        edge.id,
        otherEdge.id,
      ]);
      const noTime = await post(w.accountManager.client, schedule.id, { action: 'reschedule' });
      expect(noTime.status).toBe(400);
      expect(noTime.body.error.message).toBe(INGEST_MESSAGES.startTimeRequired);
      const file = await item(source, { status: 'queued' });
      const notStream = await post(w.accountManager.client, file.id, { action: 'reschedule', startTime });
      expect(notStream.body.error.message).toBe(INGEST_MESSAGES.scheduleRefused);
    });

    it('renames only an item in actionRequired or a schedule', async () => {
      const waiting = await item(source, { status: 'actionRequired' });
      const renamed = await post(w.accountManager.client, waiting.id, {
        reelName: 'R9',
        diskLabel: 'CARD-B',
        clipName: 'Renamed',
      });
      expect(renamed.body.results).toMatchObject({
        reelName: 'R9',
        diskLabel: 'CARD-B',
        clipName: 'Renamed',
      });
      const queued = await item(source, { status: 'queued', clipName: 'Kept' });
      const refused = await post(w.accountManager.client, queued.id, { clipName: 'Nope' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.editRefused);
      expect((await row(queued.id)).clipName).toBe('Kept');
    });

    it('answers 400 for a body id other than the address or an unknown field, 401, 403 and 404', async () => {
      const queued = await item(source, { status: 'queued' });
      const mismatch = await w.accountManager.client.post<ErrorBody>(`/api/ingestQueueItems/${queued.id}`, {
        id: queued.id + 1000,
        status: 'actionRequired',
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error.message).toBe(INGEST_MESSAGES.idMismatch);
      expect((await post(w.accountManager.client, queued.id, { colour: 'red' })).status).toBe(400);
      const noStatus = await post(w.accountManager.client, queued.id, { action: 'status' });
      expect(noStatus.status).toBe(400);
      expect(noStatus.body.error.message).toBe(INGEST_MESSAGES.statusRequired);
      expect((await post(t.client(), queued.id, { status: 'actionRequired' })).status).toBe(401);
      expect((await post(w.editor.client, queued.id, { status: 'actionRequired' })).status).toBe(403);
      expect((await post(w.outsider.client, queued.id, { status: 'actionRequired' })).status).toBe(403);
      expect((await post(w.admin.client, 999999, { status: 'actionRequired' })).status).toBe(404);
      expect((await row(queued.id)).status).toBe('queued');
    });

    it('answers the log, and the thumbnail fitted to the size asked for', async () => {
      const path = await storeDemoThumbnail(
        { storage: t.ctx.storage, dataDir: t.ctx.config.dataDir },
        'test.jpg',
        200,
      );
      const withThumb = await item(source, {
        status: 'ingested',
        log: 'line 1\nline 2\n',
        thumbnailPath: path,
      });
      const log = await w.accountManager.client.get<Results<{ log: string }>>(
        `/api/ingestQueueItems/${withThumb.id}/log`,
      );
      expect(log.status).toBe(200);
      expect(log.body.results.log).toBe('line 1\nline 2\n');
      const image = await w.accountManager.client.get(
        `/api/ingestQueueItems/${withThumb.id}/thumbnail?width=64&height=64`,
      );
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      const meta = await sharp(image.raw.rawPayload).metadata();
      expect(meta.format).toBe('jpeg');
      expect(meta.width).toBe(64);
      expect(meta.height).toBe(36);
      const etag = image.headers.etag as string;
      const unchanged = await w.accountManager.client.get(
        `/api/ingestQueueItems/${withThumb.id}/thumbnail?width=64&height=64`,
        { 'If-None-Match': etag },
      );
      expect(unchanged.status).toBe(304);
      const otherSize = await w.accountManager.client.get(
        `/api/ingestQueueItems/${withThumb.id}/thumbnail?width=32&height=32`,
        { 'If-None-Match': etag },
      );
      expect(otherSize.status).toBe(200);
      const without = await item(source, { status: 'queued' });
      expect(
        (await w.accountManager.client.get(`/api/ingestQueueItems/${without.id}/thumbnail`)).status,
      ).toBe(404);
      const escaping = await item(source, { status: 'queued', thumbnailPath: '../../etc/passwd' });
      expect(
        (await w.accountManager.client.get(`/api/ingestQueueItems/${escaping.id}/thumbnail`)).status,
      ).toBe(404);
      expect(
        (await w.admin.client.get(`/api/ingestQueueItems/${withThumb.id}/thumbnail?width=5000`)).status,
      ).toBe(400);
      for (const tail of ['log', 'thumbnail']) {
        expect((await t.client().get(`/api/ingestQueueItems/${withThumb.id}/${tail}`)).status).toBe(401);
        expect((await w.editor.client.get(`/api/ingestQueueItems/${withThumb.id}/${tail}`)).status).toBe(403);
        expect((await w.admin.client.get(`/api/ingestQueueItems/999999/${tail}`)).status).toBe(404);
      }
    });
  });
});

import {
  API_VERSIONS,
  INGEST_ITEM_ACTIONS,
  INGEST_MESSAGES,
  type IngestQueueItem,
  MANUAL_STATUS_CHANGES,
  schedulePriority,
  type UnprocessedFile,
} from '@media/contract';
import { eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestQueueItems, unprocessedFiles } from '../src/modules/ingest/tables.ts';
import {
  makeArrivalsFolderRow,
  makeEdgeServerRow,
  makeEndpointRow,
  makeQueueItemRow,
  makeServiceRow,
  makeUnprocessedFileRow,
  storeDemoThumbnail,
} from '../src/seed/demo-edge.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Page = Collection<IngestQueueItem> & { version: number };
type Row = typeof ingestQueueItems.$inferSelect;

describe(`ingest queue (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let edge: { id: number };
  let otherEdge: { id: number };
  let folder: { id: number };
  let source: { id: number; accountId: number | null; arrivalsFolderId: number | null };
  let stream: { id: number; accountId: number | null; arrivalsFolderId: number | null };
  let disabledStream: { id: number; accountId: number | null; arrivalsFolderId: number | null };
  let foreign: { id: number; accountId: number | null; arrivalsFolderId: number | null };

  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
    w = await makeWorld(t);
    const { db } = t.ctx;
    edge = await makeEdgeServerRow(db, { userId: w.siteManager.user.id, siteId: w.site.id });
    otherEdge = await makeEdgeServerRow(db, { userId: w.outsider.user.id });
    folder = await makeArrivalsFolderRow(db, { accountId: w.account.id });
    const files = await makeServiceRow(db, { edgeServerId: edge.id });
    const streams = await makeServiceRow(db, { edgeServerId: edge.id, typeId: 'StreamIngestService' });
    await makeServiceRow(db, {
      edgeServerId: otherEdge.id,
      typeId: 'StreamIngestService',
      serviceGroupId: streams.serviceGroupId,
    });
    const otherService = await makeServiceRow(db, { edgeServerId: otherEdge.id });
    source = await makeEndpointRow(db, {
      serviceId: files.id,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
    });
    stream = await makeEndpointRow(db, {
      serviceId: streams.id,
      typeId: 'SrtEndpoint',
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
    });
    disabledStream = await makeEndpointRow(db, {
      serviceId: streams.id,
      typeId: 'SrtEndpoint',
      accountId: w.account.id,
      status: 'disabled',
    });
    foreign = await makeEndpointRow(db, { serviceId: otherService.id, accountId: w.otherAccount.id });
  });
  afterAll(() => t.close());

  const item = (
    endpoint: { id: number; accountId: number | null; arrivalsFolderId: number | null },
    values: Partial<typeof ingestQueueItems.$inferInsert> = {},
    on: { id: number } = edge,
  ) =>
    makeQueueItemRow(t.ctx.db, {
      edgeServerId: on.id,
      endpointId: endpoint.id,
      accountId: endpoint.accountId,
      arrivalsFolderId: endpoint.arrivalsFolderId,
      ...values,
    });
  const row = async (id: number) =>
    (await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id)))[0] as Row;
  let listEdge: { id: number };
  const edgeQueue = (query = '') => `/api/edgeServers/${listEdge.id}/ingestQueueItems${query}`;

  describe('lists', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      const fresh = await makeEdgeServerRow(t.ctx.db, { userId: w.siteManager.user.id, siteId: w.site.id });
      const service = await makeServiceRow(t.ctx.db, { edgeServerId: fresh.id });
      const ep = await makeEndpointRow(t.ctx.db, { serviceId: service.id, accountId: w.siblingAccount.id });
      const epStream = await makeEndpointRow(t.ctx.db, {
        serviceId: service.id,
        typeId: 'HlsEndpoint',
        accountId: w.siblingAccount.id,
      });
      listEdge = fresh;
      const make = async (
        endpoint: { id: number; accountId: number | null; arrivalsFolderId: number | null },
        values: Partial<typeof ingestQueueItems.$inferInsert>,
      ) => (await item(endpoint, values, fresh)).id;
      ids = {
        alpha: await make(ep, { clipName: 'Alpha', sourceName: 'ALPHA_take1.mov', status: 'queued' }),
        bravo: await make(ep, { clipName: 'Bravo', status: 'failed' }),
        charlie: await make(ep, { clipName: 'Charlie', status: 'deleted' }),
        delta: await make(epStream, { clipName: 'Delta', status: 'queued', isStream: true }),
        echo: await make(epStream, {
          clipName: 'Echo',
          status: 'queued',
          isStream: true,
          isSchedule: true,
        }),
        foxtrot: await make(epStream, { clipName: 'Foxtrot', status: 'ingesting', isStream: true }),
      };
    });

    it('answers a page of the edge queue in rank order, with its channel and version, deleted items hidden', async () => {
      const res = await w.siteManager.client.get<Page>(edgeQueue());
      expect(res.status).toBe(200);
      expect(res.body.channel).toBe(`edgeServers/${listEdge.id}/ingestQueue`);
      expect(res.body.version).toBeGreaterThan(0);
      expect(res.body.results.map((i) => i.clipName)).toEqual(['Alpha', 'Bravo', 'Delta', 'Echo', 'Foxtrot']);
      expect(res.body.total).toBe(5);
      const first = res.body.results[0] as IngestQueueItem;
      expect(first).toMatchObject({
        status: 'queued',
        isStream: false,
        edgeServerId: listEdge.id,
        accountId: w.siblingAccount.id,
        endpoint: { category: 'source', status: 'ok' },
      });
      expect(first.serviceGroupServices).toEqual([{ id: first.endpoint?.serviceId, edgeId: listEdge.id }]);
    });

    it("filters: statuses OR-ed, kinds OR-ed, the groups AND-ed; 'deleted' shows deleted items", async () => {
      const names = async (filters: string) =>
        (
          await w.siteManager.client.get<Page>(edgeQueue(`?filters=${encodeURIComponent(filters)}`))
        ).body.results
          .map((i) => i.clipName)
          .sort();
      expect(await names('queued|streams')).toEqual(['Delta', 'Echo']);
      expect(await names('queued|failed|files')).toEqual(['Alpha', 'Bravo']);
      expect(await names('files|schedules')).toEqual(['Alpha', 'Bravo', 'Echo']);
      expect(await names('ingesting|queued')).toEqual(['Alpha', 'Delta', 'Echo', 'Foxtrot']);
      expect(await names('deleted')).toEqual(['Charlie']);
      const bad = await w.siteManager.client.get<ErrorBody>(edgeQueue('?filters=queued|bogus'));
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('Unknown filter');
    });

    it('searches clip, reel and source names without regard to case, sorts, pages and keeps endpoints', async () => {
      const search = await w.siteManager.client.get<Page>(edgeQueue('?search=alpha_TAKE'));
      expect(search.body.results.map((i) => i.clipName)).toEqual(['Alpha']);
      const like = await w.siteManager.client.get<Page>(edgeQueue('?search=%25'));
      expect(like.body.results).toEqual([]);
      const sorted = await w.siteManager.client.get<Page>(
        edgeQueue('?sortKey=clipName&sortDirection=-1&pageSize=2'),
      );
      expect(sorted.body.results.map((i) => i.clipName)).toEqual(['Foxtrot', 'Echo']);
      expect(sorted.body.total).toBe(5);
      const second = await w.siteManager.client.get<Page>(
        edgeQueue('?sortKey=clipName&sortDirection=-1&pageSize=2&offset=2'),
      );
      expect(second.body.results.map((i) => i.clipName)).toEqual(['Delta', 'Bravo']);
      expect(second.body.total).toBe(5);
      const streamOnly = (await w.siteManager.client.get<Page>(edgeQueue())).body.results.find(
        (i) => i.clipName === 'Delta',
      );
      const kept = await w.siteManager.client.get<Page>(
        edgeQueue(`?edgesEndpointIds=${streamOnly?.endpointId}`),
      );
      expect(kept.body.results.map((i) => i.clipName)).toEqual(['Delta', 'Echo', 'Foxtrot']);
      const boosted = await w.siteManager.client.get<Page>(
        edgeQueue(
          `?priorityMap=${encodeURIComponent(JSON.stringify({ [String(streamOnly?.endpointId)]: 5 }))}`,
        ),
      );
      expect(boosted.body.results.map((i) => i.clipName)).toEqual([
        'Delta',
        'Echo',
        'Foxtrot',
        'Alpha',
        'Bravo',
      ]);
      const badMap = await w.siteManager.client.get<ErrorBody>(edgeQueue('?priorityMap=nope'));
      expect(badMap.status).toBe(400);
      expect(badMap.body.error.message).toBe(INGEST_MESSAGES.badPriorityMap);
      expect((await w.siteManager.client.get(edgeQueue('?sortKey=colour'))).status).toBe(400);
      expect((await w.siteManager.client.get(edgeQueue('?pageSize=0'))).status).toBe(400);
    });

    it('sinceVersion answers only the items changed since, deleted ones included', async () => {
      const { version } = (await w.siteManager.client.get<Page>(edgeQueue())).body;
      const none = await w.siteManager.client.get<Page>(edgeQueue(`?sinceVersion=${version}`));
      expect(none.body.results).toEqual([]);
      await w.siteManager.client.post(`/api/ingestQueueItems/${ids.alpha}`, {
        id: ids.alpha,
        status: 'actionRequired',
      });
      await w.siteManager.client.post(`/api/ingestQueueItems/${ids.bravo}/trash`);
      const changed = await w.siteManager.client.get<Page>(edgeQueue(`?sinceVersion=${version}`));
      expect(changed.body.results.map((i) => [i.clipName, i.status]).sort()).toEqual([
        ['Alpha', 'actionRequired'],
        ['Bravo', 'deleted'],
      ]);
      expect(changed.body.version).toBeGreaterThan(version);
      const filtered = await w.siteManager.client.get<Page>(
        edgeQueue(`?sinceVersion=${version}&filters=queued`),
      );
      expect(filtered.body.results.map((i) => i.clipName)).toEqual(['Bravo']);
    });

    it('refuses an API version it does not support (400 apiversion) and serves the supported one', async () => {
      const old = await w.siteManager.client.get<ErrorBody>(edgeQueue(), { 'X-Api-Version': '19990101' });
      expect(old.status).toBe(400);
      expect(old.body.error.code).toBe('apiversion');
      const current = await w.siteManager.client.get(edgeQueue(), { 'X-Api-Version': API_VERSIONS.ingest });
      expect(current.status).toBe(200);
    });

    it('answers 401, 403 and 404 for an edge queue', async () => {
      expect((await t.client().get(edgeQueue())).status).toBe(401);
      expect((await w.accountManager.client.get(edgeQueue())).status).toBe(403);
      expect((await w.outsider.client.get(edgeQueue())).status).toBe(403);
      expect((await w.admin.client.get(edgeQueue())).status).toBe(200);
      expect((await w.admin.client.get('/api/edgeServers/999999/ingestQueueItems')).status).toBe(404);
    });

    it('lists the queue of an arrivals folder and of an account to its managers', async () => {
      const mine = await item(source, { clipName: 'In folder' });
      const ofFolder = await w.accountManager.client.get<Page>(
        `/api/arrivalsFolders/${folder.id}/ingestQueueItems`,
      );
      expect(ofFolder.status).toBe(200);
      expect(ofFolder.body.channel).toBe(`accounts/${w.account.id}/ingestQueue`);
      expect(ofFolder.body.results.map((i) => i.id)).toContain(mine.id);
      expect(ofFolder.body.results.every((i) => i.arrivalsFolderId === folder.id)).toBe(true);
      const ofAccount = await w.accountManager.client.get<Page>(
        `/api/accounts/${w.account.id}/ingestQueueItems`,
      );
      expect(ofAccount.status).toBe(200);
      expect(ofAccount.body.results.every((i) => i.accountId === w.account.id)).toBe(true);
      expect(ofAccount.body.results.map((i) => i.id)).toContain(mine.id);
      for (const url of [
        `/api/arrivalsFolders/${folder.id}/ingestQueueItems`,
        `/api/accounts/${w.account.id}/ingestQueueItems`,
      ]) {
        expect((await t.client().get(url)).status).toBe(401);
        expect((await w.editor.client.get(url)).status).toBe(403);
      }
      expect((await w.admin.client.get('/api/arrivalsFolders/999999/ingestQueueItems')).status).toBe(404);
      expect((await w.admin.client.get('/api/accounts/999999/ingestQueueItems')).status).toBe(404);
    });

    it("lists an endpoint's queue to its edge's and its account's managers", async () => {
      const mine = await item(source, { clipName: 'Of endpoint' });
      const url = `/api/endpoints/${source.id}/ingestQueueItems`;
      for (const client of [w.accountManager.client, w.siteManager.client]) {
        const res = await client.get<Page>(url);
        expect(res.status).toBe(200);
        expect(res.body.results.map((i) => i.id)).toContain(mine.id);
        expect(res.body.results.every((i) => i.endpointId === source.id)).toBe(true);
      }
      expect((await t.client().get(url)).status).toBe(401);
      expect((await w.editor.client.get(url)).status).toBe(403);
      expect((await w.admin.client.get('/api/endpoints/999999/ingestQueueItems')).status).toBe(404);
    });
  });

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

    it('starts a stream in actionRequired and stops it; refuses when the endpoint is disabled', async () => {
      const waiting = await item(stream, { status: 'actionRequired', isStream: true });
      const started = await post(w.accountManager.client, waiting.id, { action: 'start' });
      expect(started.status).toBe(200);
      expect(started.body.results.status).toBe('ingesting');
      expect(started.body.results.whenStarted).not.toBeNull();
      const startAgain = await post(w.accountManager.client, waiting.id, { action: 'start' });
      expect(startAgain.status).toBe(400);
      expect(startAgain.body.error.message).toBe(INGEST_MESSAGES.startRefused);
      const stopped = await post(w.accountManager.client, waiting.id, { action: 'stop' });
      expect(stopped.body.results.status).toBe('ingested');
      expect(stopped.body.results.whenFinished).not.toBeNull();
      const stopAgain = await post(w.accountManager.client, waiting.id, { action: 'stop' });
      expect(stopAgain.body.error.message).toBe(INGEST_MESSAGES.stopRefused);
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
      const path = await storeDemoThumbnail(t.ctx.config.dataDir, 'test.jpg', 200);
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

  describe('batches', () => {
    it('changes several statuses at once, or none when one is refused', async () => {
      const a = await item(source, { status: 'failed' });
      const b = await item(source, { status: 'missing' });
      const c = await item(source, { status: 'ingesting' });
      const refused = await w.accountManager.client.post<ErrorBody>('/api/ingestQueueItems', [
        { id: a.id, status: 'queued' },
        { id: b.id, status: 'actionRequired' },
        { id: c.id, status: 'queued' },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.statusChangeRefused('ingesting', 'queued'));
      expect([(await row(a.id)).status, (await row(b.id)).status]).toEqual(['failed', 'missing']);
      const missing = await w.accountManager.client.post('/api/ingestQueueItems', [
        { id: a.id, status: 'queued' },
        { id: 999999, status: 'queued' },
      ]);
      expect(missing.status).toBe(404);
      expect((await row(a.id)).status).toBe('failed');
      const foreignItem = await item(foreign, { status: 'failed' }, otherEdge);
      const forbidden = await w.accountManager.client.post('/api/ingestQueueItems', [
        { id: a.id, status: 'queued' },
        { id: foreignItem.id, status: 'queued' },
      ]);
      expect(forbidden.status).toBe(403);
      expect((await row(a.id)).status).toBe('failed');
      const ok = await w.accountManager.client.post<Results<IngestQueueItem[]>>('/api/ingestQueueItems', [
        { id: a.id, status: 'queued' },
        { id: b.id, status: 'actionRequired' },
      ]);
      expect(ok.status).toBe(200);
      expect(ok.body.results.map((i) => i.status).sort()).toEqual(['actionRequired', 'queued']);
      expect((await t.client().post('/api/ingestQueueItems', [{ id: a.id, status: 'queued' }])).status).toBe(
        401,
      );
      expect((await w.accountManager.client.post('/api/ingestQueueItems', [])).status).toBe(400);
    });

    it('trashes one trashable item, and refuses others', async () => {
      const failed = await item(source, { status: 'failed' });
      const res = await w.accountManager.client.post(`/api/ingestQueueItems/${failed.id}/trash`);
      expect(res.status).toBe(200);
      expect((await row(failed.id)).status).toBe('deleted');
      const queued = await item(source, { status: 'queued' });
      const refused = await w.accountManager.client.post<ErrorBody>(
        `/api/ingestQueueItems/${queued.id}/trash`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.trashRefused('queued'));
      expect((await row(queued.id)).status).toBe('queued');
      expect((await t.client().post(`/api/ingestQueueItems/${failed.id}/trash`)).status).toBe(401);
      expect((await w.editor.client.post(`/api/ingestQueueItems/${failed.id}/trash`)).status).toBe(403);
      expect((await w.admin.client.post('/api/ingestQueueItems/999999/trash')).status).toBe(404);
    });

    it("trashes or purges items named 'edge:endpoint:queueId', all or nothing", async () => {
      const key = (r: Row) => `${r.edgeServerId}:${r.endpointId}:${r.queueId}`;
      const a = await item(source, { status: 'ingested' });
      const b = await item(source, { status: 'duplicated' });
      const queued = await item(source, { status: 'queued' });
      const url = '/api/ingestQueueItems/trash';
      const refused = await w.accountManager.client.post<ErrorBody>(url, { ids: [key(a), key(queued)] });
      expect(refused.status).toBe(400);
      expect((await row(a.id)).status).toBe('ingested');
      const unknown = await w.accountManager.client.post(url, {
        ids: [key(a), `${edge.id}:${source.id}:nope`],
      });
      expect(unknown.status).toBe(404);
      expect((await row(a.id)).status).toBe('ingested');
      expect((await w.accountManager.client.post(url, { ids: ['not-a-key'] })).status).toBe(400);
      expect((await w.accountManager.client.post(url, { ids: [key(a)], mode: 'burn' })).status).toBe(400);
      expect((await t.client().post(url, { ids: [key(a)] })).status).toBe(401);
      expect((await w.editor.client.post(url, { ids: [key(a)] })).status).toBe(403);
      const trashed = await w.accountManager.client.post(url, { ids: [key(a), key(b)] });
      expect(trashed.status).toBe(200);
      expect([(await row(a.id)).status, (await row(b.id)).status]).toEqual(['deleted', 'deleted']);
      const purged = await w.accountManager.client.post(url, { ids: [key(a)], mode: 'purge' });
      expect(purged.status).toBe(200);
      expect(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, a.id))).toEqual([]);
    });

    it('sets the order of a queue: ranks from 1, items of that queue only, all or nothing', async () => {
      const x = await item(source, { status: 'queued' });
      const y = await item(source, { status: 'queued' });
      const outside = await item(foreign, { status: 'queued' }, otherEdge);
      const url = `/api/edgeServers/${edge.id}/ingestQueueItemRanks`;
      const refused = await w.siteManager.client.post<ErrorBody>(url, [
        { queueItemId: y.id, rank: 1 },
        { queueItemId: outside.id, rank: 2 },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.notInQueue(outside.id));
      expect((await row(y.id)).rank).toBe(y.rank);
      const ok = await w.siteManager.client.post(url, [
        { queueItemId: y.id, rank: 1 },
        { queueItemId: x.id, rank: 2 },
      ]);
      expect(ok.status).toBe(200);
      expect([(await row(y.id)).rank, (await row(x.id)).rank]).toEqual([1, 2]);
      expect((await row(y.id)).version).toBeGreaterThan(y.version);
      const ofAccount = await w.accountManager.client.post(
        `/api/accounts/${w.account.id}/ingestQueueItemRanks`,
        [{ queueItemId: x.id, rank: 1 }],
      );
      expect(ofAccount.status).toBe(200);
      const ofFolder = await w.accountManager.client.post(
        `/api/arrivalsFolders/${folder.id}/ingestQueueItemRanks`,
        [{ queueItemId: y.id, rank: 1 }],
      );
      expect(ofFolder.status).toBe(200);
      expect((await w.siteManager.client.post(url, [{ queueItemId: x.id, rank: 0 }])).status).toBe(400);
      expect((await t.client().post(url, [{ queueItemId: x.id, rank: 1 }])).status).toBe(401);
      expect((await w.accountManager.client.post(url, [{ queueItemId: x.id, rank: 1 }])).status).toBe(403);
      expect(
        (
          await w.admin.client.post('/api/edgeServers/999999/ingestQueueItemRanks', [
            { queueItemId: x.id, rank: 1 },
          ])
        ).status,
      ).toBe(404);
    });

    it('answers the manual status changes and the actions', async () => {
      for (const [client, url] of [
        [w.siteManager.client, `/api/edgeServers/${edge.id}/ingestQueueItemActions`],
        [w.accountManager.client, `/api/arrivalsFolders/${folder.id}/ingestQueueItemActions`],
        [w.accountManager.client, `/api/accounts/${w.account.id}/ingestQueueItemActions`],
      ] as const) {
        const res = await client.get<Results<{ statusChanges: object; actions: string[] }>>(url);
        expect(res.status).toBe(200);
        expect(res.body.results.statusChanges).toEqual(MANUAL_STATUS_CHANGES);
        expect(res.body.results.actions).toEqual([...INGEST_ITEM_ACTIONS]);
        expect((await t.client().get(url)).status).toBe(401);
        expect((await w.editor.client.get(url)).status).toBe(403);
      }
      expect((await w.admin.client.get('/api/accounts/999999/ingestQueueItemActions')).status).toBe(404);
    });
  });

  describe('unprocessed files', () => {
    it('lists, forces and rescans files, all or nothing', async () => {
      const a = await makeUnprocessedFileRow(t.ctx.db, { endpointId: source.id, path: 'a/one.mxf' });
      const b = await makeUnprocessedFileRow(t.ctx.db, { endpointId: source.id, path: 'a/two.mxf' });
      const far = await makeUnprocessedFileRow(t.ctx.db, { endpointId: foreign.id, path: 'x.mxf' });
      const list = await w.accountManager.client.get<Collection<UnprocessedFile>>(
        `/api/endpoints/${source.id}/unprocessedFiles`,
      );
      expect(list.status).toBe(200);
      expect(list.body.channel).toBe(`edgeServers/${edge.id}/unprocessedFiles`);
      expect(list.body.results.map((f) => [f.path, f.status, f.forced])).toEqual([
        ['a/one.mxf', 'missingFiles', false],
        ['a/two.mxf', 'missingFiles', false],
      ]);
      expect((await t.client().get(`/api/endpoints/${source.id}/unprocessedFiles`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/endpoints/${source.id}/unprocessedFiles`)).status).toBe(403);
      expect((await w.admin.client.get('/api/endpoints/999999/unprocessedFiles')).status).toBe(404);

      const forced = (id: number) =>
        t.ctx.db
          .select()
          .from(unprocessedFiles)
          .where(eq(unprocessedFiles.id, id))
          .then((rows) => rows[0]?.forced);
      const refused = await w.accountManager.client.post('/api/unprocessedFiles', [
        { id: a.id, forced: true },
        { id: far.id, forced: true },
      ]);
      expect(refused.status).toBe(403);
      expect(await forced(a.id)).toBe(false);
      const unknown = await w.accountManager.client.post('/api/unprocessedFiles', [
        { id: a.id, forced: true },
        { id: 999999, forced: true },
      ]);
      expect(unknown.status).toBe(404);
      expect(await forced(a.id)).toBe(false);
      const ok = await w.accountManager.client.post<Results<UnprocessedFile[]>>('/api/unprocessedFiles', [
        { id: a.id, forced: true },
      ]);
      expect(ok.status).toBe(200);
      expect(ok.body.results).toMatchObject([{ id: a.id, forced: true }]);
      expect((await w.accountManager.client.post('/api/unprocessedFiles', [{ id: a.id }])).status).toBe(400);
      expect((await t.client().post('/api/unprocessedFiles', [{ id: a.id, forced: true }])).status).toBe(401);

      const rescanRefused = await w.accountManager.client.post('/api/unprocessedFiles/trash', [a.id, far.id]);
      expect(rescanRefused.status).toBe(403);
      const rescan = await w.accountManager.client.post('/api/unprocessedFiles/trash', [a.id, b.id]);
      expect(rescan.status).toBe(200);
      expect(
        await t.ctx.db
          .select()
          .from(unprocessedFiles)
          .where(inArray(unprocessedFiles.id, [a.id, b.id, far.id])),
      ).toHaveLength(1);
      expect((await w.accountManager.client.post('/api/unprocessedFiles/trash', [999999])).status).toBe(404);
      expect((await w.accountManager.client.post('/api/unprocessedFiles/trash', ['x'])).status).toBe(400);
      expect((await t.client().post('/api/unprocessedFiles/trash', [far.id])).status).toBe(401);
    });
  });
});

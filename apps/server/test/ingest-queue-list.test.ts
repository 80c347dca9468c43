import { API_VERSIONS, INGEST_MESSAGES, type IngestQueueItem } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { makeEdgeServerRow, makeEndpointRow, makeServiceRow } from '../src/seed/demo-edge.ts';
import {
  type IngestWorld,
  makeIngestWorld,
  makeQueueItem,
  type QueueEndpoint,
  type QueueItemValues,
} from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Page = Collection<IngestQueueItem> & { version: number };

describe(`ingest queue (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let edge: IngestWorld['edge'];
  let folder: IngestWorld['folder'];
  let source: IngestWorld['source'];

  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
    ({ w, edge, folder, source } = await makeIngestWorld(t));
  });
  afterAll(() => t.close());

  const item = (endpoint: QueueEndpoint, values: QueueItemValues = {}, on: { id: number } = edge) =>
    makeQueueItem(t, endpoint, values, on);
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
});

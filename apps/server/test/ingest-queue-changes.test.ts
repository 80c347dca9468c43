import {
  INGEST_ITEM_ACTIONS,
  INGEST_MESSAGES,
  type IngestQueueItem,
  MANUAL_STATUS_CHANGES,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import {
  type IngestWorld,
  makeIngestWorld,
  makeQueueItem,
  type QueueEndpoint,
  type QueueItemValues,
  queueRow,
  type QueueRow as Row,
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
  let folder: IngestWorld['folder'];
  let source: IngestWorld['source'];
  let foreign: IngestWorld['foreign'];
  let stream: IngestWorld['stream'];

  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
    ({ w, edge, otherEdge, folder, source, foreign, stream } = await makeIngestWorld(t));
  });
  afterAll(() => t.close());

  const item = (endpoint: QueueEndpoint, values: QueueItemValues = {}, on: { id: number } = edge) =>
    makeQueueItem(t, endpoint, values, on);
  const row = (id: number) => queueRow(t, id);

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

    it("sets the order of one endpoint's queue: its own items only, for edge or account managers", async () => {
      const x = await item(source, { status: 'queued' });
      const y = await item(source, { status: 'queued' });
      const ofOtherEndpoint = await item(stream, { status: 'actionRequired', isStream: true });
      const url = `/api/endpoints/${source.id}/ingestQueueItemRanks`;
      const refused = await w.accountManager.client.post<ErrorBody>(url, [
        { queueItemId: y.id, rank: 1 },
        { queueItemId: ofOtherEndpoint.id, rank: 2 },
      ]);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INGEST_MESSAGES.notInQueue(ofOtherEndpoint.id));
      expect((await row(y.id)).rank).toBe(y.rank);
      for (const client of [w.accountManager.client, w.siteManager.client]) {
        const ok = await client.post(url, [
          { queueItemId: y.id, rank: 1 },
          { queueItemId: x.id, rank: 2 },
        ]);
        expect(ok.status).toBe(200);
      }
      expect([(await row(y.id)).rank, (await row(x.id)).rank]).toEqual([1, 2]);
      expect((await w.editor.client.post(url, [{ queueItemId: x.id, rank: 1 }])).status).toBe(403);
      expect((await t.client().post(url, [{ queueItemId: x.id, rank: 1 }])).status).toBe(401);
      expect(
        (
          await w.admin.client.post('/api/endpoints/999999/ingestQueueItemRanks', [
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
        [w.accountManager.client, `/api/endpoints/${source.id}/ingestQueueItemActions`],
        [w.siteManager.client, `/api/endpoints/${source.id}/ingestQueueItemActions`],
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
});

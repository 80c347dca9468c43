import fs from 'node:fs';
import path from 'node:path';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { media, nodes, thumbs } from '../src/modules/nodes/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { buildTestApp, makeWorld, type Results, type TestApp, testDriver, type World } from './harness.ts';

const one = <T>(rows: T[]): T => {
  const [row] = rows;
  if (!row) throw new Error('expected a row');
  return row;
};

/** An ingested file of an account reaches its media tree under /{account}/Arrivals/{arrivals folder}. */
describe(`ingested files land in the media tree (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  const token = 'agent-token-of-ingest-nodes-0123';
  let rushesEndpointId: number;
  let bareEndpointId: number;
  let noAccountEndpointId: number;

  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    t.app
      .inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'x-api-version': API_VERSIONS.ingest },
        ...(body !== undefined ? { payload: body as object } : {}),
      })
      .then((response) => ({ status: response.statusCode, body: response.json() as T }));

  /** The agent's whole round for one file: queue, start, thumbnail, finish. Answers the item's id. */
  const ingest = async (endpointId: number, queueId: string, sourceName: string, withThumbnail = true) => {
    const queued = await call<Results<{ id: number }>>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId,
      sourceName,
    });
    expect(queued.status).toBe(200);
    const id = queued.body.results.id;
    expect((await call('POST', `/api/agent/queueItems/${id}`, { status: 'ingesting' })).status).toBe(200);
    if (withThumbnail) {
      const jpeg = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#336699' } })
        .jpeg()
        .toBuffer();
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/agent/queueItems/${id}/thumbnail`,
        headers: {
          authorization: `Bearer ${token}`,
          'x-api-version': API_VERSIONS.ingest,
          'content-type': 'image/jpeg',
        },
        payload: jpeg,
      });
      expect(put.statusCode).toBe(200);
    }
    const finished = await call('POST', `/api/agent/queueItems/${id}`, {
      status: 'ingested',
      duration: 12.5,
      proxyWidth: 640,
      proxyHeight: 360,
      fileSize: 7_340_032,
      log: 'Ingested\n',
    });
    expect(finished.status).toBe(200);
    return id;
  };

  const nodesOf = (accountId: number) => t.ctx.db.select().from(nodes).where(eq(nodes.accountId, accountId));

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    const owner = await makeUser(t.ctx.db);
    // An edge server of a user lands media only in accounts its owner manages (issue 30).
    for (const account of [w.account, w.siblingAccount])
      await grantAccountAccess(t.ctx.db, owner.id, account.id, 'Account Manager');
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
    const rushes = await makeArrivalsFolderRow(t.ctx.db, { accountId: w.account.id, name: 'Rushes' });
    const endpoint = async (values: { accountId: number | null; arrivalsFolderId: number | null }) =>
      one(
        await t.ctx.db
          .insert(endpoints)
          .values({ serviceId: service.id, name: 'Watch', typeId: 'LocalFolderEndpoint', ...values })
          .returning(),
      ).id;
    rushesEndpointId = await endpoint({ accountId: w.account.id, arrivalsFolderId: rushes.id });
    bareEndpointId = await endpoint({ accountId: w.siblingAccount.id, arrivalsFolderId: null });
    noAccountEndpointId = await endpoint({ accountId: null, arrivalsFolderId: null });
  });
  afterAll(() => t.close());

  it('puts an ingested file of an account in /{account}/Arrivals/{folder}, with its media, metadata and thumbnail', async () => {
    const id = await ingest(rushesEndpointId, 'a001', 'day1/A001.mov');
    const tree = await nodesOf(w.account.id);
    expect(tree.map((node) => [node.path, node.type]).sort()).toEqual([
      ['/', 'folder'],
      ['/Arrivals', 'folder'],
      ['/Arrivals/Rushes', 'folder'],
      ['/Arrivals/Rushes/A001', 'source'],
    ]);
    const root = one(tree.filter((node) => node.path === '/'));
    expect(root.name).toBe(w.account.name);
    const source = one(tree.filter((node) => node.type === 'source'));
    expect(source.parentId).toBe(one(tree.filter((node) => node.path === '/Arrivals/Rushes')).id);
    expect(source.metadata).toEqual({
      filename: 'A001.mov',
      filesize: '7340032',
      sourcelocator: 'day1/A001.mov',
      ingestQueueItemId: String(id),
    });
    const row = one(
      await t.ctx.db
        .select()
        .from(media)
        .where(eq(media.id, source.mediaId as number)),
    );
    // No proxy was uploaded: no stored copy, and no picture size that would claim it plays.
    expect(row).toMatchObject({
      accountId: w.account.id,
      name: 'A001',
      type: 'media',
      storagePath: null,
      duration: 12.5,
      width: null,
      height: null,
      size: 7_340_032,
    });
    const thumb = one(
      await t.ctx.db
        .select()
        .from(thumbs)
        .where(eq(thumbs.id, source.thumbId as number)),
    );
    const item = one(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id)));
    expect(thumb.storagePath).not.toBe(item.thumbnailPath);
    const thumbFile = path.join(t.config.dataDir, thumb.storagePath);
    expect(fs.readFileSync(thumbFile).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // The queue item's thumbnail can go; the node keeps its own copy.
    fs.rmSync(path.join(t.config.dataDir, item.thumbnailPath as string));
    expect(fs.existsSync(thumbFile)).toBe(true);
  });

  it('gives a second file of the same clip name a free name, in the same folders', async () => {
    await ingest(rushesEndpointId, 'a001-again', 'day2/A001.mov', false);
    const sources = (await nodesOf(w.account.id)).filter((node) => node.type === 'source');
    expect(sources.map((node) => node.path).sort()).toEqual([
      '/Arrivals/Rushes/A001',
      '/Arrivals/Rushes/A001 (copy)',
    ]);
    const copy = one(sources.filter((node) => node.name === 'A001 (copy)'));
    expect(copy.thumbId).toBeNull();
    expect(copy.metadata.sourcelocator).toBe('day2/A001.mov');
    expect((await nodesOf(w.account.id)).filter((node) => node.path === '/Arrivals')).toHaveLength(1);
  });

  it('adds nothing when the same item is finished again', async () => {
    const [before] = (await nodesOf(w.account.id)).filter((node) => node.path === '/Arrivals/Rushes/A001');
    const itemId = Number(before?.metadata.ingestQueueItemId);
    // The agent's repeat is refused (the item is ingested already) …
    expect((await call('POST', `/api/agent/queueItems/${itemId}`, { status: 'ingested' })).status).toBe(409);
    // … and an item put back in the queue and ingested again keeps its one node.
    await t.ctx.db.update(ingestQueueItems).set({ status: 'queued' }).where(eq(ingestQueueItems.id, itemId));
    expect((await call('POST', `/api/agent/queueItems/${itemId}`, { status: 'ingesting' })).status).toBe(200);
    expect((await call('POST', `/api/agent/queueItems/${itemId}`, { status: 'ingested' })).status).toBe(200);
    const sources = (await nodesOf(w.account.id)).filter((node) => node.type === 'source');
    expect(sources.filter((node) => node.metadata.ingestQueueItemId === String(itemId))).toHaveLength(1);
    expect(sources).toHaveLength(2);
    expect(await t.ctx.db.select().from(media).where(eq(media.accountId, w.account.id))).toHaveLength(2);
  });

  it("uses the folder 'Arrivals' for an item without an arrivals folder", async () => {
    await ingest(bareEndpointId, 'b001', 'B001.mxf', false);
    const sources = (await nodesOf(w.siblingAccount.id)).filter((node) => node.type === 'source');
    expect(sources.map((node) => node.path)).toEqual(['/Arrivals/Arrivals/B001']);
  });

  it('puts nothing in any tree for an item without an account, or one that failed', async () => {
    const count = async () => (await t.ctx.db.select({ id: nodes.id }).from(nodes)).length;
    const before = await count();
    await ingest(noAccountEndpointId, 'c001', 'C001.mov');
    const queued = await call<Results<{ id: number }>>('POST', '/api/agent/queueItems', {
      endpointId: rushesEndpointId,
      queueId: 'broken',
      sourceName: 'broken.mov',
    });
    const failedId = queued.body.results.id;
    expect((await call('POST', `/api/agent/queueItems/${failedId}`, { status: 'ingesting' })).status).toBe(
      200,
    );
    expect(
      (
        await call('POST', `/api/agent/queueItems/${failedId}`, {
          status: 'failed',
          error: 'Not a media file',
        })
      ).status,
    ).toBe(200);
    expect(await count()).toBe(before);
    const [broken] = await t.ctx.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.accountId, w.account.id), eq(nodes.name, 'broken')));
    expect(broken).toBeUndefined();
  });

  it('names the queue item and its node without control and bidi characters, and keeps the source name', async () => {
    const sourceName = 'day3/ünï©ødé \u202Evom.exe\r\n.mov';
    const id = await ingest(rushesEndpointId, 'deceptive', sourceName, false);
    const item = one(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id)));
    expect(item.clipName).toBe('ünï©ødé vom.exe');
    // The agent reads the file by its source name: that stays as the file is named.
    expect(item.sourceName).toBe(sourceName);
    const node = one(
      (await nodesOf(w.account.id)).filter((row) => row.metadata.ingestQueueItemId === String(id)),
    );
    expect(node.name).toBe('ünï©ødé vom.exe');
    expect(node.path).toBe('/Arrivals/Rushes/ünï©ødé vom.exe');
  });
});

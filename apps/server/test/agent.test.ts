import fs from 'node:fs';
import path from 'node:path';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCommands, edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems, unprocessedFiles } from '../src/modules/ingest/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Configuration = {
  edgeServer: { id: number; name: string };
  endpoints: {
    id: number;
    accountId: number | null;
    options: Record<string, unknown>;
    serviceOptions: Record<string, string>;
  }[];
  commands: { id: number; action: string }[];
  forcedFiles: { endpointId: number; path: string }[];
  unprocessedFiles: { endpointId: number; path: string }[];
};
/** The one row a query must find. */
const one = <T>(rows: T[]): T => {
  const [row] = rows;
  if (!row) throw new Error('expected a row');
  return row;
};

type AgentItem = { id: number; queueId: string; status: string; sourceName: string };

describe(`edge agent API (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  const token = 'agent-token-for-tests-0123456789';
  const otherToken = 'agent-token-of-another-edge-0123';
  let edgeId: number;
  let endpointId: number;
  let otherEndpointId: number;

  const makeEdge = async (agentToken: string, userId: number) => {
    const edge = one(
      await t.ctx.db
        .insert(edgeServers)
        .values({
          name: `Edge ${agentToken.slice(-4)}`,
          userId,
          advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
          agentTokenHash: sha256(agentToken),
        })
        .returning(),
    );
    const service = one(
      await t.ctx.db
        .insert(services)
        .values({ edgeServerId: edge.id, name: 'Files', typeId: 'FileIngestService', serviceGroupId: 0 })
        .returning(),
    );
    const endpoint = one(
      await t.ctx.db
        .insert(endpoints)
        .values({
          serviceId: service.id,
          name: 'Watch folder',
          typeId: 'LocalFolderEndpoint',
          accountId: w.account.id,
          options: { path: '/media/in' },
        })
        .returning(),
    );
    return { edge, endpoint };
  };

  const call = <T>(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app
      .inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, 'x-api-version': API_VERSIONS.ingest, ...headers },
        ...(body !== undefined ? { payload: body as object } : {}),
      })
      .then((response) => ({ status: response.statusCode, body: response.json() as T }));

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    const owner = await makeUser(t.ctx.db);
    // An edge server of a user lands media only in accounts its owner manages (issue 30).
    await grantAccountAccess(t.ctx.db, owner.id, w.account.id, 'Account Manager');
    const mine = await makeEdge(token, owner.id);
    edgeId = mine.edge.id;
    endpointId = mine.endpoint.id;
    otherEndpointId = (await makeEdge(otherToken, owner.id)).endpoint.id;
  });
  afterAll(() => t.close());

  it('refuses a call without a token, with an unknown token, or without the API version', async () => {
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/agent/heartbeat',
      headers: { 'x-api-version': API_VERSIONS.ingest },
      payload: { agentVersion: '1' },
    });
    expect(bare.statusCode).toBe(401);
    expect((bare.json() as ErrorBody).error.message).toBe('A valid edge server token is required');
    const wrong = await call(
      'POST',
      '/api/agent/heartbeat',
      { agentVersion: '1' },
      {
        authorization: 'Bearer not-the-token-of-any-edge-server',
      },
    );
    expect(wrong.status).toBe(401);
    const noVersion = await call(
      'POST',
      '/api/agent/heartbeat',
      { agentVersion: '1' },
      { 'x-api-version': '1999' },
    );
    expect(noVersion.status).toBe(400);
    expect((noVersion.body as ErrorBody).error.code).toBe('apiversion');
  });

  it('records a heartbeat and answers the edge server’s endpoints and pending commands', async () => {
    await t.ctx.db.insert(edgeCommands).values({ edgeServerId: edgeId, action: 'machineLoad' });
    const answer = await call<Results<Configuration>>('POST', '/api/agent/heartbeat', {
      agentVersion: '0.1.0',
      endpointVersions: { LocalFolderEndpoint: '1.0' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results.edgeServer.id).toBe(edgeId);
    expect(answer.body.results.endpoints.map((e) => e.id)).toEqual([endpointId]);
    // Every option comes with the catalogue's default where nobody set it.
    expect(one(answer.body.results.endpoints).options).toEqual({
      path: '/media/in',
      recursive: true,
      fileMask: '*',
    });
    expect(one(answer.body.results.endpoints).serviceOptions).toEqual({
      scanIntervalSeconds: '10',
      settleSeconds: '5',
      maxConcurrentFiles: '2',
    });
    expect(answer.body.results.commands.map((c) => c.action)).toEqual(['machineLoad']);
    const edge = one(await t.ctx.db.select().from(edgeServers).where(eq(edgeServers.id, edgeId)));
    expect(edge.lastSeenAt).not.toBeNull();
    expect(edge.endpointVersions).toEqual({ LocalFolderEndpoint: '1.0' });

    const done = await call('POST', `/api/agent/commands/${one(answer.body.results.commands).id}`, {
      result: { load1: 0.5 },
    });
    expect(done.status).toBe(200);
    const again = await call<Results<Configuration>>('POST', '/api/agent/heartbeat', {
      agentVersion: '0.1.0',
    });
    expect(again.body.results.commands).toEqual([]);
    expect((await call('POST', '/api/agent/commands/999999', { result: {} })).status).toBe(404);
    expect((await call('POST', '/api/agent/heartbeat', { agentVersion: '1', extra: true })).status).toBe(400);
  });

  it("ends an endpoint's pending settings once the agent reports under them, working or not", async () => {
    const before = one(await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, endpointId)));
    await t.ctx.db
      .update(endpoints)
      .set({ online: true, pendingSettings: true })
      .where(eq(endpoints.id, endpointId));
    const report = (switchedOn: boolean | undefined) =>
      call('POST', '/api/agent/heartbeat', {
        agentVersion: '0.1.0',
        endpointReports: [
          {
            endpointId,
            online: false,
            status: 'error',
            message: 'Folder /media/in does not exist',
            ...(switchedOn === undefined ? {} : { switchedOn }),
          },
        ],
      });
    const row = async () => one(await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, endpointId)));
    // Measured under the old switch (off): still pending.
    expect((await report(false)).status).toBe(200);
    expect((await row()).pendingSettings).toBe(true);
    // Measured switched on: the settings have arrived, and the error says why it does not work.
    await report(true);
    expect(await row()).toMatchObject({
      pendingSettings: false,
      status: 'error',
      statusMessage: 'Folder /media/in does not exist',
    });
    // An older agent without switchedOn: its online stands for it, as before.
    await t.ctx.db.update(endpoints).set({ pendingSettings: true }).where(eq(endpoints.id, endpointId));
    await report(undefined);
    expect((await row()).pendingSettings).toBe(true);
    const { online, status, statusMessage, pendingSettings, statusReportedAt } = before;
    await t.ctx.db
      .update(endpoints)
      .set({ online, status, statusMessage, pendingSettings, statusReportedAt })
      .where(eq(endpoints.id, endpointId));
  });

  it('queues a found file at the end of the queue once, with the endpoint’s account', async () => {
    const first = await call<Results<AgentItem>>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'file-a',
      sourceName: 'day1/A001.mov',
    });
    expect(first.status).toBe(200);
    expect(first.body.results.status).toBe('queued');
    const second = await call<Results<AgentItem>>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'file-b',
      sourceName: 'day1/A002.mov',
    });
    const repeat = await call<Results<AgentItem>>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'file-a',
      sourceName: 'day1/A001.mov',
    });
    expect(repeat.body.results.id).toBe(first.body.results.id);
    const rows = await t.ctx.db
      .select()
      .from(ingestQueueItems)
      .where(eq(ingestQueueItems.edgeServerId, edgeId))
      .orderBy(ingestQueueItems.rank);
    expect(rows.map((row) => [row.queueId, row.rank, row.accountId, row.clipName])).toEqual([
      ['file-a', 1, w.account.id, 'A001'],
      ['file-b', 2, w.account.id, 'A002'],
    ]);
    const queued = await call<Results<AgentItem[]>>('GET', '/api/agent/queueItems?limit=5');
    expect(queued.body.results.map((item) => item.id)).toEqual([
      first.body.results.id,
      second.body.results.id,
    ]);
  });

  it('refuses an endpoint of another edge server and a bad queue id', async () => {
    const foreign = await call('POST', '/api/agent/queueItems', {
      endpointId: otherEndpointId,
      queueId: 'x',
      sourceName: 'x.mov',
    });
    expect(foreign.status).toBe(404);
    const bad = await call('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'a b',
      sourceName: 'x.mov',
    });
    expect(bad.status).toBe(400);
  });

  it('takes progress reports, and refuses one for an item a person took out of the queue', async () => {
    const item = one(
      await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'file-a')),
    );
    expect((await call('POST', `/api/agent/queueItems/${item.id}`, { status: 'ingesting' })).status).toBe(
      200,
    );
    const finished = await call('POST', `/api/agent/queueItems/${item.id}`, {
      status: 'ingested',
      duration: 12.5,
      proxyWidth: 640,
      proxyHeight: 360,
      log: 'probe ok\n',
    });
    expect(finished.status).toBe(200);
    const after = one(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id)));
    expect(after).toMatchObject({ status: 'ingested', duration: 12.5, proxyWidth: 640, log: 'probe ok\n' });
    expect(after.whenStarted).not.toBeNull();
    expect(after.whenFinished).not.toBeNull();
    expect(after.version).toBeGreaterThan(item.version);

    const other = one(
      await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'file-b')),
    );
    await t.ctx.db
      .update(ingestQueueItems)
      .set({ status: 'actionRequired' })
      .where(eq(ingestQueueItems.id, other.id));
    const refused = await call<ErrorBody>('POST', `/api/agent/queueItems/${other.id}`, {
      status: 'ingesting',
    });
    expect(refused.status).toBe(409);
    const unchanged = one(
      await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, other.id)),
    );
    expect(unchanged.status).toBe('actionRequired');
    expect((await call('POST', `/api/agent/queueItems/${item.id}`, { status: 'queued' })).status).toBe(400);
    expect((await call('POST', '/api/agent/queueItems/999999', { status: 'failed' })).status).toBe(404);
  });

  it('stores a JPEG thumbnail, replaces it, and refuses anything else', async () => {
    const item = one(
      await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'file-a')),
    );
    const jpeg = await sharp({ create: { width: 32, height: 18, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const put = (body: Buffer, contentType: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/agent/queueItems/${item.id}/thumbnail`,
        headers: {
          authorization: `Bearer ${token}`,
          'x-api-version': API_VERSIONS.ingest,
          'content-type': contentType,
        },
        payload: body,
      });
    expect((await put(jpeg, 'image/jpeg')).statusCode).toBe(200);
    const first = one(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id)));
    const firstFile = path.join(t.config.dataDir, first.thumbnailPath as string);
    expect(fs.readFileSync(firstFile).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect((await put(jpeg, 'image/jpeg')).statusCode).toBe(200);
    expect(fs.existsSync(firstFile)).toBe(false);
    expect((await put(Buffer.from('not a picture'), 'image/jpeg')).statusCode).toBe(415);
    expect((await put(Buffer.from('{}'), 'application/json')).statusCode).toBe(415);
    const huge = Buffer.concat([jpeg.subarray(0, 3), Buffer.alloc(2 * 1024 * 1024)]);
    expect((await put(huge, 'image/jpeg')).statusCode).toBe(413);
    const kept = one(await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id)));
    expect(fs.existsSync(path.join(t.config.dataDir, kept.thumbnailPath as string))).toBe(true);
  });

  it('records an unprocessed file once and hands back the forced ones', async () => {
    const report = () => call('POST', '/api/agent/unprocessedFiles', { endpointId, path: 'day1/notes.xml' });
    expect((await report()).status).toBe(200);
    expect((await report()).status).toBe(200);
    const rows = await t.ctx.db
      .select()
      .from(unprocessedFiles)
      .where(eq(unprocessedFiles.endpointId, endpointId));
    expect(rows).toHaveLength(1);
    await t.ctx.db
      .update(unprocessedFiles)
      .set({ forced: true })
      .where(eq(unprocessedFiles.id, one(rows).id));
    const answer = await call<Results<Configuration>>('POST', '/api/agent/heartbeat', {
      agentVersion: '0.1.0',
    });
    expect(answer.body.results.forcedFiles).toEqual([{ endpointId, path: 'day1/notes.xml' }]);
    const queued = await call<Results<AgentItem>>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'notes',
      sourceName: 'day1/notes.xml',
    });
    expect(queued.status).toBe(200);
    expect(
      await t.ctx.db.select().from(unprocessedFiles).where(eq(unprocessedFiles.endpointId, endpointId)),
    ).toEqual([]);
    expect(
      (await call('POST', '/api/agent/unprocessedFiles', { endpointId: otherEndpointId, path: 'x' })).status,
    ).toBe(404);
  });
});

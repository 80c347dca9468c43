import { CHANNELS, EDGE_ACTION_WAIT_SECONDS, EDGE_RULE_MESSAGES } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCommands, edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { makeQueueItemRow } from '../src/seed/demo-edge.ts';
import {
  type ActionResult,
  type Edge,
  type EdgeWorld,
  type Endpoint,
  makeEdgeWorld,
  publishedOn,
  type Service,
} from './edge-world.ts';
import {
  buildTestApp,
  type ErrorBody,
  eventually,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`edge servers: save, act and delete (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let owner: EdgeWorld['owner'];
  let otherManager: EdgeWorld['otherManager'];
  let siteEdge: EdgeWorld['siteEdge'];
  let ownEdge: EdgeWorld['ownEdge'];

  const published = (channel: string) => publishedOn(t, channel);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, owner, otherManager, siteEdge, ownEdge } = await makeEdgeWorld(t));
  });
  afterAll(() => t.close());

  it("renames an edge server; a name over 60 characters gives 'Name too long' and leaves the name unchanged", async () => {
    const path = `/api/edgeServers/${ownEdge.id}`;
    const renamed = await owner.client.post<Results<Edge>>(path, { id: ownEdge.id, name: 'Cellar box' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.results).toMatchObject({ id: ownEdge.id, name: 'Cellar box' });
    expect(await published(CHANNELS.edgeServers('user', owner.user.id))).toContain(ownEdge.id);

    const long = await owner.client.post<ErrorBody>(path, { id: ownEdge.id, name: 'y'.repeat(61) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('Name too long');
    const empty = await owner.client.post<ErrorBody>(path, { id: ownEdge.id, name: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('This field is required');
    const mismatch = await owner.client.post<ErrorBody>(path, { id: siteEdge.id, name: 'z' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toBe(EDGE_RULE_MESSAGES.idMismatch);
    expect((await owner.client.post(path, { name: 'no id' })).status).toBe(400);
    const after = await owner.client.get<Results<Edge>>(path);
    expect(after.body.results.name).toBe('Cellar box');
  });

  it('saves the whole edge server: advanced options, support connection, type, and a site only its managers may set', async () => {
    const path = `/api/edgeServers/${ownEdge.id}`;
    const advancedOptions = {
      logLevel: 'debug',
      maxConcurrentIngests: 4,
      uploadLimitMbps: 100,
      streamAddress: 'ingest.example.com',
    };
    const saved = await owner.client.post<Results<Edge>>(path, {
      id: ownEdge.id,
      name: 'Cellar box',
      type: 'server',
      advancedOptions,
      supportConnection: false,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.results.advancedOptions).toEqual(advancedOptions);
    // An address for streams that is no host name or IP address is refused, changing nothing.
    const badAddress = await owner.client.post<ErrorBody>(path, {
      id: ownEdge.id,
      name: 'Cellar box',
      advancedOptions: { ...advancedOptions, streamAddress: 'rtmp://x/live' },
    });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.error.message).toContain('Give a host name or an IP address');
    expect((await owner.client.get<Results<Edge>>(path)).body.results.advancedOptions).toEqual(
      advancedOptions,
    );
    expect(
      (await owner.client.post(path, { id: ownEdge.id, name: 'Cellar box', siteId: w.site.id })).status,
    ).toBe(403);
    expect(
      (await owner.client.post(path, { id: ownEdge.id, name: 'Cellar box', type: 'toaster' })).status,
    ).toBe(400);
    const moved = await w.admin.client.post<Results<Edge>>(path, {
      id: ownEdge.id,
      name: 'Cellar box',
      siteId: w.otherSite.id,
    });
    expect(moved.body.results.siteId).toBe(w.otherSite.id);
    expect((await otherManager.client.get(path)).status).toBe(200);
    const back = await otherManager.client.post<Results<Edge>>(path, {
      id: ownEdge.id,
      name: 'Cellar box',
      siteId: null,
    });
    expect(back.body.results.siteId).toBeNull();
    expect(await published(CHANNELS.edgeServers('site', w.otherSite.id))).toContain(ownEdge.id);
    expect((await otherManager.client.get(path)).status).toBe(403);
  });

  it('keeps an edge server able to run its services when its type changes', async () => {
    const relay = await owner.client.post<ErrorBody>(`/api/edgeServers/${siteEdge.id}`, {
      id: siteEdge.id,
      name: 'Paris ingest',
      type: 'relay',
    });
    expect(relay.status).toBe(400);
    expect(relay.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceTypeNotForEdge('FileIngestService'));
    expect((await owner.client.get<Results<Edge>>(`/api/edgeServers/${siteEdge.id}`)).body.results.type).toBe(
      'server',
    );
  });

  it('opens and closes the support connection', async () => {
    const path = `/api/edgeServers/${ownEdge.id}/supportConnection`;
    const on = await owner.client.post<Results<Edge>>(path);
    expect(on.status).toBe(200);
    expect(on.body.results.supportConnection).toBe(true);
    const off = await owner.client.post<Results<Edge>>(path, { supportConnection: false });
    expect(off.body.results.supportConnection).toBe(false);
    expect((await owner.client.post(path, { supportConnection: 'yes' })).status).toBe(400);
  });

  it('asks the agent for the machine load and a speed test, and answers the latest speed test result', async () => {
    const base = `/api/edgeServers/${ownEdge.id}/actions`;
    const none = await owner.client.post<ErrorBody>(`${base}/getEdgeSpeedTestResults`);
    expect(none.status).toBe(404);
    const load = await owner.client.post<Results<ActionResult>>(`${base}/machineLoad`);
    expect(load.status).toBe(200);
    expect(load.body.results).toMatchObject({ action: 'machineLoad', status: 'requested', result: null });
    const test = await owner.client.post<Results<ActionResult>>(`${base}/runNewEdgeSpeedTest`);
    expect(test.body.results.status).toBe('requested');
    const pending = await owner.client.post<Results<ActionResult>>(`${base}/getEdgeSpeedTestResults`);
    expect(pending.body.results).toMatchObject({
      action: 'runNewEdgeSpeedTest',
      status: 'requested',
      result: null,
    });
    const commands = await t.ctx.db
      .select()
      .from(edgeCommands)
      .where(eq(edgeCommands.edgeServerId, ownEdge.id));
    expect(commands.map((command) => command.action).sort()).toEqual(['machineLoad', 'runNewEdgeSpeedTest']);
    await t.ctx.db
      .update(edgeCommands)
      .set({ doneAt: new Date(), result: { downloadMbps: 930, uploadMbps: 410 } })
      .where(and(eq(edgeCommands.edgeServerId, ownEdge.id), eq(edgeCommands.action, 'runNewEdgeSpeedTest')));
    const done = await owner.client.post<Results<ActionResult>>(`${base}/getEdgeSpeedTestResults`);
    expect(done.body.results).toMatchObject({
      status: 'done',
      result: { downloadMbps: 930, uploadMbps: 410 },
    });
    expect((await owner.client.post(`${base}/reboot`)).status).toBe(400);
  });

  it("waits for a connected edge server's answer, and says requested when it does not come in time", async () => {
    const base = `/api/edgeServers/${siteEdge.id}/actions`;
    await t.ctx.db.update(edgeServers).set({ lastSeenAt: new Date() }).where(eq(edgeServers.id, siteEdge.id));
    // The agent answers when it next calls in: here 600 ms after the request.
    const answering = (async () => {
      const pending = await eventually(async () => {
        const [row] = await t.ctx.db
          .select()
          .from(edgeCommands)
          .where(and(eq(edgeCommands.edgeServerId, siteEdge.id), eq(edgeCommands.action, 'machineLoad')));
        return row;
      }, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await t.ctx.db
        .update(edgeCommands)
        .set({ doneAt: new Date(), result: { load1: 0.5, cpus: 2 } })
        .where(eq(edgeCommands.id, pending.id));
    })();
    const load = await owner.client.post<Results<ActionResult>>(`${base}/machineLoad`);
    await answering;
    expect(load.status).toBe(200);
    expect(load.body.results).toMatchObject({ status: 'done', result: { load1: 0.5, cpus: 2 } });
    // No answer within EDGE_ACTION_WAIT_SECONDS: the request stays requested, and the page says why.
    const started = Date.now();
    const silent = await owner.client.post<Results<ActionResult>>(`${base}/runNewEdgeSpeedTest`);
    expect(silent.body.results).toMatchObject({ status: 'requested', result: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(EDGE_ACTION_WAIT_SECONDS * 1000);
  }, 30_000);

  it('deletes an edge server with its services, endpoints, commands and queue items', async () => {
    const edge = (
      await owner.client.post<Results<Edge>>(`/api/users/${owner.user.id}/edgeServers`, { name: 'Doomed' })
    ).body.results;
    const service = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${edge.id}/services`, {
        edgeServerId: edge.id,
        name: 'Files',
        typeId: 'FileIngestService',
      })
    ).body.results;
    const point = (
      await owner.client.post<Results<Endpoint>>(`/api/services/${service.id}/endpoints`, {
        name: 'Drop',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/drop' },
      })
    ).body.results;
    const item = await makeQueueItemRow(t.ctx.db, { edgeServerId: edge.id, endpointId: point.id });
    await owner.client.post(`/api/edgeServers/${edge.id}/actions/machineLoad`);

    const trashed = await owner.client.post<Results<{ ok: true }>>(`/api/edgeServers/${edge.id}/trash`);
    expect(trashed.status).toBe(200);
    expect(trashed.body.results).toEqual({ ok: true });
    const { db } = t.ctx;
    expect(await db.select().from(edgeServers).where(eq(edgeServers.id, edge.id))).toEqual([]);
    expect(await db.select().from(services).where(eq(services.id, service.id))).toEqual([]);
    expect(await db.select().from(endpoints).where(eq(endpoints.id, point.id))).toEqual([]);
    expect(await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id))).toEqual([]);
    expect(await db.select().from(edgeCommands).where(eq(edgeCommands.edgeServerId, edge.id))).toEqual([]);
    expect((await owner.client.get(`/api/edgeServers/${edge.id}`)).status).toBe(404);
    expect(await published(CHANNELS.edgeServices(edge.id))).toContain(service.id);
    expect(await published(CHANNELS.endpoints(edge.id))).toContain(point.id);
    expect(await published(CHANNELS.edgeServers('user', owner.user.id))).toContain(edge.id);
  });
});

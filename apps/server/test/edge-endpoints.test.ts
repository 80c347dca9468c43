import { CHANNELS, EDGE_RULE_MESSAGES, OPTION_MESSAGES, SOURCE_ENDPOINT_TYPES } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCommands, edgeServers, endpoints } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { makeQueueItemRow } from '../src/seed/demo-edge.ts';
import { grantAccountAccess } from '../src/seed/factories.ts';
import {
  type EdgeWorld,
  type Endpoint,
  makeEdgeWorld,
  publishedOn,
  signedIn as signedInOn,
  UNKNOWN,
} from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`edge endpoints (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let owner: EdgeWorld['owner'];
  let siteEdge: EdgeWorld['siteEdge'];
  let fileService: EdgeWorld['fileService'];
  let streamService: EdgeWorld['streamService'];
  let endpoint: EdgeWorld['endpoint'];

  const signedIn = (grant: (userId: number) => Promise<void>) => signedInOn(t, grant);

  const published = (channel: string) => publishedOn(t, channel);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, owner, siteEdge, fileService, streamService, endpoint } = await makeEdgeWorld(t));
  });
  afterAll(() => t.close());

  it('answers endpoint types, and the endpoint types a service takes', async () => {
    const type = await w.editor.client.get<
      Results<{ id: string; category: string; options: { name: string }[] }>
    >('/api/endpointTypes/SrtEndpoint');
    expect(type.status).toBe(200);
    expect(type.body.results.category).toBe('stream');
    expect(type.body.results.options.map((option) => option.name)).toContain('autoCapture');
    expect((await w.editor.client.get('/api/endpointTypes/Toaster')).status).toBe(404);
    expect((await t.client().get('/api/endpointTypes/SrtEndpoint')).status).toBe(401);
    const ofService = await owner.client.get<Results<{ id: string; category: string }[]>>(
      `/api/services/${fileService.id}/endpointTypes`,
    );
    expect(ofService.body.results.map((endpointType) => endpointType.id)).toEqual([...SOURCE_ENDPOINT_TYPES]);
    expect(ofService.body.results.every((endpointType) => endpointType.category === 'source')).toBe(true);
  });

  it('creates an endpoint of a type the service takes, with its category and option defaults', async () => {
    expect(endpoint).toMatchObject({
      name: 'New Local folder',
      typeId: 'LocalFolderEndpoint',
      category: 'source',
      serviceId: fileService.id,
      edgeServerId: siteEdge.id,
      accountId: null,
      siteId: null,
      // Its edge server's agent has never called in: nothing measured, so not 'ok'.
      status: 'error',
      online: false,
      pendingSettings: false,
      options: { path: '/media/in', recursive: true, fileMask: '*' },
    });
    expect(await published(CHANNELS.endpoints(siteEdge.id))).toContain(endpoint.id);
    const stream = await owner.client.post<Results<Endpoint>>(`/api/services/${streamService.id}/endpoints`, {
      name: 'New SRT stream',
      typeId: 'SrtEndpoint',
      options: { port: 9001, autoCapture: 'ondemand' },
      serviceId: streamService.id,
      id: 'new-1',
    });
    expect(stream.status).toBe(200);
    expect(stream.body.results).toMatchObject({
      category: 'stream',
      options: { mode: 'listener', port: 9001, latencyMs: 120, autoCapture: 'ondemand' },
    });
  });

  it('refuses a bad endpoint (400): a type the service does not take, wrong options, another service', async () => {
    const path = `/api/services/${fileService.id}/endpoints`;
    const wrongType = await owner.client.post<ErrorBody>(path, { name: 'x', typeId: 'HlsEndpoint' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe(EDGE_RULE_MESSAGES.endpointTypeNotForService('HlsEndpoint'));
    expect((await owner.client.post<ErrorBody>(path, { name: 'x', typeId: 'Toaster' })).status).toBe(400);
    const required = await owner.client.post<ErrorBody>(path, { name: 'x', typeId: 'LocalFolderEndpoint' });
    expect(required.status).toBe(400);
    expect(required.body.error.message).toBe(OPTION_MESSAGES.required('Folder path'));
    const unknown = await owner.client.post<ErrorBody>(path, {
      name: 'x',
      typeId: 'LocalFolderEndpoint',
      options: { path: '/a', colour: 'red' },
    });
    expect(unknown.body.error.message).toBe(OPTION_MESSAGES.unknown('colour'));
    const flag = await owner.client.post<ErrorBody>(path, {
      name: 'x',
      typeId: 'LocalFolderEndpoint',
      options: { path: '/a', recursive: 'sometimes' },
    });
    expect(flag.body.error.message).toBe(OPTION_MESSAGES.notBoolean('Include sub-folders'));
    const moved = await owner.client.post<ErrorBody>(path, {
      name: 'x',
      typeId: 'LocalFolderEndpoint',
      options: { path: '/a' },
      serviceId: streamService.id,
    });
    expect(moved.body.error.message).toBe(EDGE_RULE_MESSAGES.idMismatch);
    expect(
      (await owner.client.post<ErrorBody>(path, { name: '', typeId: 'LocalFolderEndpoint' })).body.error
        .message,
    ).toBe('This field is required');
    const list = await owner.client.get<Collection<Endpoint>>(`/api/services/${fileService.id}/endpoints`);
    expect(list.body.results.map((point) => point.name)).not.toContain('x');
  });

  it("shows an endpoint to its edge server's managers and its account's managers", async () => {
    const assigned = (
      await w.admin.client.post<Results<Endpoint>>(`/api/services/${fileService.id}/endpoints`, {
        name: 'Shown',
        typeId: 'S3Endpoint',
        options: { bucket: 'shown' },
        accountId: w.siblingAccount.id,
      })
    ).body.results;
    for (const reader of [owner, w.siteManager, w.admin])
      expect((await reader.client.get(`/api/endpoints/${assigned.id}`)).status).toBe(200);
    const manager = await signedIn((id) =>
      grantAccountAccess(t.ctx.db, id, w.siblingAccount.id, 'Account Manager'),
    );
    expect((await manager.client.get(`/api/endpoints/${assigned.id}`)).status).toBe(200);
    expect((await w.accountManager.client.get(`/api/endpoints/${assigned.id}`)).status).toBe(403);
    // Reading is not managing.
    expect((await manager.client.post(`/api/endpoints/${assigned.id}`, { name: 'Mine' })).status).toBe(403);

    const ofService = await owner.client.get<Collection<Endpoint>>(
      `/api/services/${fileService.id}/endpoints`,
    );
    expect(ofService.status).toBe(200);
    expect(ofService.body.channel).toBe(`edgeServers/${siteEdge.id}/endpoints`);
    expect(ofService.body.results.every((point) => point.serviceId === fileService.id)).toBe(true);
    const ofEdge = await owner.client.get<Collection<Endpoint>>(`/api/edgeServers/${siteEdge.id}/endpoints`);
    expect(ofEdge.body.channel).toBe(`edgeServers/${siteEdge.id}/endpoints`);
    const serviceIds = new Set(ofEdge.body.results.map((point) => point.serviceId));
    expect(serviceIds.has(fileService.id) && serviceIds.has(streamService.id)).toBe(true);
    expect(ofEdge.body.results.every((point) => point.edgeServerId === siteEdge.id)).toBe(true);
  });

  it('saves an endpoint with the Online switch and pendingSettings set to its online value, or renames it', async () => {
    const path = `/api/endpoints/${endpoint.id}`;
    await t.ctx.db.update(endpoints).set({ online: true }).where(eq(endpoints.id, endpoint.id));
    const saved = await owner.client.post<Results<Endpoint>>(path, {
      id: endpoint.id,
      name: 'Ingest folder',
      typeId: 'LocalFolderEndpoint',
      serviceId: fileService.id,
      accountId: null,
      siteId: null,
      arrivalsFolderId: null,
      workflowId: null,
      options: { path: '/media/ingest', recursive: false },
      online: false,
      pendingSettings: false,
    });
    expect(saved.status).toBe(200);
    // Switched off: nothing to wait for.
    expect(saved.body.results).toMatchObject({
      name: 'Ingest folder',
      online: false,
      pendingSettings: false,
      options: { path: '/media/ingest', recursive: false, fileMask: '*' },
    });
    // Switched on: pending until the agent reports it online.
    const on = await owner.client.post<Results<Endpoint>>(path, {
      id: endpoint.id,
      name: 'Ingest folder',
      online: true,
    });
    expect(on.body.results).toMatchObject({ online: true, pendingSettings: true });
    await t.ctx.db.update(endpoints).set({ online: false }).where(eq(endpoints.id, endpoint.id));
    const renamed = await owner.client.post<Results<Endpoint>>(path, { name: 'Ingest' });
    expect(renamed.body.results).toMatchObject({
      name: 'Ingest',
      pendingSettings: false,
      options: { path: '/media/ingest', recursive: false },
    });
    expect(await published(CHANNELS.endpoints(siteEdge.id))).toContain(endpoint.id);

    expect((await owner.client.post<ErrorBody>(path, { name: 'n'.repeat(101) })).body.error.message).toBe(
      'Name too long',
    );
    expect((await owner.client.post<ErrorBody>(path, { id: UNKNOWN, name: 'x' })).body.error.message).toBe(
      EDGE_RULE_MESSAGES.idMismatch,
    );
    expect(
      (await owner.client.post<ErrorBody>(path, { name: 'x', serviceId: streamService.id })).body.error
        .message,
    ).toBe(EDGE_RULE_MESSAGES.endpointMoved);
    expect(
      (await owner.client.post<ErrorBody>(path, { name: 'x', typeId: 'SrtEndpoint' })).body.error.message,
    ).toBe(EDGE_RULE_MESSAGES.endpointTypeNotForService('SrtEndpoint'));
    // A new type starts from its own options: the S3 bucket is required.
    expect(
      (await owner.client.post<ErrorBody>(path, { name: 'x', typeId: 'S3Endpoint' })).body.error.message,
    ).toBe(OPTION_MESSAGES.required('Bucket'));
    expect((await owner.client.get<Results<Endpoint>>(path)).body.results.name).toBe('Ingest');
  });

  it('disables, enables and resets an endpoint, telling the agent', async () => {
    const base = `/api/endpoints/${endpoint.id}/actions`;
    // An agent that calls in and has reported the endpoint, so its status is what the actions set.
    await t.ctx.db.update(edgeServers).set({ lastSeenAt: new Date() }).where(eq(edgeServers.id, siteEdge.id));
    await t.ctx.db
      .update(endpoints)
      .set({ statusReportedAt: new Date() })
      .where(eq(endpoints.id, endpoint.id));
    const disabled = await owner.client.post<Results<Endpoint>>(`${base}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.results.status).toBe('disabled');
    const reset = await owner.client.post<Results<Endpoint>>(`${base}/reset`);
    expect(reset.body.results).toMatchObject({ status: 'disabled', bad: false });
    const enabled = await w.siteManager.client.post<Results<Endpoint>>(`${base}/enable`);
    expect(enabled.body.results.status).toBe('ok');
    await t.ctx.db.update(endpoints).set({ status: 'error', bad: true }).where(eq(endpoints.id, endpoint.id));
    const cleared = await owner.client.post<Results<Endpoint>>(`${base}/reset`);
    expect(cleared.body.results).toMatchObject({ status: 'ok', bad: false });
    const commands = await t.ctx.db
      .select()
      .from(edgeCommands)
      .where(and(eq(edgeCommands.edgeServerId, siteEdge.id), eq(edgeCommands.targetId, endpoint.id)));
    expect(
      commands
        .sort((a, b) => a.id - b.id)
        .map((command) => command.action)
        .filter((action) => action.startsWith('endpoint:')),
    ).toEqual(['endpoint:disable', 'endpoint:reset', 'endpoint:enable', 'endpoint:reset']);
    expect((await owner.client.post(`${base}/explode`)).status).toBe(400);
  });

  it('deletes an endpoint', async () => {
    const point = (
      await owner.client.post<Results<Endpoint>>(`/api/services/${fileService.id}/endpoints`, {
        name: 'Short-lived',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/tmp' },
      })
    ).body.results;
    const item = await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: point.id });
    const trashed = await owner.client.post<Results<{ ok: true }>>(`/api/endpoints/${point.id}/trash`);
    expect(trashed.status).toBe(200);
    expect((await owner.client.get(`/api/endpoints/${point.id}`)).status).toBe(404);
    // The queue item stays, without its endpoint.
    const [kept] = await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, item.id));
    expect(kept?.endpointId).toBeNull();
  });
});

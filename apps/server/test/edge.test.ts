import {
  CHANNELS,
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  EDGE_MESSAGES,
  EDGE_RULE_MESSAGES,
  EDGE_SERVER_TYPES,
  MSG_QUERY_DATA_NOT_JSON,
  OPTION_MESSAGES,
  SOURCE_ENDPOINT_TYPES,
} from '@media/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeCommands, edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { liveChanges } from '../src/modules/events/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { workflows } from '../src/modules/organisation/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { makeArrivalsFolderRow, makeQueueItemRow } from '../src/seed/demo-edge.ts';
import { grantAccountAccess, grantManagerOf, makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';

type Edge = {
  id: number;
  userId: number;
  userName: string;
  siteId: number | null;
  siteName: string | null;
  name: string;
  type: string;
  advancedOptions: typeof DEFAULT_EDGE_ADVANCED_OPTIONS;
  connected: boolean;
  lastSeen: string | null;
  supportConnection: boolean;
  serviceCount: number;
};
type Service = {
  id: number;
  name: string;
  edgeServerId: number;
  typeId: string;
  serviceGroupId: number;
  options: Record<string, { value: string }>;
  endpointCount: number;
};
type Endpoint = {
  id: number;
  name: string;
  typeId: string;
  category: string;
  accountId: number | null;
  siteId: number | null;
  serviceId: number;
  edgeServerId: number;
  arrivalsFolderId: number | null;
  workflowId: number | null;
  options: Record<string, string | number | boolean>;
  online: boolean;
  status: string;
  bad: boolean;
  pendingSettings: boolean;
  queueItemId: number | null;
};
type ActionResult = { action: string; requestedAt: string; status: string; result: unknown };

const UNKNOWN = 999_999;

describe(`edge servers, services and endpoints (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  /** A plain user who owns edge servers. */
  let owner: { user: { id: number }; client: TestClient };
  /** A site manager of another site. */
  let otherManager: { user: { id: number }; client: TestClient };
  /** The owner's edge at w.site (made by an administrator) and one of their own, without a site. */
  let siteEdge: Edge;
  let ownEdge: Edge;
  let fileService: Service;
  let streamService: Service;
  let endpoint: Endpoint;

  const signedIn = async (grant: (userId: number) => Promise<void>) => {
    const user = await makeUser(t.ctx.db);
    await grant(user.id);
    return { user, client: await t.client().signIn(user.username, user.password as string) };
  };

  const published = async (channel: string) =>
    (await t.ctx.db.select().from(liveChanges).where(eq(liveChanges.channel, channel))).flatMap(
      (row) => row.modified,
    );

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    owner = await signedIn(async () => {});
    otherManager = await signedIn((id) => grantManagerOf(t.ctx.db, id, 'site', w.otherSite.id));
    const created = await w.admin.client.post<Results<Edge & { agentToken: string }>>(
      `/api/users/${owner.user.id}/edgeServers`,
      { name: 'Paris ingest', siteId: w.site.id },
    );
    expect(created.status).toBe(200);
    siteEdge = created.body.results;
    const own = await owner.client.post<Results<Edge>>(`/api/users/${owner.user.id}/edgeServers`, {
      name: 'Basement box',
    });
    ownEdge = own.body.results;
    fileService = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
        edgeServerId: siteEdge.id,
        name: 'Watch folders',
        typeId: 'FileIngestService',
        options: {},
      })
    ).body.results;
    streamService = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
        edgeServerId: siteEdge.id,
        name: 'Live',
        typeId: 'StreamIngestService',
      })
    ).body.results;
    endpoint = (
      await owner.client.post<Results<Endpoint>>(`/api/services/${fileService.id}/endpoints`, {
        name: 'New Local folder',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/media/in' },
      })
    ).body.results;
  });
  afterAll(() => t.close());

  // ---- every route: 401 signed out, 403 for outsiders and other sites' managers, 404 unknown ids ----

  type Route = { method: 'GET' | 'POST'; path: (id: number) => string; body?: (id: number) => unknown };
  const edgeRoutes = (): Route[] => [
    { method: 'GET', path: (id) => `/api/edgeServers/${id}` },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}`, body: (id) => ({ id, name: 'x' }) },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}/supportConnection` },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}/actions/machineLoad` },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}/actions/runNewEdgeSpeedTest` },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}/actions/getEdgeSpeedTestResults` },
    { method: 'GET', path: (id) => `/api/edgeServers/${id}/services` },
    { method: 'GET', path: (id) => `/api/edgeServers/${id}/serviceTypes` },
    { method: 'GET', path: (id) => `/api/edgeServers/${id}/serviceTemplates` },
    { method: 'GET', path: (id) => `/api/edgeServers/${id}/endpoints` },
    {
      method: 'POST',
      path: (id) => `/api/edgeServers/${id}/services`,
      body: (id) => ({ edgeServerId: id, name: 'S', typeId: 'FileIngestService' }),
    },
    { method: 'POST', path: (id) => `/api/edgeServers/${id}/trash` },
  ];
  const serviceRoutes = (): Route[] => [
    { method: 'GET', path: (id) => `/api/services/${id}` },
    { method: 'POST', path: (id) => `/api/services/${id}`, body: () => ({ name: 'x' }) },
    { method: 'POST', path: (id) => `/api/services/${id}/actions/restart` },
    { method: 'GET', path: (id) => `/api/services/${id}/queries/summary?data=%7B%7D` },
    { method: 'GET', path: (id) => `/api/services/${id}/endpointTypes` },
    { method: 'GET', path: (id) => `/api/services/${id}/endpoints` },
    {
      method: 'POST',
      path: (id) => `/api/services/${id}/endpoints`,
      body: () => ({ name: 'E', typeId: 'LocalFolderEndpoint', options: { path: '/x' } }),
    },
    { method: 'POST', path: (id) => `/api/services/${id}/trash` },
  ];
  const endpointRoutes = (): Route[] => [
    { method: 'GET', path: (id) => `/api/endpoints/${id}` },
    { method: 'POST', path: (id) => `/api/endpoints/${id}`, body: () => ({ name: 'x' }) },
    { method: 'POST', path: (id) => `/api/endpoints/${id}/actions/disable` },
    { method: 'POST', path: (id) => `/api/endpoints/${id}/trash` },
  ];
  const call = (client: TestClient, route: Route, id: number) =>
    route.method === 'GET'
      ? client.get<ErrorBody>(route.path(id))
      : client.post<ErrorBody>(route.path(id), route.body?.(id) ?? {});

  it('answers 401, 403 and 404 on every route of an edge server, its services and endpoints', async () => {
    const groups: [Route[], () => number][] = [
      [edgeRoutes(), () => siteEdge.id],
      [serviceRoutes(), () => fileService.id],
      [endpointRoutes(), () => endpoint.id],
    ];
    for (const [routes, id] of groups)
      for (const route of routes) {
        const label = `${route.method} ${route.path(id())}`;
        expect((await call(t.client(), route, id())).status, label).toBe(401);
        expect((await call(w.outsider.client, route, id())).status, label).toBe(403);
        expect((await call(otherManager.client, route, id())).status, label).toBe(403);
        expect((await call(w.editor.client, route, id())).status, label).toBe(403);
        const unknown = await call(w.admin.client, route, UNKNOWN);
        expect(unknown.status, label).toBe(404);
        expect(unknown.body.error.code).toBe('not_found');
      }
    // Nothing changed on the way.
    const [edge] = await t.ctx.db.select().from(edgeServers).where(eq(edgeServers.id, siteEdge.id));
    expect(edge?.name).toBe('Paris ingest');
  });

  it('documents every edge route in the OpenAPI document', async () => {
    const doc = await t.client().get<{ paths: Record<string, unknown> }>('/api/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/edgeServers',
        '/api/sites/{id}/edgeServers',
        '/api/users/{id}/edgeServers',
        '/api/edgeServerTypes',
        '/api/edgeServers/{id}/actions/{action}',
        '/api/edgeServers/{id}/supportConnection',
        '/api/services/{id}/queries/{query}',
        '/api/accounts/{id}/endpoints',
        '/api/arrivalsFolders/{id}/endpoints',
        '/api/endpoints/{id}/actions/{action}',
      ]),
    );
  });

  // ---- edge servers -------------------------------------------------------------------------------

  it('creates an edge server with a one-time agent token, storing only its SHA-256', async () => {
    const created = await owner.client.post<Results<Edge & { agentToken: string }>>(
      `/api/users/${owner.user.id}/edgeServers`,
      { name: '  Garage relay ', type: 'relay', id: 'tmp-1' },
    );
    expect(created.status).toBe(200);
    const edge = created.body.results;
    expect(edge).toMatchObject({
      name: 'Garage relay',
      type: 'relay',
      userId: owner.user.id,
      siteId: null,
      connected: false,
      lastSeen: null,
      supportConnection: false,
      serviceCount: 0,
      advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
    });
    expect(edge.agentToken.length).toBeGreaterThanOrEqual(40);
    const [row] = await t.ctx.db.select().from(edgeServers).where(eq(edgeServers.id, edge.id));
    expect(row?.agentTokenHash).toBe(sha256(edge.agentToken));
    expect(row?.agentTokenHash).not.toContain(edge.agentToken);
    const again = await owner.client.get<Results<Record<string, unknown>>>(`/api/edgeServers/${edge.id}`);
    expect(again.body.results.agentToken).toBeUndefined();
    expect(await published(CHANNELS.edgeServers('user', owner.user.id))).toContain(edge.id);
    expect(await published(CHANNELS.edgeServers('cloud'))).toContain(edge.id);
  });

  it('creates edge servers only for yourself unless administrator, and at a site only as its manager', async () => {
    const path = `/api/users/${owner.user.id}/edgeServers`;
    expect((await w.outsider.client.post(path, { name: 'Theirs' })).status).toBe(403);
    expect((await w.siteManager.client.post(path, { name: 'Theirs' })).status).toBe(403);
    expect((await owner.client.post(path, { name: 'At a site', siteId: w.site.id })).status).toBe(403);
    expect((await otherManager.client.post(path, { name: 'x' })).status).toBe(403);
    const mine = await w.siteManager.client.post<Results<Edge>>(
      `/api/users/${w.siteManager.user.id}/edgeServers`,
      { name: 'Managed', siteId: w.site.id },
    );
    expect(mine.status).toBe(200);
    expect(mine.body.results.siteName).toBe(w.site.name);
    expect(await published(CHANNELS.edgeServers('site', w.site.id))).toContain(mine.body.results.id);
    expect((await w.admin.client.post(`/api/users/${UNKNOWN}/edgeServers`, { name: 'x' })).status).toBe(404);
    expect((await w.admin.client.post(path, { name: 'x', siteId: UNKNOWN })).status).toBe(404);
    expect((await t.client().post(path, { name: 'x' })).status).toBe(401);
  });

  it('refuses a bad new edge server (400) with the spec messages', async () => {
    const path = `/api/users/${owner.user.id}/edgeServers`;
    const long = await owner.client.post<ErrorBody>(path, { name: 'x'.repeat(61) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe(EDGE_MESSAGES.nameTooLong);
    expect(long.body.error.fields).toEqual({ name: 'Name too long' });
    const empty = await owner.client.post<ErrorBody>(path, { name: '  ' });
    expect(empty.body.error.message).toBe('This field is required');
    const missing = await owner.client.post<ErrorBody>(path, {});
    expect(missing.body.error.message).toBe('This field is required');
    const type = await owner.client.post<ErrorBody>(path, { name: 'x', type: 'toaster' });
    expect(type.status).toBe(400);
    expect(type.body.error.message).toBe(EDGE_RULE_MESSAGES.unknownEdgeType('toaster'));
    expect((await owner.client.post(path, { name: 'x', colour: 'red' })).status).toBe(400);
    expect((await owner.client.post(path, { name: 'x', advancedOptions: { logLevel: 'loud' } })).status).toBe(
      400,
    );
    expect((await owner.client.post(path, { name: 'x'.repeat(60) })).status).toBe(200);
  });

  it("lists a user's edge servers by name, of a type (server by default), paged, with the user's channel", async () => {
    const path = `/api/users/${owner.user.id}/edgeServers`;
    const list = await owner.client.get<Collection<Edge>>(path);
    expect(list.status).toBe(200);
    const names = list.body.results.map((edge) => edge.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(names).toEqual(expect.arrayContaining(['Basement box', 'Paris ingest']));
    expect(list.body.results.every((edge) => edge.type === 'server')).toBe(true);
    expect(list.body.channel).toBe(`users/${owner.user.id}/EdgeServers`);
    const relays = await owner.client.get<Collection<Edge>>(`${path}?type=relay`);
    expect(relays.body.results.every((edge) => edge.type === 'relay')).toBe(true);
    const page = await owner.client.get<Collection<Edge>>(`${path}?limit=1&offset=1`);
    expect(page.body.results).toHaveLength(1);
    expect(page.body.total).toBe(list.body.total);
    expect(page.body.results[0]?.name).toBe(names[1]);
    const search = await owner.client.get<Collection<Edge>>(`${path}?searchText=BASEMENT`);
    expect(search.body.results.map((edge) => edge.name)).toEqual(['Basement box']);
    expect((await w.admin.client.get(path)).status).toBe(200);
    expect((await w.outsider.client.get(path)).status).toBe(403);
    expect((await w.siteManager.client.get(path)).status).toBe(403);
    expect((await w.admin.client.get(`/api/users/${UNKNOWN}/edgeServers`)).status).toBe(404);
    expect((await t.client().get(path)).status).toBe(401);
    expect((await owner.client.get(`${path}?limit=0`)).status).toBe(400);
  });

  it("lists a site's edge servers for its managers and the cloud's for administrators", async () => {
    const sitePath = `/api/sites/${w.site.id}/edgeServers`;
    for (const manager of [w.siteManager, w.siteGroupManager, w.resellerManager, w.admin]) {
      const list = await manager.client.get<Collection<Edge>>(sitePath);
      expect(list.status).toBe(200);
      expect(list.body.results.map((edge) => edge.id)).toContain(siteEdge.id);
      expect(list.body.results.every((edge) => edge.siteId === w.site.id)).toBe(true);
      expect(list.body.channel).toBe(`sites/${w.site.id}/EdgeServers`);
    }
    expect((await otherManager.client.get(sitePath)).status).toBe(403);
    expect((await owner.client.get(sitePath)).status).toBe(403);
    expect((await w.accountManager.client.get(sitePath)).status).toBe(403);
    expect((await w.admin.client.get(`/api/sites/${UNKNOWN}/edgeServers`)).status).toBe(404);
    expect((await t.client().get(sitePath)).status).toBe(401);

    const cloud = await w.admin.client.get<Collection<Edge>>('/api/edgeServers');
    expect(cloud.status).toBe(200);
    expect(cloud.body.results.map((edge) => edge.id)).toEqual(
      expect.arrayContaining([siteEdge.id, ownEdge.id]),
    );
    expect(cloud.body.channel).toBe('cloud/admin/EdgeServers');
    expect((await w.siteManager.client.get('/api/edgeServers')).status).toBe(403);
    expect((await owner.client.get('/api/edgeServers')).status).toBe(403);
    expect((await t.client().get('/api/edgeServers')).status).toBe(401);
  });

  it('shows one edge server to its owner, administrators and its site managers; connected within the last minute', async () => {
    for (const reader of [owner, w.admin, w.siteManager]) {
      const edge = await reader.client.get<Results<Edge>>(`/api/edgeServers/${siteEdge.id}`);
      expect(edge.status).toBe(200);
      expect(edge.body.results).toMatchObject({ id: siteEdge.id, siteId: w.site.id, connected: false });
    }
    expect((await w.siteManager.client.get(`/api/edgeServers/${ownEdge.id}`)).status).toBe(403);
    await t.ctx.db.update(edgeServers).set({ lastSeenAt: new Date() }).where(eq(edgeServers.id, ownEdge.id));
    const seen = await owner.client.get<Results<Edge>>(`/api/edgeServers/${ownEdge.id}`);
    expect(seen.body.results.connected).toBe(true);
    expect(seen.body.results.lastSeen).not.toBeNull();
    await t.ctx.db
      .update(edgeServers)
      .set({ lastSeenAt: new Date(Date.now() - 61_000) })
      .where(eq(edgeServers.id, ownEdge.id));
    expect(
      (await owner.client.get<Results<Edge>>(`/api/edgeServers/${ownEdge.id}`)).body.results.connected,
    ).toBe(false);
    const list = await owner.client.get<Collection<Edge>>(`/api/users/${owner.user.id}/edgeServers`);
    expect(list.body.results.find((edge) => edge.id === siteEdge.id)?.serviceCount).toBeGreaterThanOrEqual(2);
  });

  it('answers the edge server types to any signed-in user', async () => {
    const types = await w.editor.client.get<Results<{ id: string }[]>>('/api/edgeServerTypes');
    expect(types.status).toBe(200);
    expect(types.body.results.map((type) => type.id)).toEqual(EDGE_SERVER_TYPES.map((type) => type.id));
    expect((await t.client().get('/api/edgeServerTypes')).status).toBe(401);
  });

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
    const advancedOptions = { logLevel: 'debug', maxConcurrentIngests: 4, uploadLimitMbps: 100 };
    const saved = await owner.client.post<Results<Edge>>(path, {
      id: ownEdge.id,
      name: 'Cellar box',
      type: 'server',
      advancedOptions,
      supportConnection: false,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.results.advancedOptions).toEqual(advancedOptions);
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

  // ---- services -----------------------------------------------------------------------------------

  it('answers the service types and templates an edge server can run', async () => {
    const types = await owner.client.get<Results<{ id: string; endpointTypeIds: string[] }[]>>(
      `/api/edgeServers/${siteEdge.id}/serviceTypes`,
    );
    expect(types.status).toBe(200);
    expect(types.body.results.map((type) => type.id)).toEqual(['FileIngestService', 'StreamIngestService']);
    const relay = (
      await owner.client.post<Results<Edge>>(`/api/users/${owner.user.id}/edgeServers`, {
        name: 'Relay',
        type: 'relay',
      })
    ).body.results;
    const relayTypes = await owner.client.get<Results<{ id: string }[]>>(
      `/api/edgeServers/${relay.id}/serviceTypes`,
    );
    expect(relayTypes.body.results.map((type) => type.id)).toEqual(['StreamIngestService']);
    const templates = await owner.client.get<Results<{ id: string; isTemplate: boolean; typeId: string }[]>>(
      `/api/edgeServers/${siteEdge.id}/serviceTemplates`,
    );
    expect(templates.status).toBe(200);
    expect(templates.body.results.map((template) => template.id)).toEqual(
      templates.body.results.map((_, index) => `template-${index + 1}`),
    );
    expect(templates.body.results.length).toBeGreaterThan(0);
    expect(templates.body.results.every((template) => template.isTemplate)).toBe(true);
    const relayTemplates = await owner.client.get<Results<{ id: string; typeId: string }[]>>(
      `/api/edgeServers/${relay.id}/serviceTemplates`,
    );
    expect(relayTemplates.body.results[0]?.id).toBe('template-1');
    expect(relayTemplates.body.results.every((template) => template.typeId === 'StreamIngestService')).toBe(
      true,
    );
    // The relay cannot run file services.
    const refused = await owner.client.post<ErrorBody>(`/api/edgeServers/${relay.id}/services`, {
      edgeServerId: relay.id,
      name: 'Files',
      typeId: 'FileIngestService',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceTypeNotForEdge('FileIngestService'));

    const one = await w.editor.client.get<Results<{ id: string }>>('/api/serviceTypes/StreamIngestService');
    expect(one.status).toBe(200);
    expect(one.body.results.id).toBe('StreamIngestService');
    expect((await w.editor.client.get('/api/serviceTypes/Toaster')).status).toBe(404);
    expect((await t.client().get('/api/serviceTypes/StreamIngestService')).status).toBe(401);
  });

  it('creates a service in its own group, with the options of its type and their defaults', async () => {
    expect(fileService).toMatchObject({
      edgeServerId: siteEdge.id,
      typeId: 'FileIngestService',
      serviceGroupId: fileService.id,
      endpointCount: 0,
      options: {
        scanIntervalSeconds: { value: '10' },
        settleSeconds: { value: '5' },
        maxConcurrentFiles: { value: '2' },
      },
    });
    expect(await published(CHANNELS.edgeServices(siteEdge.id))).toContain(fileService.id);
    const tuned = await w.siteManager.client.post<Results<Service>>(
      `/api/edgeServers/${siteEdge.id}/services`,
      {
        edgeServerId: siteEdge.id,
        name: 'Buckets',
        typeId: 'FileIngestService',
        options: { scanIntervalSeconds: { value: '60' } },
        id: 'tmp-3',
      },
    );
    expect(tuned.status).toBe(200);
    expect(tuned.body.results.options.scanIntervalSeconds).toEqual({ value: '60' });
  });

  it('refuses a bad service (400): unknown type, unknown or wrong options, another edge, empty name', async () => {
    const path = `/api/edgeServers/${siteEdge.id}/services`;
    const base = { edgeServerId: siteEdge.id, name: 'S', typeId: 'FileIngestService' };
    const type = await owner.client.post<ErrorBody>(path, { ...base, typeId: 'Toaster' });
    expect(type.status).toBe(400);
    expect(type.body.error.message).toBe(EDGE_RULE_MESSAGES.unknownServiceType('Toaster'));
    const unknown = await owner.client.post<ErrorBody>(path, {
      ...base,
      options: { colour: { value: 'red' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(OPTION_MESSAGES.unknown('colour'));
    expect(unknown.body.error.fields).toEqual({ 'options.colour': OPTION_MESSAGES.unknown('colour') });
    const number = await owner.client.post<ErrorBody>(path, {
      ...base,
      options: { scanIntervalSeconds: { value: 'often' } },
    });
    expect(number.body.error.message).toBe(OPTION_MESSAGES.notNumber('Scan interval (s)'));
    const other = await owner.client.post<ErrorBody>(path, { ...base, edgeServerId: ownEdge.id });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toBe(EDGE_RULE_MESSAGES.idMismatch);
    const empty = await owner.client.post<ErrorBody>(path, { ...base, name: ' ' });
    expect(empty.body.error.message).toBe('This field is required');
    expect((await owner.client.post(path, { ...base, options: { x: 'bare' } })).status).toBe(400);
    const services = await owner.client.get<Collection<Service>>(path);
    expect(services.body.results.map((service) => service.name)).not.toContain('S');
  });

  it('joins the fail-over group of a service the user may manage, of the same type', async () => {
    const path = `/api/edgeServers/${ownEdge.id}/services`;
    const paired = await owner.client.post<Results<Service>>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby',
      typeId: 'FileIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(paired.status).toBe(200);
    expect(paired.body.results.serviceGroupId).toBe(fileService.serviceGroupId);
    const wrongType = await owner.client.post<ErrorBody>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby live',
      typeId: 'StreamIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceGroupType);
    const unknown = await owner.client.post<ErrorBody>(path, {
      edgeServerId: ownEdge.id,
      name: 'Standby',
      typeId: 'FileIngestService',
      serviceGroupId: UNKNOWN,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(EDGE_RULE_MESSAGES.unknownServiceGroup);
    // Someone else's group is not theirs to join.
    const outsiderEdge = (
      await w.outsider.client.post<Results<Edge>>(`/api/users/${w.outsider.user.id}/edgeServers`, {
        name: 'Outsider box',
      })
    ).body.results;
    const foreign = await w.outsider.client.post<ErrorBody>(`/api/edgeServers/${outsiderEdge.id}/services`, {
      edgeServerId: outsiderEdge.id,
      name: 'Sneaky',
      typeId: 'FileIngestService',
      serviceGroupId: fileService.serviceGroupId,
    });
    expect(foreign.status).toBe(403);
  });

  it('lists, reads, renames and saves services', async () => {
    const list = await owner.client.get<Collection<Service>>(`/api/edgeServers/${siteEdge.id}/services`);
    expect(list.status).toBe(200);
    expect(list.body.channel).toBe(`edgeServers/${siteEdge.id}/EdgeServices`);
    const names = list.body.results.map((service) => service.name);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const one = await w.siteManager.client.get<Results<Service>>(`/api/services/${streamService.id}`);
    expect(one.body.results).toMatchObject({ id: streamService.id, typeId: 'StreamIngestService' });

    const renamed = await owner.client.post<Results<Service>>(`/api/services/${streamService.id}`, {
      name: 'Live 1',
    });
    expect(renamed.body.results.name).toBe('Live 1');
    expect(renamed.body.results.options).toEqual(streamService.options);
    const saved = await owner.client.post<Results<Service>>(`/api/services/${streamService.id}`, {
      id: streamService.id,
      edgeServerId: siteEdge.id,
      name: 'Live 1',
      typeId: 'StreamIngestService',
      options: { recordingFormat: { value: 'mxf' } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.results.options.recordingFormat).toEqual({ value: 'mxf' });
    expect(saved.body.results.options.segmentSeconds).toEqual({ value: '6' });

    const path = `/api/services/${streamService.id}`;
    const choice = await owner.client.post<ErrorBody>(path, {
      name: 'x',
      options: { recordingFormat: { value: 'avi' } },
    });
    expect(choice.status).toBe(400);
    expect(choice.body.error.message).toBe(
      OPTION_MESSAGES.notChoice('Recording format', ['mp4', 'mxf', 'ts']),
    );
    expect(
      (await owner.client.post<ErrorBody>(path, { id: fileService.id, name: 'x' })).body.error.message,
    ).toBe(EDGE_RULE_MESSAGES.idMismatch);
    expect(
      (await owner.client.post<ErrorBody>(path, { name: 'x', edgeServerId: ownEdge.id })).body.error.message,
    ).toBe(EDGE_RULE_MESSAGES.serviceMoved);
    expect((await owner.client.post<ErrorBody>(path, { name: '' })).body.error.message).toBe(
      'This field is required',
    );
    expect((await owner.client.post<ErrorBody>(path, { name: 'n'.repeat(101) })).body.error.message).toBe(
      'Name too long',
    );
    // A type change must keep the service's endpoints allowed.
    const stranded = await owner.client.post<ErrorBody>(`/api/services/${fileService.id}`, {
      name: fileService.name,
      typeId: 'StreamIngestService',
    });
    expect(stranded.status).toBe(400);
    expect(stranded.body.error.message).toBe(EDGE_RULE_MESSAGES.serviceTypeInUse('LocalFolderEndpoint'));
    expect((await owner.client.get<Results<Service>>(path)).body.results.name).toBe('Live 1');
  });

  it('asks the agent to restart a service or rescan it', async () => {
    for (const action of ['restart', 'rescan']) {
      const answer = await owner.client.post<Results<ActionResult>>(
        `/api/services/${fileService.id}/actions/${action}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.results).toMatchObject({
        action: `service:${action}`,
        status: 'requested',
        result: null,
      });
    }
    const commands = await t.ctx.db
      .select()
      .from(edgeCommands)
      .where(and(eq(edgeCommands.edgeServerId, siteEdge.id), eq(edgeCommands.targetId, fileService.id)));
    expect(commands.map((command) => command.action).sort()).toEqual(['service:rescan', 'service:restart']);
    expect((await owner.client.post(`/api/services/${fileService.id}/actions/explode`)).status).toBe(400);
  });

  it('answers the summary query of a service; data must be JSON', async () => {
    const service = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
        edgeServerId: siteEdge.id,
        name: 'Counted',
        typeId: 'FileIngestService',
      })
    ).body.results;
    const add = async (name: string, extra: Record<string, unknown> = {}) =>
      (
        await w.admin.client.post<Results<Endpoint>>(`/api/services/${service.id}/endpoints`, {
          name,
          typeId: 'S3Endpoint',
          options: { bucket: 'b' },
          ...extra,
        })
      ).body.results;
    const a = await add('A', { accountId: w.account.id });
    const b = await add('B');
    await add('C');
    await t.ctx.db
      .update(endpoints)
      .set({ online: true })
      .where(inArray(endpoints.id, [a.id, b.id]));
    await w.admin.client.post(`/api/endpoints/${b.id}/actions/disable`);
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: a.id, status: 'queued' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'queued' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'ingesting' });
    await makeQueueItemRow(t.ctx.db, { edgeServerId: siteEdge.id, endpointId: b.id, status: 'ingested' });

    const path = `/api/services/${service.id}/queries/summary`;
    const all = await owner.client.get<Results<Record<string, number>>>(
      `${path}?data=${encodeURIComponent('{}')}`,
    );
    expect(all.status).toBe(200);
    expect(all.body.results).toEqual({
      serviceId: service.id,
      endpointCount: 3,
      onlineCount: 2,
      disabledCount: 1,
      queuedCount: 2,
      ingestingCount: 1,
    });
    const ofAccount = await owner.client.get<Results<Record<string, number>>>(
      `${path}?data=${encodeURIComponent(JSON.stringify({ accountId: w.account.id }))}`,
    );
    expect(ofAccount.body.results).toMatchObject({ endpointCount: 1, queuedCount: 1, ingestingCount: 0 });
    expect((await owner.client.get(path)).status).toBe(200);
    const bad = await owner.client.get<ErrorBody>(`${path}?data=${encodeURIComponent('{nope')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(MSG_QUERY_DATA_NOT_JSON);
    expect((await owner.client.get(`${path}?data=${encodeURIComponent('{"colour":1}')}`)).status).toBe(400);
    expect((await owner.client.get(`/api/services/${service.id}/queries/everything`)).status).toBe(400);
    // The endpoint being ingested names its queue item.
    const busy = await owner.client.get<Results<Endpoint>>(`/api/endpoints/${b.id}`);
    expect(busy.body.results.queueItemId).not.toBeNull();
  });

  it('deletes a service with its endpoints', async () => {
    const service = (
      await owner.client.post<Results<Service>>(`/api/edgeServers/${ownEdge.id}/services`, {
        edgeServerId: ownEdge.id,
        name: 'Temporary',
        typeId: 'StreamIngestService',
      })
    ).body.results;
    const point = (
      await owner.client.post<Results<Endpoint>>(`/api/services/${service.id}/endpoints`, {
        name: 'Bars',
        typeId: 'TeststreamEndpoint',
      })
    ).body.results;
    const trashed = await owner.client.post<Results<{ ok: true }>>(`/api/services/${service.id}/trash`);
    expect(trashed.status).toBe(200);
    expect((await owner.client.get(`/api/services/${service.id}`)).status).toBe(404);
    expect(await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, point.id))).toEqual([]);
    expect(await published(CHANNELS.edgeServices(ownEdge.id))).toContain(service.id);
    expect(await published(CHANNELS.endpoints(ownEdge.id))).toContain(point.id);
  });

  // ---- endpoints ----------------------------------------------------------------------------------

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
      status: 'ok',
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

  it("assigns an endpoint to an account the user may use, with that account's arrivals folder and workflow", async () => {
    const { db } = t.ctx;
    const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id });
    const otherFolder = await makeArrivalsFolderRow(db, { accountId: w.otherAccount.id });
    const [workflow] = await db
      .insert(workflows)
      .values({ accountId: w.account.id, name: 'Proxy' })
      .returning();
    const [otherWorkflow] = await db
      .insert(workflows)
      .values({ accountId: w.otherAccount.id, name: 'Other' })
      .returning();
    const path = `/api/services/${fileService.id}/endpoints`;
    const body = { name: 'Assigned', typeId: 'SmbEndpoint', options: { share: '//nas/in' } };

    // The owner has no access to the account.
    expect((await owner.client.post(path, { ...body, accountId: w.account.id })).status).toBe(403);
    expect((await w.admin.client.post(path, { ...body, accountId: UNKNOWN })).status).toBe(404);
    const wrongFolder = await w.siteManager.client.post<ErrorBody>(path, {
      ...body,
      accountId: w.account.id,
      arrivalsFolderId: otherFolder.id,
    });
    expect(wrongFolder.status).toBe(400);
    expect(wrongFolder.body.error.message).toBe(EDGE_RULE_MESSAGES.folderNotOfAccount);
    expect(
      (await w.siteManager.client.post<ErrorBody>(path, { ...body, arrivalsFolderId: folder.id })).status,
    ).toBe(400);
    const wrongWorkflow = await w.siteManager.client.post<ErrorBody>(path, {
      ...body,
      accountId: w.account.id,
      workflowId: otherWorkflow?.id,
    });
    expect(wrongWorkflow.body.error.message).toBe(EDGE_RULE_MESSAGES.workflowNotOfAccount);
    const wrongSite = await w.siteManager.client.post<ErrorBody>(path, {
      ...body,
      accountId: w.account.id,
      siteId: w.otherSite.id,
    });
    expect(wrongSite.body.error.message).toBe(EDGE_RULE_MESSAGES.accountNotInSite);

    const assigned = await w.siteManager.client.post<Results<Endpoint>>(path, {
      ...body,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
      workflowId: workflow?.id,
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.results).toMatchObject({
      accountId: w.account.id,
      siteId: w.site.id,
      arrivalsFolderId: folder.id,
      workflowId: workflow?.id,
    });
    expect(await published(CHANNELS.accountEndpoints(w.account.id))).toContain(assigned.body.results.id);
    expect(await published(CHANNELS.arrivalsFolders(w.account.id))).toContain(folder.id);

    // Another account clears the old account's folder and workflow.
    const moved = await w.admin.client.post<Results<Endpoint>>(`/api/endpoints/${assigned.body.results.id}`, {
      name: 'Assigned',
      accountId: w.siblingAccount.id,
    });
    expect(moved.body.results).toMatchObject({
      accountId: w.siblingAccount.id,
      arrivalsFolderId: null,
      workflowId: null,
    });
  });

  it('lists the endpoints of an account for its managers, and for edge managers those on their edge servers', async () => {
    const { db } = t.ctx;
    const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id });
    const path = `/api/services/${fileService.id}/endpoints`;
    const inAccount = (
      await w.admin.client.post<Results<Endpoint>>(path, {
        name: 'In account',
        typeId: 'S3Endpoint',
        options: { bucket: 'in' },
        accountId: w.account.id,
        arrivalsFolderId: folder.id,
      })
    ).body.results;
    const inSite = (
      await w.admin.client.post<Results<Endpoint>>(path, {
        name: 'In site',
        typeId: 'S3Endpoint',
        options: { bucket: 'site' },
        siteId: w.site.id,
      })
    ).body.results;
    // An endpoint of the account on an edge server the owner does not manage.
    const foreignEdge = (
      await w.admin.client.post<Results<Edge>>(`/api/users/${w.outsider.user.id}/edgeServers`, {
        name: 'Foreign',
      })
    ).body.results;
    const foreignService = (
      await w.admin.client.post<Results<Service>>(`/api/edgeServers/${foreignEdge.id}/services`, {
        edgeServerId: foreignEdge.id,
        name: 'F',
        typeId: 'FileIngestService',
      })
    ).body.results;
    const foreign = (
      await w.admin.client.post<Results<Endpoint>>(`/api/services/${foreignService.id}/endpoints`, {
        name: 'Foreign endpoint',
        typeId: 'S3Endpoint',
        options: { bucket: 'f' },
        accountId: w.account.id,
      })
    ).body.results;

    const accountPath = `/api/accounts/${w.account.id}/endpoints`;
    const managed = await w.accountManager.client.get<Collection<Endpoint>>(accountPath);
    expect(managed.status).toBe(200);
    expect(managed.body.channel).toBe(`accounts/${w.account.id}/endpoints`);
    const ids = managed.body.results.map((point) => point.id);
    expect(ids).toEqual(expect.arrayContaining([inAccount.id, foreign.id]));
    expect(ids).not.toContain(inSite.id);
    const withSite = await w.accountManager.client.get<Collection<Endpoint>>(`${accountPath}?withSite=1`);
    expect(withSite.body.results.map((point) => point.id)).toEqual(
      expect.arrayContaining([inAccount.id, foreign.id, inSite.id]),
    );
    expect(
      withSite.body.results.every((point) => point.accountId === w.account.id || point.accountId === null),
    ).toBe(true);
    // The owner manages their edge server, not the account: they see their own endpoints only.
    const ownerView = await owner.client.get<Collection<Endpoint>>(`${accountPath}?withSite=1`);
    expect(ownerView.status).toBe(200);
    expect(ownerView.body.results.map((point) => point.id)).toEqual(
      expect.arrayContaining([inAccount.id, inSite.id]),
    );
    expect(ownerView.body.results.map((point) => point.id)).not.toContain(foreign.id);
    expect((await w.editor.client.get(accountPath)).status).toBe(403);
    // Edge managers with no endpoint of the account on their edge servers are refused.
    expect((await otherManager.client.get(accountPath)).status).toBe(403);
    const outsiderView = await w.outsider.client.get<Collection<Endpoint>>(accountPath);
    expect(outsiderView.body.results.map((point) => point.id)).toEqual([foreign.id]);
    expect((await w.admin.client.get(`/api/accounts/${UNKNOWN}/endpoints`)).status).toBe(404);
    expect((await t.client().get(accountPath)).status).toBe(401);
    expect((await w.accountManager.client.get(`${accountPath}?withSite=yes`)).status).toBe(400);

    const folderPath = `/api/arrivalsFolders/${folder.id}/endpoints`;
    const inFolder = await w.accountManager.client.get<Collection<Endpoint>>(folderPath);
    expect(inFolder.status).toBe(200);
    expect(inFolder.body.results.map((point) => point.id)).toEqual([inAccount.id]);
    expect(inFolder.body.channel).toBe(`accounts/${w.account.id}/endpoints`);
    expect((await owner.client.get<Collection<Endpoint>>(folderPath)).body.results.map((p) => p.id)).toEqual([
      inAccount.id,
    ]);
    expect((await w.editor.client.get(folderPath)).status).toBe(403);
    expect((await w.outsider.client.get(folderPath)).status).toBe(403);
    expect((await otherManager.client.get(folderPath)).status).toBe(403);
    expect((await w.admin.client.get(`/api/arrivalsFolders/${UNKNOWN}/endpoints`)).status).toBe(404);
    expect((await t.client().get(folderPath)).status).toBe(401);
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

  it('saves an endpoint with pendingSettings set to its online value, or renames it', async () => {
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
    expect(saved.body.results).toMatchObject({
      name: 'Ingest folder',
      online: true,
      pendingSettings: true,
      options: { path: '/media/ingest', recursive: false, fileMask: '*' },
    });
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

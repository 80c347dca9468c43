import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { type EdgeWorld, makeEdgeWorld, UNKNOWN } from './edge-world.ts';
import {
  buildTestApp,
  type ErrorBody,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';

describe(`edge routes: 401, 403, 404 and the OpenAPI document (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let otherManager: EdgeWorld['otherManager'];
  let siteEdge: EdgeWorld['siteEdge'];
  let fileService: EdgeWorld['fileService'];
  let endpoint: EdgeWorld['endpoint'];

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, otherManager, siteEdge, fileService, endpoint } = await makeEdgeWorld(t));
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
    { method: 'GET', path: (id) => `/api/edgeServers/${id}/serviceGroups?typeId=FileIngestService` },
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
        '/api/edgeServers/{id}/serviceGroups',
        '/api/services/{id}/queries/{query}',
        '/api/accounts/{id}/endpoints',
        '/api/arrivalsFolders/{id}/endpoints',
        '/api/endpoints/{id}/actions/{action}',
      ]),
    );
  });
});

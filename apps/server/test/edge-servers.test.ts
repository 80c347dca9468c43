import {
  CHANNELS,
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  EDGE_MESSAGES,
  EDGE_RULE_MESSAGES,
  EDGE_SERVER_TYPES,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { type Edge, type EdgeWorld, makeEdgeWorld, publishedOn, UNKNOWN } from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`edge servers: create, list and show (${testDriver()})`, () => {
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
});

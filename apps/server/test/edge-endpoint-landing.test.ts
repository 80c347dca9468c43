import { type AgentConfiguration, API_VERSIONS, EDGE_RULE_MESSAGES } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { nodes } from '../src/modules/nodes/tables.ts';
import { makeArrivalsFolderRow, makeEndpointRow, makeQueueItemRow } from '../src/seed/demo-edge.ts';
import { grantAccountAccess } from '../src/seed/factories.ts';
import {
  type Edge,
  type EdgeWorld,
  type Endpoint,
  makeEdgeWorld,
  type Service,
  signedIn,
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

/**
 * Issue 30, 'A viewer puts media into the account': who may aim an edge endpoint at an account and its
 * arrivals folder, and where an edge server may land media (edgeLandingRule).
 */
describe(`edge endpoints: where media may land (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let owner: EdgeWorld['owner'];
  let fileService: EdgeWorld['fileService'];
  let siteEdge: EdgeWorld['siteEdge'];

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, owner, fileService, siteEdge } = await makeEdgeWorld(t));
  });
  afterAll(() => t.close());

  const ownEdgeOf = async (user: { user: { id: number }; client: EdgeWorld['owner']['client'] }) => {
    const edge = await user.client.post<Results<Edge & { agentToken: string }>>(
      `/api/users/${user.user.id}/edgeServers`,
      { name: `Own edge ${user.user.id}` },
    );
    expect(edge.status).toBe(200);
    const service = await user.client.post<Results<Service>>(
      `/api/edgeServers/${edge.body.results.id}/services`,
      { edgeServerId: edge.body.results.id, name: 'Files', typeId: 'FileIngestService' },
    );
    expect(service.status).toBe(200);
    return { ...edge.body.results, serviceId: service.body.results.id };
  };

  /** A call of the edge agent with its token. */
  const agent = <T>(token: string, url: string, body: unknown) =>
    t.client().post<T>(url, body, {
      headers: { authorization: `Bearer ${token}`, 'x-api-version': API_VERSIONS.ingest },
    });

  const nodesNamed = (accountId: number, name: string) =>
    t.ctx.db
      .select()
      .from(nodes)
      .where(and(eq(nodes.accountId, accountId), eq(nodes.name, name)));

  it("refuses a viewer's own edge server an account's arrivals folder, on create and on save, and lands nothing through the account alone (issue 30)", async () => {
    const folder = await makeArrivalsFolderRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'Incoming rushes',
    });
    const viewer = await signedIn(t, (id) => grantAccountAccess(t.ctx.db, id, w.account.id, 'Viewer'));
    const own = await ownEdgeOf(viewer);
    const path = `/api/services/${own.serviceId}/endpoints`;
    const body = { name: 'Sneaky', typeId: 'LocalFolderEndpoint', options: { path: '/tmp/in' } };

    // The assignment API refuses the folder, and now the endpoint API does too; nothing is made.
    const refused = await viewer.client.post<ErrorBody>(path, {
      ...body,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(EDGE_RULE_MESSAGES.targetNeedsAccountManager);
    expect(refused.body.error.fields?.arrivalsFolderId).toBe(EDGE_RULE_MESSAGES.targetNeedsAccountManager);
    const none = await viewer.client.get<Collection<Endpoint>>(path);
    expect(none.body.results).toEqual([]);

    // The account alone is the user's to choose (spec2 §6: its folder is 'An account manager must set').
    const chosen = await viewer.client.post<Results<Endpoint>>(path, { ...body, accountId: w.account.id });
    expect(chosen.status).toBe(200);
    const endpointId = chosen.body.results.id;
    const saved = await viewer.client.post<ErrorBody>(`/api/endpoints/${endpointId}`, {
      ...body,
      arrivalsFolderId: folder.id,
    });
    expect(saved.status).toBe(403);
    expect(saved.body.error.message).toBe(EDGE_RULE_MESSAGES.targetNeedsAccountManager);
    expect(
      (
        await viewer.client.post('/api/arrivalsFolderEndpointAssignments', {
          endpointId,
          arrivalsFolderId: folder.id,
        })
      ).status,
    ).toBe(403);
    const kept = await w.admin.client.get<Results<Endpoint>>(`/api/endpoints/${endpointId}`);
    expect(kept.body.results).toMatchObject({ accountId: w.account.id, arrivalsFolderId: null });

    // Until a manager of the account chooses its folder, its agent is not given it and queues nothing.
    const heartbeat = () =>
      agent<Results<AgentConfiguration>>(own.agentToken, '/api/agent/heartbeat', { agentVersion: '1.0.0' });
    expect((await heartbeat()).body.results.endpoints.map((e) => e.id)).not.toContain(endpointId);
    const queued = await agent<ErrorBody>(own.agentToken, '/api/agent/queueItems', {
      endpointId,
      queueId: 'sneaky-1',
      sourceName: 'sneaky.mov',
    });
    expect(queued.status).toBe(403);
    expect(queued.body.error.message).toBe(EDGE_RULE_MESSAGES.edgeMayNotLandInAccount);
    expect(
      await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'sneaky-1')),
    ).toEqual([]);

    // The account's manager chooses the folder (the arrivals page's assignment): the endpoint feeds it.
    const assigned = await w.accountManager.client.post('/api/arrivalsFolderEndpointAssignments', {
      endpointId,
      arrivalsFolderId: folder.id,
    });
    expect(assigned.status).toBe(200);
    expect((await heartbeat()).body.results.endpoints.map((e) => e.id)).toContain(endpointId);
    const accepted = await agent<Results<{ id: number }>>(own.agentToken, '/api/agent/queueItems', {
      endpointId,
      queueId: 'assigned-1',
      sourceName: 'assigned.mov',
    });
    expect(accepted.status).toBe(200);
    const [row] = await t.ctx.db
      .select()
      .from(ingestQueueItems)
      .where(eq(ingestQueueItems.id, accepted.body.results.id));
    expect(row).toMatchObject({ accountId: w.account.id, arrivalsFolderId: folder.id });

    // The choice is recorded with who made it: it holds while they may assign the account's arrivals.
    const [assignment] = await t.ctx.db.select().from(endpoints).where(eq(endpoints.id, endpointId));
    expect(assignment?.arrivalsSetBy).toBe(w.accountManager.user.id);
  });

  it("holds an endpoint aimed at the account before the rule: its viewer's edge server lands nothing through it (issue 30)", async () => {
    const { db } = t.ctx;
    const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id, name: 'Aimed before' });
    const viewer = await signedIn(t, (id) => grantAccountAccess(db, id, w.account.id, 'Viewer'));
    const own = await ownEdgeOf(viewer);
    // As the endpoint API accepted it before the rule: the viewer's own endpoint, aimed at the account.
    const aimed = await makeEndpointRow(db, {
      serviceId: own.serviceId,
      name: 'Aimed before the rule',
      accountId: w.account.id,
      siteId: w.site.id,
      arrivalsFolderId: folder.id,
      online: true,
      options: { path: '/tmp/in' },
    });
    const waiting = await makeQueueItemRow(db, {
      edgeServerId: own.id,
      endpointId: aimed.id,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
      queueId: 'aimed-before',
      status: 'queued',
    });
    const heartbeat = () =>
      agent<Results<AgentConfiguration>>(own.agentToken, '/api/agent/heartbeat', { agentVersion: '1.0.0' });

    // The agent is not given the endpoint (it reads nothing there), and the endpoint's status says why.
    const held = await heartbeat();
    expect(held.status).toBe(200);
    expect(held.body.results.endpoints.map((e) => e.id)).not.toContain(aimed.id);
    const [row] = await db.select().from(endpoints).where(eq(endpoints.id, aimed.id));
    expect(row).toMatchObject({
      status: 'warning',
      statusMessage: EDGE_RULE_MESSAGES.edgeMayNotLandInAccount,
      pendingSettings: false,
    });

    // An agent that asks anyway queues nothing, and an item queued before starts as a failure.
    const queued = await agent<ErrorBody>(own.agentToken, '/api/agent/queueItems', {
      endpointId: aimed.id,
      queueId: 'aimed-after',
      sourceName: 'aimed-after.mov',
    });
    expect(queued.status).toBe(403);
    expect(queued.body.error.message).toBe(EDGE_RULE_MESSAGES.edgeMayNotLandInAccount);
    expect(
      await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'aimed-after')),
    ).toEqual([]);
    const started = await agent<Results<{ status: string }>>(
      own.agentToken,
      `/api/agent/queueItems/${waiting.id}`,
      { status: 'ingesting' },
    );
    expect(started.body.results.status).toBe('failed');
    const landed = await agent<ErrorBody>(own.agentToken, `/api/agent/queueItems/${waiting.id}`, {
      status: 'ingested',
      duration: 2,
    });
    expect(landed.status).toBe(409);
    const [item] = await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, waiting.id));
    expect(item).toMatchObject({ status: 'failed', error: EDGE_RULE_MESSAGES.edgeMayNotLandInAccount });
    expect(await nodesNamed(w.account.id, 'aimed-before')).toEqual([]);

    // Once its owner manages the account, the endpoint is the agent's again.
    expect(
      (await w.siteManager.client.post(`/api/managers/account/${viewer.user.id}`, { scopeId: w.account.id }))
        .status,
    ).toBe(200);
    expect((await heartbeat()).body.results.endpoints.map((e) => e.id)).toContain(aimed.id);
  });

  it("lets a manager point their endpoint at the account's folders; one who keeps the target may save, another folder needs the right", async () => {
    const { db } = t.ctx;
    const rushes = await makeArrivalsFolderRow(db, { accountId: w.account.id, name: 'Rushes' });
    const stills = await makeArrivalsFolderRow(db, { accountId: w.account.id, name: 'Stills' });
    const own = await ownEdgeOf(w.accountManager);
    const made = await w.accountManager.client.post<Results<Endpoint>>(
      `/api/services/${own.serviceId}/endpoints`,
      {
        name: 'Managed',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/in' },
        accountId: w.account.id,
        arrivalsFolderId: rushes.id,
      },
    );
    expect(made.status).toBe(200);

    // On the owner's site edge, the site manager sets the target; the owner (no right) keeps it when saving.
    const onSite = await w.siteManager.client.post<Results<Endpoint>>(
      `/api/services/${fileService.id}/endpoints`,
      {
        name: 'Site drop',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/drop' },
        accountId: w.account.id,
        arrivalsFolderId: rushes.id,
      },
    );
    expect(onSite.status).toBe(200);
    const path = `/api/endpoints/${onSite.body.results.id}`;
    const renamed = await owner.client.post<Results<Endpoint>>(path, {
      ...onSite.body.results,
      name: 'Site drop, renamed',
      options: { path: '/drop2' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.results).toMatchObject({ accountId: w.account.id, arrivalsFolderId: rushes.id });
    const moved = await owner.client.post<ErrorBody>(path, {
      name: 'Elsewhere',
      arrivalsFolderId: stills.id,
    });
    expect(moved.status).toBe(403);
    expect(moved.body.error.fields?.arrivalsFolderId).toBe(EDGE_RULE_MESSAGES.targetNeedsAccountManager);
    // Clearing the target is the edge's business, like removing an assignment.
    const cleared = await owner.client.post<Results<Endpoint>>(path, { name: 'Cleared', accountId: null });
    expect(cleared.body.results).toMatchObject({ accountId: null, arrivalsFolderId: null });
  });

  it("lands nothing through an endpoint whose target its edge server's owner may no longer send media to", async () => {
    const { db } = t.ctx;
    const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id, name: 'Demoted drop' });
    const manager = await signedIn(t, (id) => grantAccountAccess(db, id, w.account.id, 'Account Manager'));
    const own = await ownEdgeOf(manager);
    const endpoint = await manager.client.post<Results<Endpoint>>(
      `/api/services/${own.serviceId}/endpoints`,
      {
        name: 'Demoted drop',
        typeId: 'LocalFolderEndpoint',
        options: { path: '/in' },
        accountId: w.account.id,
        arrivalsFolderId: folder.id,
      },
    );
    expect(endpoint.status).toBe(200);
    const queue = (queueId: string) =>
      agent<Results<{ id: number }>>(own.agentToken, '/api/agent/queueItems', {
        endpointId: endpoint.body.results.id,
        queueId,
        sourceName: `${queueId}.mov`,
      });
    const report = (id: number, status: string) =>
      agent<Results<{ status: string }>>(own.agentToken, `/api/agent/queueItems/${id}`, {
        status,
        ...(status === 'ingested' ? { duration: 2, proxyWidth: 160, proxyHeight: 90 } : {}),
      });
    const started = (await queue('under-way')).body.results.id;
    const waiting = (await queue('waiting')).body.results.id;
    expect((await report(started, 'ingesting')).body.results.status).toBe('ingesting');

    // The site's manager takes the manager role away: the owner is an editor now, and the target stays.
    const demoted = await w.siteManager.client.request({
      method: 'DELETE',
      url: `/api/managers/account/${manager.user.id}?scopeId=${w.account.id}`,
    });
    expect(demoted.status).toBe(200);

    const refused = await queue('after');
    expect(refused.status).toBe(403);
    expect((refused.body as unknown as ErrorBody).error.message).toBe(
      EDGE_RULE_MESSAGES.edgeMayNotLandInAccount,
    );
    for (const [id, status] of [
      [started, 'ingested'],
      [waiting, 'ingesting'],
    ] as const) {
      const answer = await report(id, status);
      expect(answer.status).toBe(200);
      expect(answer.body.results.status).toBe('failed');
      const [row] = await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id));
      expect(row).toMatchObject({ status: 'failed', error: EDGE_RULE_MESSAGES.edgeMayNotLandInAccount });
    }
    expect(await nodesNamed(w.account.id, 'under-way')).toEqual([]);
    // A stream it was recording plays no live segment into the account either.
    const recording = await makeQueueItemRow(db, {
      edgeServerId: own.id,
      endpointId: endpoint.body.results.id,
      accountId: w.account.id,
      arrivalsFolderId: folder.id,
      isStream: true,
      status: 'ingesting',
    });
    const segment = await t.app.inject({
      method: 'PUT',
      url: `/api/agent/queueItems/${recording.id}/live/0?duration=2`,
      headers: {
        authorization: `Bearer ${own.agentToken}`,
        'x-api-version': API_VERSIONS.ingest,
        'content-type': 'video/mp2t',
      },
      payload: Buffer.alloc(188, 0x47),
    });
    expect(segment.statusCode).toBe(403);
    expect(await nodesNamed(w.account.id, recording.clipName ?? '')).toEqual([]);
  });

  it("lands through a site's edge server in accounts of the site's reseller only", async () => {
    const { db } = t.ctx;
    const token = (siteEdge as Edge & { agentToken: string }).agentToken;
    const endpointOf = async (accountId: number) => {
      const made = await w.admin.client.post<Results<Endpoint>>(`/api/services/${fileService.id}/endpoints`, {
        name: `Feeds ${accountId}`,
        typeId: 'LocalFolderEndpoint',
        options: { path: `/feeds/${accountId}` },
        accountId,
      });
      expect(made.status).toBe(200);
      return made.body.results.id;
    };
    // The owner of the site's edge server manages no account: the site gives it its accounts.
    const ours = await agent<Results<{ id: number }>>(token, '/api/agent/queueItems', {
      endpointId: await endpointOf(w.siblingAccount.id),
      queueId: 'site-clip',
      sourceName: 'site-clip.mov',
    });
    expect(ours.status).toBe(200);
    expect(
      (
        await agent<Results<{ status: string }>>(token, `/api/agent/queueItems/${ours.body.results.id}`, {
          status: 'ingesting',
        })
      ).body.results.status,
    ).toBe('ingesting');
    const landed = await agent<Results<{ status: string }>>(
      token,
      `/api/agent/queueItems/${ours.body.results.id}`,
      {
        status: 'ingested',
        duration: 2,
      },
    );
    expect(landed.body.results.status).toBe('ingested');
    expect(await nodesNamed(w.siblingAccount.id, 'site-clip')).toHaveLength(1);
    // An account of another reseller, even set by an administrator, is not this site's to feed.
    const theirs = await agent<ErrorBody>(token, '/api/agent/queueItems', {
      endpointId: await endpointOf(w.otherAccount.id),
      queueId: 'other-clip',
      sourceName: 'other-clip.mov',
    });
    expect(theirs.status).toBe(403);
    expect(theirs.body.error.message).toBe(EDGE_RULE_MESSAGES.edgeMayNotLandInAccount);
    expect(
      await db.select().from(ingestQueueItems).where(eq(ingestQueueItems.queueId, 'other-clip')),
    ).toEqual([]);
  });
});

import { CHANNELS, EDGE_RULE_MESSAGES } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflows } from '../src/modules/organisation/tables.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import {
  type Edge,
  type EdgeWorld,
  type Endpoint,
  makeEdgeWorld,
  publishedOn,
  type Service,
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

describe(`edge endpoints of accounts (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let owner: EdgeWorld['owner'];
  let otherManager: EdgeWorld['otherManager'];
  let fileService: EdgeWorld['fileService'];

  const published = (channel: string) => publishedOn(t, channel);

  beforeAll(async () => {
    t = await buildTestApp();
    ({ w, owner, otherManager, fileService } = await makeEdgeWorld(t));
  });
  afterAll(() => t.close());

  it("assigns an endpoint to an account the user manages, with that account's arrivals folder and workflow", async () => {
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

    // The owner cannot see the account: refused like a read of it, as a missing one (issue 30).
    const unseen = await owner.client.post<ErrorBody>(path, { ...body, accountId: w.account.id });
    expect(unseen.status).toBe(404);
    expect(unseen.body.error.message).toBe('Account not found');
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
});

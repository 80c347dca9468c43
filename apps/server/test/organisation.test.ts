import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteGroups, sites } from '../src/modules/organisation/tables.ts';
import { makeSiteGroup } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`resellers, site groups and sites (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  it('lets an administrator create, rename and disable a reseller, site group and site', async () => {
    const admin = w.admin.client;
    const reseller = await admin.post<Results<{ id: number; name: string }>>('/api/resellers', {
      name: 'Acme',
    });
    expect(reseller.status).toBe(200);
    const group = await admin.post<Results<{ id: number; resellerName: string }>>('/api/siteGroups', {
      name: 'Acme Group',
      resellerId: reseller.body.results.id,
    });
    expect(group.body.results.resellerName).toBe('Acme');
    const resellers = await admin.get<Collection<{ name: string; siteGroupCount: number }>>(
      '/api/resellers?searchText=acme',
    );
    expect(resellers.body.results).toEqual([expect.objectContaining({ name: 'Acme', siteGroupCount: 1 })]);
    const site = await admin.post<Results<{ id: number; siteGroupName: string; accountCount: number }>>(
      '/api/sites',
      {
        name: 'Acme Paris',
        siteGroupId: group.body.results.id,
      },
    );
    expect(site.body.results).toMatchObject({ siteGroupName: 'Acme Group', accountCount: 0 });
    const renamed = await admin.post<Results<{ name: string; disabled: boolean }>>(
      `/api/sites/${site.body.results.id}`,
      { name: 'Acme Lyon', disabled: true },
    );
    expect(renamed.body.results).toMatchObject({ name: 'Acme Lyon', disabled: true });
    const list = await admin.get<Collection<{ name: string }>>(
      '/api/sites?searchText=acme&includeDisabled=0',
    );
    expect(list.body.results).toEqual([]);
    expect(list.body.channel).toBe('cloud/sites');
  });

  it('refuses a duplicate name (409), a blank one (400), and unknown parents (404)', async () => {
    const duplicate = await w.admin.client.post<ErrorBody>('/api/resellers', { name: 'ACME' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.message).toBe('A reseller with this name already exists');
    expect((await w.admin.client.post('/api/resellers', { name: ' ' })).status).toBe(400);
    expect((await w.admin.client.post('/api/siteGroups', { name: 'x', resellerId: 999999 })).status).toBe(
      404,
    );
    expect((await w.admin.client.post('/api/sites/999999', { name: 'x' })).status).toBe(404);
  });

  it('keeps each level to its managers (403)', async () => {
    expect((await w.resellerManager.client.post('/api/resellers', { name: 'Mine' })).status).toBe(403);
    expect(
      (await w.resellerManager.client.post('/api/siteGroups', { name: 'RG', resellerId: w.reseller.id }))
        .status,
    ).toBe(200);
    expect(
      (await w.siteManager.client.post('/api/sites', { name: 'S2', siteGroupId: w.siteGroup.id })).status,
    ).toBe(403);
    expect(
      (await w.siteGroupManager.client.post('/api/sites', { name: 'S3', siteGroupId: w.siteGroup.id }))
        .status,
    ).toBe(200);
    // A site manager may not rename or disable their own site.
    expect((await w.siteManager.client.post(`/api/sites/${w.site.id}`, { disabled: true })).status).toBe(403);
    expect((await w.editor.client.post(`/api/sites/${w.site.id}`, { name: 'x' })).status).toBe(403);
    expect((await t.client().get('/api/sites')).status).toBe(401);
  });

  it("refuses another organisation's reseller or site group like a missing one (404, issue 30)", async () => {
    const theirGroup = await makeSiteGroup(t.ctx.db);
    const theirReseller = theirGroup.resellerId;
    const refusedLikeMissing = async (
      call: (id: number) => ReturnType<World['admin']['client']['post']>,
      theirs: number,
      label: string,
    ) => {
      for (const id of [theirs, 999_999]) {
        const answer = await call(id);
        expect(answer.status).toBe(404);
        expect((answer.body as ErrorBody).error.message).toBe(`${label} not found`);
      }
    };
    const manager = w.resellerManager.client;
    await refusedLikeMissing(
      (id) => manager.post('/api/siteGroups', { name: 'Theirs?', resellerId: id }),
      theirReseller,
      'Reseller',
    );
    await refusedLikeMissing(
      (id) => manager.post(`/api/siteGroups/${w.siteGroup.id}`, { resellerId: id }),
      theirReseller,
      'Reseller',
    );
    await refusedLikeMissing(
      (id) => manager.post('/api/sites', { name: 'Theirs?', siteGroupId: id }),
      theirGroup.id,
      'Site group',
    );
    await refusedLikeMissing(
      (id) => manager.post(`/api/sites/${w.site.id}`, { siteGroupId: id }),
      theirGroup.id,
      'Site group',
    );
    const [group] = await t.ctx.db.select().from(siteGroups).where(eq(siteGroups.id, w.siteGroup.id));
    expect(group?.resellerId).toBe(w.reseller.id);
    const [site] = await t.ctx.db.select().from(sites).where(eq(sites.id, w.site.id));
    expect(site?.siteGroupId).toBe(w.siteGroup.id);
    // One they see without the right stays a 403: a site manager sees their site's group.
    const seen = await w.siteManager.client.post<ErrorBody>('/api/sites', {
      name: 'Beside mine',
      siteGroupId: w.siteGroup.id,
    });
    expect(seen.status).toBe(403);
  });

  it('lists the sites a user can see and answers 404 for others', async () => {
    const mine = await w.editor.client.get<Collection<{ id: number }>>('/api/sites');
    expect(mine.body.results.map((s) => s.id)).toEqual([w.site.id]);
    expect((await w.editor.client.get(`/api/sites/${w.site.id}`)).status).toBe(200);
    expect((await w.editor.client.get(`/api/sites/${w.otherSite.id}`)).status).toBe(404);
    expect((await w.admin.client.get('/api/sites/999999')).status).toBe(404);
  });

  it('answers what a user may do on a site', async () => {
    const manager = await w.siteManager.client.get<Results<Record<string, boolean>>>(
      `/api/sites/${w.site.id}/permissions`,
    );
    expect(manager.body.results).toMatchObject({ canManage: true, canImportUsers: true });
    const editor = await w.editor.client.get<Results<Record<string, boolean>>>(
      `/api/sites/${w.site.id}/permissions`,
    );
    expect(editor.body.results).toMatchObject({ canManage: false, canImportUsers: false });
    expect((await w.outsider.client.get(`/api/sites/${w.site.id}/permissions`)).status).toBe(404);
  });
});

import {
  MSG_ALREADY_MANAGER,
  MSG_LAST_ADMIN,
  MSG_MANAGER_NOT_BELOW,
  MSG_MANAGER_ROLE_NOT_SELECTABLE,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoleByName, makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Manager = { id: number; username: string; emailverified: string; rolename: string | null };

describe(`managers (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const del = (client: World['admin']['client'], url: string) => client.request({ method: 'DELETE', url });

  it('adds, lists and removes site managers', async () => {
    // A user of the site (its import made them): the site manager manages them.
    const user = await makeUser(t.ctx.db, { homeSiteId: w.site.id });
    const added = await w.siteManager.client.post(`/api/managers/site/${user.id}`, { scopeId: w.site.id });
    expect(added.status).toBe(200);
    const list = await w.siteManager.client.get<Collection<Manager>>(
      `/api/managers/site?scopeId=${w.site.id}`,
    );
    expect(list.body.channel).toBe(`sites/${w.site.id}/managers`);
    expect(list.body.results.map((m) => m.id).sort()).toEqual([w.siteManager.user.id, user.id].sort());
    expect(list.body.results[0]?.emailverified).toMatch(/^[01]$/);
    const again = await w.siteManager.client.post<ErrorBody>(`/api/managers/site/${user.id}`, {
      scopeId: w.site.id,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(MSG_ALREADY_MANAGER);
    expect(
      (await del(w.siteManager.client, `/api/managers/site/${user.id}?scopeId=${w.site.id}`)).status,
    ).toBe(200);
    expect(
      (await del(w.siteManager.client, `/api/managers/site/${user.id}?scopeId=${w.site.id}`)).status,
    ).toBe(404);
  });

  it('makes account managers with the manager role, and removing leaves them editors', async () => {
    const user = await makeUser(t.ctx.db, { homeSiteId: w.site.id });
    expect(
      (await w.siteManager.client.post(`/api/managers/account/${user.id}`, { scopeId: w.account.id })).status,
    ).toBe(200);
    const list = await w.accountManager.client.get<Collection<Manager>>(
      `/api/managers/account?scopeId=${w.account.id}`,
    );
    expect(list.body.results.find((m) => m.id === user.id)?.rolename).toBe('Account Manager');
    // An account manager cannot hand out the manager role.
    const other = await makeUser(t.ctx.db);
    expect(
      (await w.accountManager.client.post(`/api/managers/account/${other.id}`, { scopeId: w.account.id }))
        .status,
    ).toBe(403);
    expect(
      (await del(w.siteManager.client, `/api/managers/account/${user.id}?scopeId=${w.account.id}`)).status,
    ).toBe(200);
    const access = await w.siteManager.client.get<Collection<{ id: number; roleId: number }>>(
      `/api/accounts/${w.account.id}/userAccess`,
    );
    expect(access.body.results.some((u) => u.id === user.id)).toBe(true);
  });

  it('keeps an account manager from demoting or removing a peer manager, by the managers API or the user access (issue 30)', async () => {
    const peer = await makeUser(t.ctx.db, { homeSiteId: w.site.id });
    const managersPath = `/api/managers/account/${peer.id}?scopeId=${w.account.id}`;
    expect(
      (await w.siteManager.client.post(`/api/managers/account/${peer.id}`, { scopeId: w.account.id })).status,
    ).toBe(200);
    const roleOf = async (userId: number) =>
      (
        await w.siteManager.client.get<Collection<{ id: number; roleId: number }>>(
          `/api/accounts/${w.account.id}/userAccess`,
        )
      ).body.results.find((u) => u.id === userId)?.roleId;
    const managerRole = await roleOf(peer.id);

    // A peer is not below them: neither through the managers API, nor by changing or removing their access.
    const demoted = await del(w.accountManager.client, managersPath);
    expect(demoted.status).toBe(403);
    expect((demoted.body as ErrorBody).error.message).toBe(MSG_MANAGER_NOT_BELOW);
    const viewer = (await findRoleByName(t.ctx.db, 'Viewer')).id;
    const changed = await w.accountManager.client.post<ErrorBody>(
      `/api/accounts/${w.account.id}/userAccess/${peer.id}`,
      { roleId: viewer },
    );
    expect(changed.status).toBe(403);
    expect(changed.body.error.message).toBe(MSG_MANAGER_ROLE_NOT_SELECTABLE);
    expect(
      (
        await w.accountManager.client.post(`/api/accounts/${w.account.id}/userAccess`, {
          data: [{ userId: peer.id, roleId: viewer }],
        })
      ).status,
    ).toBe(403);
    expect(
      (await del(w.accountManager.client, `/api/accounts/${w.account.id}/userAccess/${peer.id}`)).status,
    ).toBe(403);
    // Nor do they step down themselves (the managers table never offers it: canremoveself False).
    expect(
      (
        await del(
          w.accountManager.client,
          `/api/managers/account/${w.accountManager.user.id}?scopeId=${w.account.id}`,
        )
      ).status,
    ).toBe(403);
    expect(await roleOf(peer.id)).toBe(managerRole);
    const list = await w.accountManager.client.get<Collection<Manager>>(
      `/api/managers/account?scopeId=${w.account.id}`,
    );
    expect(list.body.results.map((m) => m.id)).toEqual(
      expect.arrayContaining([peer.id, w.accountManager.user.id]),
    );

    // The site's manager, above them both, does.
    expect((await del(w.siteManager.client, managersPath)).status).toBe(200);
    expect(await roleOf(peer.id)).toBe((await findRoleByName(t.ctx.db, 'Editor')).id);
  });

  it('keeps administrators to administrators and never removes the last one', async () => {
    const admins = await w.admin.client.get<Collection<Manager>>('/api/managers/admin');
    expect(admins.body.results.map((m) => m.username)).toEqual(['admin']);
    const adminId = admins.body.results[0]?.id as number;
    const last = await del(w.admin.client, `/api/managers/admin/${adminId}`);
    expect(last.status).toBe(409);
    expect((last.body as ErrorBody).error.message).toBe(MSG_LAST_ADMIN);
    expect((await w.resellerManager.client.get('/api/managers/admin')).status).toBe(403);
    const second = await makeUser(t.ctx.db);
    expect((await w.admin.client.post(`/api/managers/admin/${second.id}`, {})).status).toBe(200);
    expect((await del(w.admin.client, `/api/managers/admin/${second.id}`)).status).toBe(200);
  });

  it('answers 400 without a scope, 403 without the right, 404 for unknown users and 401 signed out', async () => {
    expect((await w.siteManager.client.get('/api/managers/site')).status).toBe(400);
    expect((await w.siteManager.client.get('/api/managers/planet')).status).toBe(400);
    expect((await w.editor.client.get(`/api/managers/site?scopeId=${w.site.id}`)).status).toBe(403);
    expect((await w.siteManager.client.get(`/api/managers/sitegroup?scopeId=${w.siteGroup.id}`)).status).toBe(
      403,
    );
    expect(
      (await w.siteManager.client.post('/api/managers/site/999999', { scopeId: w.site.id })).status,
    ).toBe(404);
    expect((await w.admin.client.get('/api/managers/site?scopeId=999999')).status).toBe(404);
    expect((await t.client().get('/api/managers/admin')).status).toBe(401);
  });
});

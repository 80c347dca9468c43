import { MSG_MANAGER_ROLE_NOT_SELECTABLE } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
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

type AccountUser = {
  id: number;
  username: string;
  roleId: number;
  version: string | null;
  skin: string | null;
};
type Role = { id: number; name: string; isManager: boolean; permissions: string[] };

describe(`account users, roles and permissions (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let roles: Record<string, Role>;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    const list = await w.admin.client.get<Collection<Role>>(`/api/account_roles?siteId=${w.site.id}`);
    roles = Object.fromEntries(list.body.results.map((r) => [r.name, r]));
  });
  afterAll(() => t.close());

  it('lists the roles of a site by name, with permissions, and the permission names', async () => {
    const list = await w.editor.client.get<Collection<Role>>(`/api/account_roles?siteId=${w.site.id}`);
    expect(list.body.results.map((r) => r.name)).toEqual(['Account Manager', 'Editor', 'Logger', 'Viewer']);
    expect(list.body.results[0]?.isManager).toBe(true);
    expect(list.body.results[0]?.permissions).toContain('canSearchSiteUsers');
    const permissions = await w.editor.client.get<Results<string[]>>('/api/permissions');
    expect(permissions.body.results).toContain('canSearchSiteUsers');
    expect((await w.editor.client.get('/api/account_roles')).status).toBe(400);
    expect((await w.editor.client.get(`/api/account_roles?siteId=${w.otherSite.id}`)).status).toBe(404);
    expect((await t.client().get('/api/permissions')).status).toBe(401);
  });

  it("lists the account's users with their roles, paged, with the channel", async () => {
    const list = await w.accountManager.client.get<Collection<AccountUser>>(
      `/api/accounts/${w.account.id}/userAccess?offset=0&limit=100`,
    );
    expect(list.status).toBe(200);
    expect(list.body.channel).toBe(`accounts/${w.account.id}/userAccess`);
    expect(list.body.results.map((u) => u.id).sort()).toEqual(
      [w.accountManager.user.id, w.editor.user.id].sort(),
    );
    const one = await w.accountManager.client.get<Collection<AccountUser>>(
      `/api/accounts/${w.account.id}/userAccess?limit=1`,
    );
    expect(one.body.results).toHaveLength(1);
    expect(one.body.total).toBe(2);
  });

  it('adds and changes several users at once, and removes one', async () => {
    // Users of the site (its import made them): the site manager manages them, so may add them.
    const ofSite = () => makeUser(t.ctx.db, { homeSiteId: w.site.id });
    const [a, b] = [await ofSite(), await ofSite()];
    const saved = await w.siteManager.client.post<Results<AccountUser[]>>(
      `/api/accounts/${w.account.id}/userAccess`,
      {
        data: [
          { userId: a.id, roleId: roles.Editor?.id },
          { userId: b.id, roleId: roles.Viewer?.id },
        ],
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.results.map((u) => u.roleId).sort()).toEqual(
      [roles.Editor?.id, roles.Viewer?.id].sort(),
    );
    const changed = await w.siteManager.client.post<Results<AccountUser[]>>(
      `/api/accounts/${w.account.id}/userAccess/${b.id}`,
      { roleId: roles.Logger?.id },
    );
    expect(changed.body.results[0]?.roleId).toBe(roles.Logger?.id);
    // Removing someone needs only the account's management: revoking access must always work.
    const removed = await w.accountManager.client.request({
      method: 'DELETE',
      url: `/api/accounts/${w.account.id}/userAccess/${b.id}`,
    });
    expect(removed.status).toBe(200);
    const again = await w.accountManager.client.request({
      method: 'DELETE',
      url: `/api/accounts/${w.account.id}/userAccess/${b.id}`,
    });
    expect(again.status).toBe(404);
  });

  it('keeps manager roles, versions and skins out of an account manager’s hands', async () => {
    const user = await makeUser(t.ctx.db);
    const manager = await w.accountManager.client.post<ErrorBody>(
      `/api/accounts/${w.account.id}/userAccess`,
      {
        data: [{ userId: user.id, roleId: roles['Account Manager']?.id }],
      },
    );
    expect(manager.status).toBe(403);
    expect(manager.body.error.message).toBe(MSG_MANAGER_ROLE_NOT_SELECTABLE);
    const skin = await w.accountManager.client.post(`/api/accounts/${w.account.id}/userAccess`, {
      data: [{ userId: user.id, roleId: roles.Editor?.id, skin: 'Dark' }],
    });
    expect(skin.status).toBe(403);
    const admin = await w.admin.client.post<Results<AccountUser[]>>(
      `/api/accounts/${w.account.id}/userAccess`,
      {
        data: [{ userId: user.id, roleId: roles.Editor?.id, version: 'beta', skin: 'Dark' }],
      },
    );
    expect(admin.body.results[0]).toMatchObject({ version: 'beta', skin: 'Dark' });
    const demote = await w.accountManager.client.post(
      `/api/accounts/${w.account.id}/userAccess/${w.accountManager.user.id}`,
      { roleId: roles.Editor?.id },
    );
    expect(demote.status).toBe(403);
  });

  it('changes nothing when one row of a batch is refused', async () => {
    const user = await makeUser(t.ctx.db, { homeSiteId: w.site.id });
    // A missing user id is refused like a user one may not add (403): the answer never tells existence.
    const refused = await w.siteManager.client.post(`/api/accounts/${w.account.id}/userAccess`, {
      data: [
        { userId: user.id, roleId: roles.Editor?.id },
        { userId: 999999, roleId: roles.Editor?.id },
      ],
    });
    expect(refused.status).toBe(403);
    const list = await w.accountManager.client.get<Collection<AccountUser>>(
      `/api/accounts/${w.account.id}/userAccess`,
    );
    expect(list.body.results.some((u) => u.id === user.id)).toBe(false);
    const badRole = await w.accountManager.client.post(`/api/accounts/${w.account.id}/userAccess`, {
      data: [{ userId: user.id, roleId: 999999 }],
    });
    expect(badRole.status).toBe(400);
    expect(
      (await w.accountManager.client.post(`/api/accounts/${w.account.id}/userAccess`, { data: [] })).status,
    ).toBe(400);
  });

  it('answers 403 to editors, 404 for accounts one cannot see, 401 when signed out', async () => {
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/userAccess`)).status).toBe(403);
    expect((await w.editor.client.get(`/api/accounts/${w.otherAccount.id}/userAccess`)).status).toBe(403);
    expect((await w.admin.client.get('/api/accounts/999999/userAccess')).status).toBe(404);
    expect((await t.client().get(`/api/accounts/${w.account.id}/userAccess`)).status).toBe(401);
  });
});

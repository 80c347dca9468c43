import type { RoleRestriction } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAccess } from '../src/modules/access/tables.ts';
import { sessions } from '../src/modules/auth/tables.ts';
import { findRoleByName } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, type Results, type TestApp, testDriver } from './harness.ts';
import {
  buttonBody,
  createButton,
  listButtons,
  makePublishingWorld,
  type PublishingWorld,
} from './publishing-world.ts';

describe(`publishing button role restrictions (${testDriver()})`, () => {
  let t: TestApp;
  let w: PublishingWorld;
  let viewerRoleId: number;
  let editorRoleId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makePublishingWorld(t);
    viewerRoleId = (await findRoleByName(t.ctx.db, 'Viewer')).id;
    editorRoleId = (await findRoleByName(t.ctx.db, 'Editor')).id;
  });
  afterAll(() => t.close());

  const restrictionsOf = (id: number) =>
    w.accountManager.client.get<Results<RoleRestriction[]>>(`/api/publishButtons/${id}/roleRestrictions`);

  it('a new button allows every role of the site', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Open to all'),
    );
    const response = await restrictionsOf(id);
    expect(response.status).toBe(200);
    expect(response.body.results.length).toBeGreaterThan(2);
    expect(response.body.results.every((entry) => entry.allow)).toBe(true);
    expect(response.body.results.map((entry) => entry.roleName)).toEqual(
      expect.arrayContaining(['Viewer', 'Editor', 'Account Manager']),
    );
  });

  it('round-trips restrictions and hides the button from a Viewer, not from an Editor', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Not for viewers'),
    );
    expect((await listButtons(w.viewer.client, 'accounts', w.account.id)).results.map((b) => b.id)).toContain(
      id,
    );
    const saved = await w.accountManager.client.post<Results<RoleRestriction[]>>(
      `/api/publishButtons/${id}/roleRestrictions`,
      [{ roleId: viewerRoleId, roleName: 'whatever the client says', allow: false }],
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.results.find((entry) => entry.roleId === viewerRoleId)).toEqual({
      roleId: viewerRoleId,
      roleName: 'Viewer',
      allow: false,
    });
    expect(saved.body.results.find((entry) => entry.roleId === editorRoleId)?.allow).toBe(true);
    expect((await restrictionsOf(id)).body.results).toEqual(saved.body.results);
    expect(
      (await listButtons(w.viewer.client, 'accounts', w.account.id)).results.map((b) => b.id),
    ).not.toContain(id);
    expect((await listButtons(w.editor.client, 'accounts', w.account.id)).results.map((b) => b.id)).toContain(
      id,
    );
    const managerView = await listButtons(w.accountManager.client, 'accounts', w.account.id);
    expect(managerView.results.find((b) => b.id === id)?.restrictions).toEqual([
      { roleId: viewerRoleId, roleName: 'Viewer', allow: false },
    ]);
  });

  it('restrictions sent with a new button filter the list too', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Editors only', {
        restrictions: [{ roleId: viewerRoleId, roleName: 'Viewer', allow: false }],
      }),
    );
    expect(
      (await listButtons(w.viewer.client, 'accounts', w.account.id)).results.map((b) => b.id),
    ).not.toContain(id);
  });

  it('filters by the role a manager acts as (Edit as role)', async () => {
    const id = await createButton(
      w.accountManager.client,
      'accounts',
      w.account.id,
      buttonBody('Acting check'),
    );
    await w.accountManager.client.post(`/api/publishButtons/${id}/roleRestrictions`, [
      { roleId: viewerRoleId, roleName: 'Viewer', allow: false },
    ]);
    const managerId = w.accountManager.user.id;
    const [access] = await t.ctx.db
      .select()
      .from(accountAccess)
      .where(and(eq(accountAccess.userId, managerId), eq(accountAccess.accountId, w.account.id)));
    expect(access).toBeDefined();
    await t.ctx.db
      .update(sessions)
      .set({ accountId: w.account.id, actingRoleId: viewerRoleId })
      .where(eq(sessions.userId, managerId));
    try {
      const acting = await listButtons(w.accountManager.client, 'accounts', w.account.id);
      expect(acting.results.map((b) => b.id)).not.toContain(id);
      expect(
        (await w.accountManager.client.post(`/api/publishButtons/${id}`, { enabled: false })).status,
      ).toBe(403);
    } finally {
      await t.ctx.db
        .update(sessions)
        .set({ accountId: null, actingRoleId: null })
        .where(eq(sessions.userId, managerId));
    }
  });

  it('refuses a role of no site of the button, and rights are the managers', async () => {
    const id = await createButton(w.accountManager.client, 'accounts', w.account.id, buttonBody('Guarded'));
    const unknown = await w.accountManager.client.post<ErrorBody>(
      `/api/publishButtons/${id}/roleRestrictions`,
      [{ roleId: 999_999, roleName: 'Ghost', allow: false }],
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Role 999999 is not a role of this site');
    expect((await restrictionsOf(id)).body.results.every((entry) => entry.allow)).toBe(true);
    const extra = await w.accountManager.client.post<ErrorBody>(
      `/api/publishButtons/${id}/roleRestrictions`,
      [{ roleId: viewerRoleId, roleName: 'Viewer', allow: false, deleting: true }],
    );
    expect(extra.status).toBe(400);
    expect((await w.editor.client.get(`/api/publishButtons/${id}/roleRestrictions`)).status).toBe(403);
    expect((await w.editor.client.post(`/api/publishButtons/${id}/roleRestrictions`, [])).status).toBe(403);
    expect((await w.outsider.client.get(`/api/publishButtons/${id}/roleRestrictions`)).status).toBe(404);
    expect((await t.client().get(`/api/publishButtons/${id}/roleRestrictions`)).status).toBe(401);
  });
});

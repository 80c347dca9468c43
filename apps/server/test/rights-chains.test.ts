import { DEFAULT_DISCONNECT_MESSAGE, MSG_ADD_USER_REFUSED } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAccess } from '../src/modules/access/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import {
  ADMIN_TEST_PASSWORD,
  type Collection,
  type ErrorBody,
  login,
  type Results,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';

import {
  type ActorName,
  del,
  fingerprintOf,
  openRightsWorld,
  type RightsWorld,
  restoreAccessIn,
  type Session,
  type TargetName,
  targetIdIn,
} from './rights-world.ts';

/**
 * DESIGN.md "Managing people" (issue 12 items 1, 2 and 11): the attack chains of the findings, stopped
 * end to end, and what managers may still do (revoke access, search the users they manage, invite).
 */
describe(`rights chains: managing people (${testDriver()})`, () => {
  let t: TestApp;
  const w = {} as RightsWorld;
  beforeAll(async () => {
    Object.assign(w, await openRightsWorld());
    t = w.t;
  });
  afterAll(() => t.close());

  const _targetId = (actor: ActorName, target: TargetName) => targetIdIn(w, actor, target);
  const fingerprint = (userId: number) => fingerprintOf(t, userId);
  const restoreAccess = (id: number) => restoreAccessIn(w, id);
  const ok = 200;

  it('lets a manager remove anyone from their own account (revoking always works), never a user', async () => {
    const url = (id: number) => `/api/accounts/${w.accountId}/userAccess/${id}`;
    const before = await fingerprint(w.administrator.id);
    expect((await del(w.actors.user.client, url(w.administrator.id))).status).toBe(403);
    expect(await fingerprint(w.administrator.id)).toBe(before);
    for (const actor of ['accountManager', 'site', 'reseller', 'admin'] as const) {
      expect((await del(w.actors[actor].client, url(w.administrator.id))).status, actor).toBe(ok);
      await restoreAccess(w.administrator.id);
    }
  });

  it('searches only the users one manages (the users one may add), administrators everyone', async () => {
    const search = (actor: ActorName) =>
      w.actors[actor].client.get<Collection<{ id: number }>>(
        `/api/users?type=site&siteId=${w.siteId}&limit=100`,
      );
    for (const actor of ['site', 'reseller', 'accountManager'] as const) {
      const ids = (await search(actor)).body.results.map((u) => u.id);
      expect(ids, actor).toContain(w.inScope.id);
      expect(ids, actor).not.toContain(w.administrator.id);
      expect(ids, actor).not.toContain(w.adminId);
    }
    expect((await search('admin')).body.results.map((u) => u.id)).toContain(w.administrator.id);
    expect((await search('user')).status).toBe(403);
  });

  it('answers GET /api/users/{id} alike for a user one may not manage and a missing one (item 11)', async () => {
    for (const actor of ['reseller', 'site', 'accountManager', 'user'] as const) {
      const client = w.actors[actor].client;
      for (const id of [w.administrator.id, w.otherSiteUser.id, w.adminId]) {
        const existing = await client.get<ErrorBody>(`/api/users/${id}`);
        const missing = await client.get<ErrorBody>('/api/users/999999');
        expect({ status: existing.status, body: existing.body }, `${actor} on ${id}`).toEqual({
          status: missing.status,
          body: missing.body,
        });
        expect(existing.status).toBe(404);
      }
    }
  });

  it('answers routes kept to oneself (or administrators) with 403 alike for existing and missing ids', async () => {
    const calls = [
      (c: TestClient, id: number) => c.get(`/api/users/${id}/mfa`),
      (c: TestClient, id: number) => c.get(`/api/users/${id}/notifications`),
      (c: TestClient, id: number) => c.post(`/api/users/${id}/mfa/enrol`),
      (c: TestClient, id: number) =>
        c.post(`/api/users/${id}/setPassword`, {
          currentPassword: 'Passw0rd!',
          newPassword: 'N3w-Passw0rd!',
        }),
    ];
    for (const actor of ['reseller', 'site', 'accountManager', 'user'] as const) {
      for (const call of calls) {
        const existing = await call(w.actors[actor].client, w.inScope.id);
        const missing = await call(w.actors[actor].client, 999_999);
        expect(existing.status, actor).toBe(403);
        expect({ status: missing.status, body: missing.body }).toEqual({
          status: existing.status,
          body: existing.body,
        });
      }
    }
  });

  it('stops the takeover of item 1: a site manager attaches the administrator, changes the email, resets', async () => {
    const site = w.actors.site.client;
    const [adminBefore] = await t.ctx.db.select().from(users).where(eq(users.id, w.adminId));
    const attach = await site.post<ErrorBody>(`/api/accounts/${w.accountId}/userAccess`, {
      data: [{ userId: w.adminId, roleId: w.roles.editor }],
    });
    expect(attach.status).toBe(403);
    expect(attach.body.error.message).toContain(MSG_ADD_USER_REFUSED);
    const attached = await t.ctx.db
      .select()
      .from(accountAccess)
      .where(and(eq(accountAccess.userId, w.adminId), eq(accountAccess.accountId, w.accountId)));
    expect(attached).toEqual([]);
    const email = await site.post(`/api/users/${w.adminId}`, { email: 'attacker@evil.example' });
    expect(email.status).toBe(404);
    // Even an administrator who really is in an account of the site stays out of reach.
    const inside = await site.post(`/api/users/${w.administrator.id}`, { email: 'attacker2@evil.example' });
    expect(inside.status).toBe(404);
    const reset = await t.client().post('/api/passwordReset', { username: 'admin' });
    expect(reset.status).toBe(200);
    const [adminAfter] = await t.ctx.db.select().from(users).where(eq(users.id, w.adminId));
    expect(adminAfter?.email).toBe(adminBefore?.email);
    const [administrator] = await t.ctx.db.select().from(users).where(eq(users.id, w.administrator.id));
    expect(administrator?.email).toBe(w.administrator.email);
    const signIn = await login(t.client(), { username: 'admin', password: ADMIN_TEST_PASSWORD });
    expect(signIn.body.results.status).toBe('valid');
  });

  it("stops item 2: an account manager attaches others, lists and ends the administrator's sessions", async () => {
    const manager = w.actors.accountManager.client;
    const outsiders = [w.adminId, w.otherSiteUser.id, w.actors.site.id, w.actors.reseller.id];
    const before = await Promise.all(outsiders.map(fingerprint));
    const attach = await manager.post<ErrorBody>(`/api/accounts/${w.accountId}/userAccess`, {
      data: outsiders.map((userId) => ({ userId, roleId: w.roles.editor })),
    });
    expect(attach.status).toBe(403);
    expect(await Promise.all(outsiders.map(fingerprint))).toEqual(before);

    // The administrator works inside the account; the in-scope user has a session there and one elsewhere.
    const launched = await w.administrator.client.post(`/api/accounts/${w.accountId}/launch`, {});
    expect(launched.status).toBe(200);
    const inside = await t.client().signIn(w.inScope.username, w.inScope.password);
    expect((await inside.post(`/api/accounts/${w.accountId}/launch`, {})).status).toBe(200);
    const elsewhere = await t.client().signIn(w.inScope.username, w.inScope.password);
    const sessionsOf = async (actor: ActorName) =>
      (await w.actors[actor].client.get<Collection<Session>>(`/api/accounts/${w.accountId}/sessions`)).body
        .results;
    const all = await sessionsOf('admin');
    const administratorSession = all.find((s) => s.user === w.administrator.id) as Session;
    expect(administratorSession).toBeDefined();
    // Only sessions opened in the account: the in-scope user's other session and the admin's are not there.
    expect(all.filter((s) => s.user === w.inScope.id)).toHaveLength(1);
    expect(all.some((s) => s.user === w.adminId)).toBe(false);
    for (const actor of ['accountManager', 'site', 'reseller'] as const) {
      const users = (await sessionsOf(actor)).map((s) => s.user);
      expect(users, actor).toContain(w.inScope.id);
      expect(users, actor).not.toContain(w.administrator.id);
    }
    expect((await w.actors.user.client.get(`/api/accounts/${w.accountId}/sessions`)).status).toBe(403);

    const trash = (actor: ActorName, sessionId: string) =>
      w.actors[actor].client.post(`/api/accounts/${w.accountId}/sessions/${sessionId}/trash`, {
        disconnectmessage: DEFAULT_DISCONNECT_MESSAGE,
      });
    for (const actor of ['accountManager', 'site', 'reseller'] as const)
      expect((await trash(actor, administratorSession.sessionId)).status, actor).toBe(404);
    expect((await trash('user', administratorSession.sessionId)).status).toBe(403);
    const byDisconnection = await manager.post('/api/disconnection', {
      byUserId: w.actors.accountManager.id,
      accountId: w.accountId,
      sessionId: administratorSession.sessionId,
      message: 'Bye',
    });
    expect(byDisconnection.status).toBe(404);
    expect((await w.administrator.client.get('/api/me')).status).toBe(200);

    // The session the list shows is ended; the user's session elsewhere is not the account's business.
    const ownSession = (await sessionsOf('accountManager')).find((s) => s.user === w.inScope.id) as Session;
    expect((await trash('accountManager', ownSession.sessionId)).status).toBe(200);
    expect((await inside.get('/api/me')).status).toBe(401);
    expect((await elsewhere.get('/api/me')).status).toBe(200);
  });

  it('invites anyone by email instead: the invitation changes nothing until accepted', async () => {
    const before = await fingerprint(w.otherSiteUser.id);
    const invited = await w.actors.accountManager.client.post<Results<{ email: string }[]>>(
      `/api/accounts/${w.accountId}/invites`,
      { data: [{ email: w.otherSiteUser.email, roleId: w.roles.viewer }] },
    );
    expect(invited.status).toBe(200);
    expect(await fingerprint(w.otherSiteUser.id)).toBe(before);
  });
});

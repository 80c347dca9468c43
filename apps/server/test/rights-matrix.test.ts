import { DEFAULT_DISCONNECT_MESSAGE, extraDataStoredKey, MSG_ADD_USER_REFUSED } from '@media/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAccess, managerGrants } from '../src/modules/access/tables.ts';
import { keyShortcutSets } from '../src/modules/config/tables.ts';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { notificationSettings, userNotifications } from '../src/modules/notifications/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import {
  findRoleByName,
  grantAccountAccess,
  grantManagerOf,
  makeAccount,
  makeReseller,
  makeSite,
  makeSiteGroup,
  makeUser,
} from '../src/seed/factories.ts';
import {
  ADMIN_TEST_PASSWORD,
  buildTestApp,
  type Collection,
  type ErrorBody,
  login,
  type Results,
  type TestApp,
  type TestClient,
  type TestResponse,
  testDriver,
} from './harness.ts';

/**
 * DESIGN.md "Managing people" (issue 12 items 1, 2 and 11): every route that changes or reads a user
 * by id, called by each level of rights on an administrator, a user of another site and a user only in
 * the actor's scope. A refused call must change nothing about its target.
 */
const ACTORS = ['admin', 'reseller', 'site', 'accountManager', 'user'] as const;
type ActorName = (typeof ACTORS)[number];
const TARGETS = ['administrator', 'otherSiteUser', 'inScope', 'self'] as const;
type TargetName = (typeof TARGETS)[number];

/**
 * Who manages whom: administrators everyone; the reseller, site and account managers of the world
 * only the user whose one place (an account of their site) they manage; a plain user nobody else.
 */
const manages = (actor: ActorName, target: TargetName) =>
  target === 'self' || actor === 'admin' || (target === 'inScope' && actor !== 'user');

type Session = { sessionId: string; user: number };

describe(`rights matrix: managing people (${testDriver()})`, () => {
  let t: TestApp;
  const w = {} as {
    siteId: number;
    accountId: number;
    otherAccountId: number;
    adminId: number;
    roles: { editor: number; viewer: number };
    actors: Record<ActorName, { id: number; client: TestClient }>;
    /** An administrator who is also an Editor of the site's account (the end state of the attack). */
    administrator: { id: number; username: string; password: string; email: string; client: TestClient };
    otherSiteUser: { id: number; email: string };
    inScope: { id: number; username: string; password: string };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.ctx.db;
    const reseller = await makeReseller(db);
    const site = await makeSite(db, {
      siteGroupId: (await makeSiteGroup(db, { resellerId: reseller.id })).id,
    });
    const account = await makeAccount(db, { siteId: site.id });
    const otherAccount = await makeAccount(db, { siteId: (await makeSite(db)).id });
    const signedIn = async (grant: (id: number) => Promise<void>) => {
      const user = await makeUser(db);
      await grant(user.id);
      return { id: user.id, client: await t.client().signIn(user.username, user.password as string) };
    };
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
    const administrator = await makeUser(db);
    await grantManagerOf(db, administrator.id, 'admin');
    await grantAccountAccess(db, administrator.id, account.id, 'Editor');
    const otherSiteUser = await makeUser(db);
    await grantAccountAccess(db, otherSiteUser.id, otherAccount.id, 'Editor');
    const inScope = await makeUser(db);
    await grantAccountAccess(db, inScope.id, account.id, 'Editor');
    Object.assign(w, {
      siteId: site.id,
      accountId: account.id,
      otherAccountId: otherAccount.id,
      adminId: admin?.id as number,
      roles: {
        editor: (await findRoleByName(db, 'Editor')).id,
        viewer: (await findRoleByName(db, 'Viewer')).id,
      },
      actors: {
        admin: { id: admin?.id as number, client: await t.admin() },
        reseller: await signedIn((id) => grantManagerOf(db, id, 'reseller', reseller.id)),
        site: await signedIn((id) => grantManagerOf(db, id, 'site', site.id)),
        accountManager: await signedIn((id) => grantAccountAccess(db, id, account.id, 'Account Manager')),
        user: await signedIn((id) => grantAccountAccess(db, id, account.id, 'Editor')),
      },
      administrator: {
        id: administrator.id,
        username: administrator.username,
        password: administrator.password as string,
        email: administrator.email,
        client: await t.client().signIn(administrator.username, administrator.password as string),
      },
      otherSiteUser: { id: otherSiteUser.id, email: otherSiteUser.email },
      inScope: { id: inScope.id, username: inScope.username, password: inScope.password as string },
    });
  });
  afterAll(() => t.close());

  const targetId = (actor: ActorName, target: TargetName) =>
    target === 'self'
      ? w.actors[actor].id
      : target === 'administrator'
        ? w.administrator.id
        : target === 'otherSiteUser'
          ? w.otherSiteUser.id
          : w.inScope.id;

  /**
   * Everything about a user that a management route could change (in one query), to prove that a
   * refusal changed nothing. Sessions leave out when they were last seen.
   */
  const fingerprint = async (userId: number) => {
    const rows = (table: string, order: string, where = 'x.user_id = users.id') =>
      `(select coalesce(json_agg(x order by ${order}), '[]') from ${table} x where ${where})`;
    const [row] = await t.ctx.db
      .select({
        print: sql<string>`${sql.raw(`json_build_object(
          'user', row_to_json(users.*),
          'access', ${rows('account_access', 'x.account_id')},
          'grants', ${rows('manager_grants', 'x.id')},
          'extraData', ${rows('extra_data', 'x.key', "x.scope = 'user' and x.scope_id = users.id")},
          'keyShortcuts', ${rows('key_shortcut_sets', 'x.id')},
          'settings', ${rows('notification_settings', 'x.type')},
          'notifications', ${rows('user_notifications', 'x.id')},
          'tokens', ${rows('password_tokens', 'x.token_hash')},
          'recoveryCodes', ${rows('mfa_recovery_codes', 'x.code_hash')},
          'edgeServers', (select coalesce(json_agg(x.id order by x.id), '[]') from edge_servers x where x.user_id = users.id),
          'sessions', (select coalesce(json_agg(json_build_object('id', x.public_id, 'ended', x.ended_at, 'account', x.account_id) order by x.public_id), '[]') from sessions x where x.user_id = users.id)
        )::text`)}`,
      })
      .from(users)
      .where(eq(users.id, userId));
    return row?.print;
  };

  let serial = 0;
  const unique = () => {
    serial += 1;
    return `m${serial}`;
  };

  type Route = {
    name: string;
    /** Sets up what the call acts on, before the target's fingerprint is taken. */
    prepare?: (id: number) => Promise<number>;
    call: (client: TestClient, id: number, prepared: number) => Promise<TestResponse>;
    /** The expected status; 'skip' where the pair says nothing (e.g. making oneself a manager). */
    expect: (actor: ActorName, target: TargetName) => number | 'skip';
    /** Puts an allowed change back, so that every pair starts from the same world. */
    undo?: (id: number) => Promise<void>;
  };
  const ok = 200;
  const managedOr404 = (actor: ActorName, target: TargetName) => (manages(actor, target) ? ok : 404);
  const selfOrAdminElse403 = (actor: ActorName, target: TargetName) =>
    target === 'self' || actor === 'admin' ? ok : 403;
  const selfElse403 = (_actor: ActorName, target: TargetName) => (target === 'self' ? ok : 403);
  const adminElse403 = (actor: ActorName) => (actor === 'admin' ? ok : 403);
  const del = (client: TestClient, url: string) => client.request({ method: 'DELETE', url });
  const restoreAccess = async (id: number) => {
    // Back to the world's access: the administrator and the in-scope user are Editors of the account.
    const db = t.ctx.db;
    const original = id === w.administrator.id || id === w.inScope.id;
    await db
      .delete(accountAccess)
      .where(and(eq(accountAccess.userId, id), eq(accountAccess.accountId, w.accountId)));
    if (original) await grantAccountAccess(db, id, w.accountId, 'Editor');
  };

  const routes: Route[] = [
    { name: 'GET /api/users/{id}', call: (c, id) => c.get(`/api/users/${id}`), expect: managedOr404 },
    {
      name: 'POST /api/users/{id}',
      call: (c, id) => c.post(`/api/users/${id}`, { fullname: `Renamed ${unique()}` }),
      expect: managedOr404,
    },
    {
      name: 'GET /api/users/{id}/extraData',
      call: (c, id) => c.get(`/api/users/${id}/extraData`),
      expect: managedOr404,
    },
    {
      name: 'POST /api/users/{id}/extraData',
      call: (c, id) => c.post(`/api/users/${id}/extraData`, { [extraDataStoredKey('desk')]: unique() }),
      expect: managedOr404,
    },
    {
      name: 'GET /api/keyshortcuts?userId',
      call: (c, id) => c.get(`/api/keyshortcuts?userId=${id}`),
      expect: managedOr404,
    },
    {
      name: 'GET /api/keyshortcutsAccessLevel?userId',
      call: (c, id) => c.get(`/api/keyshortcutsAccessLevel?userId=${id}`),
      expect: managedOr404,
    },
    {
      name: "PUT /api/keyshortcuts/{id} of a user's own set",
      prepare: async (id) => {
        const [set] = await t.ctx.db
          .insert(keyShortcutSets)
          .values({ name: `Own ${unique()}`, level: 'user', userId: id })
          .returning({ id: keyShortcutSets.id });
        return set?.id as number;
      },
      call: (c, id, setId) =>
        c.request({
          method: 'PUT',
          url: `/api/keyshortcuts/${setId}`,
          body: { name: `Changed ${unique()}`, parentId: null, visible: true, level: 'user', userId: id },
        }),
      // User-level sets are their owner's, and the administrators' (DESIGN.md Rights).
      expect: selfOrAdminElse403,
      undo: async (id) => {
        await t.ctx.db.delete(keyShortcutSets).where(eq(keyShortcutSets.userId, id));
      },
    },
    {
      name: 'GET /api/users/{id}/notifications',
      call: (c, id) => c.get(`/api/users/${id}/notifications`),
      expect: selfOrAdminElse403,
    },
    {
      name: 'GET /api/users/{id}/notificationSettings',
      call: (c, id) => c.get(`/api/users/${id}/notificationSettings`),
      expect: selfOrAdminElse403,
    },
    {
      name: 'POST /api/users/{id}/notificationSettings',
      call: (c, id) => c.post(`/api/users/${id}/notificationSettings`, { add: [{ type: 'email' }] }),
      expect: selfElse403,
      undo: async (id) => {
        await t.ctx.db.delete(notificationSettings).where(eq(notificationSettings.userId, id));
      },
    },
    {
      name: 'POST /api/users/{id}/setPassword',
      call: (c, id) =>
        c.post(`/api/users/${id}/setPassword`, {
          currentPassword: 'Passw0rd!',
          newPassword: 'N3w-Passw0rd!',
        }),
      // Setting one's own password is the password tests' subject; nobody sets another's.
      expect: (_actor, target) => (target === 'self' ? 'skip' : 403),
    },
    {
      name: 'GET /api/users/{id}/mfa',
      call: (c, id) => c.get(`/api/users/${id}/mfa`),
      expect: selfOrAdminElse403,
    },
    {
      name: 'POST /api/users/{id}/mfa/enrol',
      call: (c, id) => c.post(`/api/users/${id}/mfa/enrol`),
      expect: selfElse403,
      undo: async (id) => {
        await t.ctx.db.update(users).set({ mfaPendingSecret: null }).where(eq(users.id, id));
      },
    },
    {
      name: 'POST /api/users/{id}/mfa/reset',
      call: (c, id) => c.post(`/api/users/${id}/mfa/reset`),
      expect: adminElse403,
      undo: async (id) => {
        await t.ctx.db.delete(userNotifications).where(eq(userNotifications.userId, id));
      },
    },
    {
      name: 'POST /api/users/{id}/edgeServers',
      call: (c, id) => c.post(`/api/users/${id}/edgeServers`, { name: `Edge ${unique()}` }),
      expect: selfOrAdminElse403,
      undo: async (id) => {
        await t.ctx.db.delete(edgeServers).where(eq(edgeServers.userId, id));
      },
    },
    {
      name: 'POST /api/accounts/{id}/userAccess',
      call: (c, id) =>
        c.post(`/api/accounts/${w.accountId}/userAccess`, { data: [{ userId: id, roleId: w.roles.viewer }] }),
      expect: (actor, target) =>
        target === 'self' ? 'skip' : actor === 'user' ? 403 : manages(actor, target) ? ok : 403,
      undo: restoreAccess,
    },
    {
      name: 'POST /api/accounts/{id}/userAccess/{userId}',
      call: (c, id) => c.post(`/api/accounts/${w.accountId}/userAccess/${id}`, { roleId: w.roles.viewer }),
      expect: (actor, target) =>
        target === 'self' ? 'skip' : actor === 'user' ? 403 : manages(actor, target) ? ok : 403,
      undo: restoreAccess,
    },
    {
      name: 'POST /api/managers/site/{userId}',
      call: (c, id) => c.post(`/api/managers/site/${id}`, { scopeId: w.siteId }),
      // Guarded by the site's right first (403), then by managing the person (404, as if missing).
      expect: (actor, target) =>
        target === 'self'
          ? 'skip'
          : actor === 'accountManager' || actor === 'user'
            ? 403
            : manages(actor, target)
              ? ok
              : 404,
      undo: async (id) => {
        await t.ctx.db
          .delete(managerGrants)
          .where(and(eq(managerGrants.userId, id), eq(managerGrants.scope, 'site')));
      },
    },
    {
      name: 'POST /api/managers/account/{userId}',
      call: (c, id) => c.post(`/api/managers/account/${id}`, { scopeId: w.accountId }),
      // Only site managers and above give the manager role.
      expect: (actor, target) =>
        target === 'self'
          ? 'skip'
          : actor === 'accountManager' || actor === 'user'
            ? 403
            : manages(actor, target)
              ? ok
              : 404,
      undo: restoreAccess,
    },
  ];

  it('notices any change in its fingerprint, so that "changed nothing" is a real check', async () => {
    const id = w.inScope.id;
    const first = await fingerprint(id);
    await w.actors.admin.client.post(`/api/users/${id}/extraData`, { [extraDataStoredKey('probe')]: 'x' });
    const second = await fingerprint(id);
    expect(second).not.toBe(first);
    await w.actors.admin.client.post(`/api/users/${id}/mfa/reset`);
    expect(await fingerprint(id)).not.toBe(second);
  });

  for (const route of routes) {
    it(`${route.name}: allowed only to those who manage the user; a refusal changes nothing`, async () => {
      const seen: string[] = [];
      for (const actor of ACTORS) {
        for (const target of TARGETS) {
          const expected = route.expect(actor, target);
          if (expected === 'skip') continue;
          const id = targetId(actor, target);
          const prepared = (await route.prepare?.(id)) ?? 0;
          const before = expected === ok ? undefined : await fingerprint(id);
          const response = await route.call(w.actors[actor].client, id, prepared);
          seen.push(`${actor}→${target}: ${response.status}`);
          expect(
            response.status,
            `${route.name} by ${actor} on ${target}: ${JSON.stringify(response.body)}`,
          ).toBe(expected);
          if (expected === ok) await route.undo?.(id);
          else
            expect(await fingerprint(id), `${route.name} by ${actor} on ${target} changed nothing`).toBe(
              before,
            );
        }
      }
      expect(seen.length).toBeGreaterThan(10);
    });
  }

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

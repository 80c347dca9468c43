import { extraDataStoredKey } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAccess, managerGrants } from '../src/modules/access/tables.ts';
import { apiTokens } from '../src/modules/api-tokens/tables.ts';
import { keyShortcutSets } from '../src/modules/config/tables.ts';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { notificationSettings, userNotifications } from '../src/modules/notifications/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { grantAccountAccess } from '../src/seed/factories.ts';
import { type TestApp, testDriver } from './harness.ts';

import {
  ACTORS,
  type ActorName,
  adminElse403,
  dropMatrixSessions,
  fingerprintOf,
  insertMatrixSession,
  type MatrixRoute,
  makeAccountManagerIn,
  managedOr404,
  manages,
  openRightsWorld,
  type RightsWorld,
  reopenSessionsEndedByAdmin,
  restoreAccessIn,
  selfElse403,
  selfOrAdminElse403,
  TARGETS,
  type TargetName,
  targetIdIn,
} from './rights-world.ts';

/**
 * DESIGN.md "Managing people" (issue 12 items 1, 2 and 11): every route that changes or reads a user
 * by id, called by each level of rights on an administrator, a user of another site and a user only in
 * the actor's scope. A refused call must change nothing about its target. The attack chains are in
 * rights-chains.test.ts.
 */
describe(`rights matrix: managing people (${testDriver()})`, () => {
  let t: TestApp;
  const w = {} as RightsWorld;
  beforeAll(async () => {
    Object.assign(w, await openRightsWorld());
    t = w.t;
  });
  afterAll(() => t.close());

  const targetId = (actor: ActorName, target: TargetName) => targetIdIn(w, actor, target);
  const fingerprint = (userId: number) => fingerprintOf(t, userId);
  const restoreAccess = (id: number) => restoreAccessIn(w, id);
  const ok = 200;

  let serial = 0;
  const unique = () => {
    serial += 1;
    return `m${serial}`;
  };

  const matrixSession = (userId: number, accountId?: number) => {
    serial += 1;
    return insertMatrixSession(t, serial, userId, accountId);
  };
  const routes: MatrixRoute[] = [
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
      name: 'POST /api/users/{id}/mfa/confirm',
      call: (c, id) => c.post(`/api/users/${id}/mfa/confirm`, { code: '123456' }),
      // Confirming one's own enrolment is the second-factor tests' subject; nobody confirms another's.
      expect: (_actor, target) => (target === 'self' ? 'skip' : 403),
    },
    {
      name: 'POST /api/users/{id}/mfa/disable',
      call: (c, id) => c.post(`/api/users/${id}/mfa/disable`, { code: '123456' }),
      expect: (_actor, target) => (target === 'self' ? 'skip' : 403),
    },
    {
      name: 'POST /api/users/{id}/notifications/{notificationId}',
      prepare: async (id) => {
        const [row] = await t.ctx.db
          .insert(userNotifications)
          .values({ userId: id, type: 'info', message: `Note ${unique()}` })
          .returning({ id: userNotifications.id });
        return row?.id as number;
      },
      call: (c, id, notificationId) =>
        c.post(`/api/users/${id}/notifications/${notificationId}`, { status: 'acknowledged' }),
      // Only the user themself acknowledges (an administrator may read them, not answer them).
      expect: selfElse403,
      reset: async (id) => {
        await t.ctx.db.delete(userNotifications).where(eq(userNotifications.userId, id));
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
      name: 'GET /api/users/{id}/apiTokens',
      call: (c, id) => c.get(`/api/users/${id}/apiTokens`),
      expect: adminElse403,
    },
    {
      name: 'POST /api/users/{id}/apiTokens/{tokenId}/trash',
      prepare: async (id) => {
        const [token] = await t.ctx.db
          .insert(apiTokens)
          .values({ userId: id, tokenHash: unique(), prefix: 'mca_', name: 'Matrix', scope: 'read' })
          .returning({ id: apiTokens.id });
        return token?.id as number;
      },
      call: (c, id, tokenId) => c.post(`/api/users/${id}/apiTokens/${tokenId}/trash`),
      expect: adminElse403,
      reset: async (id) => {
        await t.ctx.db.delete(apiTokens).where(eq(apiTokens.userId, id));
      },
    },
    {
      name: 'POST /api/users/{id}/sessions/trash',
      // Every target gets a session of its own to end (the caller's current session always stays).
      prepare: (id) => matrixSession(id),
      call: (c, id) => c.post(`/api/users/${id}/sessions/trash`),
      expect: adminElse403,
      // The world's signed-in clients are signed in again: their sessions are back as they were.
      reset: async (id) => {
        await dropMatrixSessions(t, id);
        await reopenSessionsEndedByAdmin(t, id);
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
      name: 'GET /api/users/{id}/edgeServers',
      call: (c, id) => c.get(`/api/users/${id}/edgeServers`),
      // A user's own edge servers (user context) are theirs and the administrators' (DESIGN.md Rights).
      expect: selfOrAdminElse403,
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
      name: 'POST /api/accounts/{id}/sessions/{sessionId}/trash',
      // Every target gets a session opened in the account (launched into it), which the call ends.
      prepare: (id) => matrixSession(id, w.accountId),
      call: (c, _id, session) =>
        c.post(`/api/accounts/${w.accountId}/sessions/matrix-session-${session}/trash`, {
          disconnectmessage: 'Disconnected by the rights matrix',
        }),
      // The account's managers (403 for anyone else), and then only a session the list shows: one of a user
      // they manage, else 404 as if missing (DESIGN.md "Managing people").
      expect: (actor, target) => (actor === 'user' ? 403 : manages(actor, target) ? ok : 404),
      reset: (id) => dropMatrixSessions(t, id),
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
    {
      name: 'DELETE /api/accounts/{id}/userAccess/{userId} of a user of the account',
      // Every target is given access to the account first (an Editor unless they have access already).
      prepare: async (id) => {
        const [access] = await t.ctx.db
          .select()
          .from(accountAccess)
          .where(and(eq(accountAccess.userId, id), eq(accountAccess.accountId, w.accountId)));
        if (!access) await grantAccountAccess(t.ctx.db, id, w.accountId, 'Editor');
        return 0;
      },
      call: (c, id) => c.request({ method: 'DELETE', url: `/api/accounts/${w.accountId}/userAccess/${id}` }),
      // Revoking needs only the account's management (it never reaches the person's other places); a
      // manager's own access is the site's managers' (their manager role).
      expect: (actor, target) =>
        actor === 'user' || (actor === 'accountManager' && target === 'self') ? 403 : ok,
      reset: restoreAccess,
    },
    {
      name: 'POST /api/accounts/{id}/userAccess/{userId} of a manager of the account',
      prepare: async (id) => {
        await makeAccountManagerIn(w, id);
        return 0;
      },
      call: (c, id) => c.post(`/api/accounts/${w.accountId}/userAccess/${id}`, { roleId: w.roles.viewer }),
      // Changing a manager's access is giving the manager role's right (site managers and above), and
      // managing the person: never a peer manager's (issue 30).
      expect: (actor, target) =>
        actor === 'accountManager' || actor === 'user' ? 403 : manages(actor, target) ? ok : 403,
      reset: restoreAccess,
    },
    {
      name: 'DELETE /api/managers/account/{userId} of a manager of the account',
      // Every target is made a manager of the account first: for the account manager actor, a peer.
      prepare: async (id) => {
        await makeAccountManagerIn(w, id);
        return 0;
      },
      call: (c, id) =>
        c.request({ method: 'DELETE', url: `/api/managers/account/${id}?scopeId=${w.accountId}` }),
      // A manager manages the people below them (issue 30): the site's managers and above take the manager
      // role away (revoking needs no management of the person's other places); a peer manager does not,
      // nor do they step down themselves.
      expect: (actor) => (actor === 'admin' || actor === 'reseller' || actor === 'site' ? ok : 403),
      reset: restoreAccess,
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

  it("POST /api/sessions/trash (everyone's sessions): administrators only; a refusal ends nobody's", async () => {
    const everyone = [
      ...new Set(TARGETS.flatMap((target) => ACTORS.map((actor) => targetId(actor, target)))),
    ];
    const before = await Promise.all(everyone.map(fingerprint));
    for (const actor of ACTORS.filter((name) => name !== 'admin')) {
      const response = await w.actors[actor].client.post('/api/sessions/trash');
      expect(response.status, `POST /api/sessions/trash by ${actor}`).toBe(403);
    }
    expect(await Promise.all(everyone.map(fingerprint))).toEqual(before);
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
          await route.reset?.(id);
        }
      }
      expect(seen.length).toBeGreaterThan(10);
    });
  }
});

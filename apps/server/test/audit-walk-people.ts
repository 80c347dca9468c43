import { and, eq, isNull, ne } from 'drizzle-orm';
import { sessions } from '../src/modules/auth/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { call, idOf, keep, type WalkStep, type WalkWorld } from './audit-walk-world.ts';
import {
  ADMIN_TEST_PASSWORD,
  eventually,
  freshTotp,
  type Results,
  readMailTexts,
  type TestApp,
  type TestClient,
} from './harness.ts';

/** Sign-in, passwords, second factor, tokens, organisation, users, access, invitations, sessions, managers. */
export const PEOPLE_STEPS: WalkStep[] = [
  {
    op: 'postLogin',
    run: (t, w) =>
      t.client().post('/api/login', { username: w.person.username, password: w.person.password }),
  },
  { op: 'postPasswordRules', run: (_t, w) => w.admin.client.post('/api/passwordRules', {}) },
  {
    op: 'postPasswordReset',
    run: (t, w) => t.client().post('/api/passwordReset', { username: w.person.username }),
  },
  {
    op: 'postLoginLockoutsLift',
    run: (_t, w) => w.admin.client.post('/api/loginLockouts/lift', { kind: 'ip', key: '203.0.113.9' }),
  },
  {
    op: 'postUsersByIdMfaEnrol',
    run: async (_t, w, made) => {
      const answer = await w.person.client.post<Results<{ secret: string }>>(
        `/api/users/${w.person.id}/mfa/enrol`,
      );
      made.mfaSecret = answer.body.results.secret;
      return answer;
    },
  },
  {
    op: 'postUsersByIdMfaConfirm',
    run: async (_t, w, made) => {
      const answer = await w.person.client.post<Results<{ recoveryCodes: string[] }>>(
        `/api/users/${w.person.id}/mfa/confirm`,
        { code: await freshTotp(made.mfaSecret as string) },
      );
      made.recoveryCode = answer.body.results.recoveryCodes[0] as string;
      return answer;
    },
  },
  {
    op: 'postUsersByIdMfaDisable',
    run: (_t, w, made) =>
      w.person.client.post(`/api/users/${w.person.id}/mfa/disable`, { code: made.recoveryCode }),
  },
  { op: 'postUsersByIdMfaReset', run: (_t, w) => w.admin.client.post(`/api/users/${w.person.id}/mfa/reset`) },
  {
    op: 'postUsersByIdSetPassword',
    run: (_t, w) =>
      w.person.client.post(`/api/users/${w.person.id}/setPassword`, {
        currentPassword: w.person.password,
        newPassword: 'Walk-Passw0rd-2!',
      }),
  },
  {
    op: 'postMeReauth',
    run: (_t, w) => w.person.client.post('/api/me/reauth', { password: 'Walk-Passw0rd-2!' }),
  },
  {
    op: 'postMeApiTokens',
    run: async (_t, w, made) => {
      const answer = await w.person.client.post('/api/me/apiTokens', { name: 'walk', scope: 'read' });
      made.personToken = idOf(answer);
      return answer;
    },
  },
  {
    op: 'postUsersByIdApiTokensByTokenIdTrash',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/users/${w.person.id}/apiTokens/${made.personToken}/trash`),
  },
  {
    op: 'postMeApiTokensByIdTrash',
    prepare: async (_t, w, made) => {
      made.adminToken = idOf(await w.admin.client.post('/api/me/apiTokens', { name: 'gone', scope: 'read' }));
    },
    run: (_t, w, made) => w.admin.client.post(`/api/me/apiTokens/${made.adminToken}/trash`),
  },
  {
    op: 'postMeIdentitiesLink',
    run: (_t, w) => w.admin.client.post('/api/me/identities/link', { returnTo: '/' }),
  },
  {
    op: 'postMeIdentitiesByIdTrash',
    run: (_t, w) => w.admin.client.post(`/api/me/identities/${w.identity}/trash`),
  },
  {
    op: 'postResellers',
    run: async (_t, w, made) =>
      keep(made, 'reseller', await w.admin.client.post('/api/resellers', { name: 'Walk reseller' })),
  },
  {
    op: 'postResellersById',
    run: (_t, w, made) => w.admin.client.post(`/api/resellers/${made.reseller}`, { name: 'Walk reseller 2' }),
  },
  {
    op: 'postSiteGroups',
    run: async (_t, w, made) =>
      keep(
        made,
        'siteGroup',
        await w.admin.client.post('/api/siteGroups', { name: 'Walk group', resellerId: made.reseller }),
      ),
  },
  {
    op: 'postSiteGroupsById',
    run: (_t, w, made) => w.admin.client.post(`/api/siteGroups/${made.siteGroup}`, { name: 'Walk group 2' }),
  },
  {
    op: 'postSites',
    run: async (_t, w, made) =>
      keep(
        made,
        'site',
        await w.admin.client.post('/api/sites', { name: 'Walk site', siteGroupId: made.siteGroup }),
      ),
  },
  {
    op: 'postSitesById',
    run: (_t, w, made) => w.admin.client.post(`/api/sites/${made.site}`, { name: 'Walk site 2' }),
  },
  {
    op: 'postAccounts',
    run: async (_t, w, made) =>
      keep(
        made,
        'account',
        await w.admin.client.post('/api/accounts', { name: 'walk-account', siteId: made.site }),
      ),
  },
  {
    op: 'postAccountsById',
    run: (_t, w) => w.admin.client.post(`/api/accounts/${w.account.id}`, { contactName: 'Walker' }),
  },
  {
    op: 'postAccountsByIdLaunch',
    run: (_t, w) => w.editor.client.post(`/api/accounts/${w.account.id}/launch`, {}),
  },
  {
    op: 'postUsers',
    run: (_t, w) =>
      w.admin.client.post('/api/users', {
        users: [{ fullname: 'Walk New', company: 'Walk', email: 'walk.new@example.com' }],
        siteId: w.site.id,
      }),
  },
  {
    op: 'postUsersById',
    run: (_t, w) => w.admin.client.post(`/api/users/${w.person.id}`, { fullname: 'Walk Person' }),
  },
  {
    op: 'postAccountsByIdUserAccess',
    run: async (t, w) => {
      const [other] = await t.ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'walk.new@example.com'));
      return w.admin.client.post(`/api/accounts/${w.account.id}/userAccess`, {
        data: [{ userId: other?.id, roleId: w.editorRoleId }],
      });
    },
  },
  {
    op: 'postAccountsByIdUserAccessByUserId',
    run: (_t, w) =>
      w.admin.client.post(`/api/accounts/${w.account.id}/userAccess/${w.person.id}`, {
        roleId: w.editorRoleId,
      }),
  },
  {
    op: 'deleteAccountsByIdUserAccessByUserId',
    run: async (t, w) => {
      const [other] = await t.ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, 'walk.new@example.com'));
      return call(w.admin.client, {
        method: 'DELETE',
        url: `/api/accounts/${w.account.id}/userAccess/${other?.id}`,
      });
    },
  },
  {
    op: 'postUsersByIdNotificationsByNotificationId',
    run: (_t, w) =>
      w.person.client.post(`/api/users/${w.person.id}/notifications/${w.notification}`, {
        status: 'acknowledged',
      }),
  },
  {
    op: 'postUsersByIdNotificationSettings',
    run: (_t, w) =>
      w.person.client.post(`/api/users/${w.person.id}/notificationSettings`, { add: [{ type: 'email' }] }),
  },
  {
    op: 'postAccountsByIdInvites',
    run: async (_t, w, made) => {
      const answer = await w.admin.client.post<Results<{ id: number }[]>>(
        `/api/accounts/${w.account.id}/invites`,
        {
          data: [
            { email: 'walk.guest@example.com', roleId: w.editorRoleId },
            { email: 'walk.joiner@example.com', roleId: w.viewerRoleId },
          ],
        },
      );
      made.invite = answer.body.results[0]?.id as number;
      return answer;
    },
  },
  {
    op: 'postAccountsByIdInvitesByInviteId',
    run: (_t, w, made) =>
      w.admin.client.post(`/api/accounts/${w.account.id}/invites/${made.invite}`, { roleId: w.viewerRoleId }),
  },
  {
    op: 'postAccountsByIdInvitesByInviteIdTrash',
    run: (_t, w, made) => w.admin.client.post(`/api/accounts/${w.account.id}/invites/${made.invite}/trash`),
  },
  {
    op: 'postInvitationsByTokenAccept',
    run: async (t) => {
      // The invitation's mail is sent by the mail job after its commit: waited for, not read at once.
      const mail = await eventually(
        () => readMailTexts(t.config).findLast((text) => text.includes('To: walk.joiner@example.com')),
        15_000,
      );
      const token = mail.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1];
      return t.client().post(`/api/invitations/${token}/accept`, {
        fullname: 'Walk Joiner',
        newPassword: 'J0iner-Passw0rd!',
      });
    },
  },
  {
    op: 'postAccountsByIdSessionsBySessionIdTrash',
    prepare: (t, w) => personSessionIn(t, w, 'audit-walk-session'),
    run: (_t, w) =>
      w.admin.client.post(`/api/accounts/${w.account.id}/sessions/audit-walk-session/trash`, {
        disconnectmessage: 'Bye',
      }),
  },
  {
    op: 'postDisconnection',
    prepare: (t, w) => personSessionIn(t, w, 'audit-walk-session-2'),
    run: (_t, w) =>
      w.admin.client.post('/api/disconnection', {
        byUserId: w.adminId,
        accountId: w.account.id,
        sessionId: 'audit-walk-session-2',
        message: 'Bye',
      }),
  },
  {
    op: 'postMeSessionsByIdTrash',
    // The password change ended the person's other sessions: one more, from another browser.
    prepare: async (t, w) => {
      await t.client().signIn(w.person.username, 'Walk-Passw0rd-2!');
    },
    run: async (t, w) => {
      const [other] = await t.ctx.db
        .select({ publicId: sessions.publicId })
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, w.person.id),
            ne(sessions.publicId, w.person.session),
            isNull(sessions.endedAt),
          ),
        );
      return w.person.client.post(`/api/me/sessions/${other?.publicId}/trash`, {});
    },
  },
  { op: 'postMeSessionsTrash', run: (_t, w) => w.person.client.post('/api/me/sessions/trash', {}) },
  {
    op: 'postManagersByTypeByUserId',
    run: (_t, w) => w.admin.client.post(`/api/managers/site/${w.person.id}`, { scopeId: w.site.id }),
  },
  {
    op: 'deleteManagersByTypeByUserId',
    run: (_t, w) =>
      call(w.admin.client, {
        method: 'DELETE',
        url: `/api/managers/site/${w.person.id}?scopeId=${w.site.id}`,
      }),
  },
];

/** Steps that end sessions: the walk's last. */
export const CLOSING_STEPS: WalkStep[] = [
  {
    op: 'postUsersByIdSessionsTrash',
    run: (_t, w) => w.admin.client.post(`/api/users/${w.person.id}/sessions/trash`, {}),
  },
  { op: 'postSessionsTrash', run: (_t, w) => w.admin.client.post('/api/sessions/trash', {}) },
  {
    op: 'postLogout',
    prepare: async (t, _w, made) => {
      made.leaving = await t.client().signIn('admin', ADMIN_TEST_PASSWORD);
    },
    run: (_t, _w, made) => (made.leaving as TestClient).post('/api/logout'),
  },
];

/** A session of the person opened in the world's account, to be ended by someone else. */
const personSessionIn = async (t: TestApp, w: WalkWorld, publicId: string) => {
  await t.ctx.db.insert(sessions).values({
    idHash: `${publicId}-hash`,
    publicId,
    userId: w.person.id,
    accountId: w.account.id,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
};

import { MSG_SESSIONS_ENDED_BY_ADMIN } from '@media/contract';
import { and, eq, like, sql } from 'drizzle-orm';
import { accountAccess } from '../src/modules/access/tables.ts';
import { sessions } from '../src/modules/auth/tables.ts';
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
import { buildTestApp, type TestApp, type TestClient, type TestResponse } from './harness.ts';

/**
 * DESIGN.md "Managing people" (issue 12 items 1, 2 and 11): every route that changes or reads a user
 * by id, called by each level of rights on an administrator, a user of another site and a user only in
 * the actor's scope. A refused call must change nothing about its target.
 */
export const ACTORS = ['admin', 'reseller', 'site', 'accountManager', 'user'] as const;
export type ActorName = (typeof ACTORS)[number];
export const TARGETS = ['administrator', 'otherSiteUser', 'inScope', 'self'] as const;
export type TargetName = (typeof TARGETS)[number];

/**
 * Who manages whom: administrators everyone; the reseller, site and account managers of the world
 * only the user whose one place (an account of their site) they manage; a plain user nobody else.
 */
export const manages = (actor: ActorName, target: TargetName) =>
  target === 'self' || actor === 'admin' || (target === 'inScope' && actor !== 'user');

export type Session = { sessionId: string; user: number };

/** The world of the rights tests: an account of a site, actors at each level of rights, and the targets. */
export type RightsWorld = {
  t: TestApp;
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

export const openRightsWorld = async (): Promise<RightsWorld> => {
  const t = await buildTestApp();
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
  return {
    t,
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
  };
};

export const targetIdIn = (w: RightsWorld, actor: ActorName, target: TargetName) =>
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
export const fingerprintOf = async (t: TestApp, userId: number) => {
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
        'apiTokens', ${rows('api_tokens', 'x.id')},
        'edgeServers', (select coalesce(json_agg(x.id order by x.id), '[]') from edge_servers x where x.user_id = users.id),
        'sessions', (select coalesce(json_agg(json_build_object('id', x.public_id, 'ended', x.ended_at, 'account', x.account_id) order by x.public_id), '[]') from sessions x where x.user_id = users.id)
      )::text`)}`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.print;
};

export const del = (client: TestClient, url: string) => client.request({ method: 'DELETE', url });
/** Back to the world's access after an allowed change. */
export const restoreAccessIn = async (w: RightsWorld, id: number) => {
  // Back to the world's access: the administrator, the in-scope user and the user actor are Editors of the
  // account, the account manager actor its manager; nobody else has access to it.
  const db = w.t.ctx.db;
  const original =
    id === w.actors.accountManager.id
      ? 'Account Manager'
      : [w.administrator.id, w.inScope.id, w.actors.user.id].includes(id)
        ? 'Editor'
        : undefined;
  await db
    .delete(accountAccess)
    .where(and(eq(accountAccess.userId, id), eq(accountAccess.accountId, w.accountId)));
  if (original) await grantAccountAccess(db, id, w.accountId, original);
};

/** Makes the user a manager of the world's account (a peer of the account manager actor). */
export const makeAccountManagerIn = async (w: RightsWorld, id: number) => {
  const db = w.t.ctx.db;
  await db
    .delete(accountAccess)
    .where(and(eq(accountAccess.userId, id), eq(accountAccess.accountId, w.accountId)));
  await grantAccountAccess(db, id, w.accountId, 'Account Manager');
};

/** A route of the rights matrix (rights-matrix.test.ts): how it is called on a target, and what each pair expects. */
export type MatrixRoute = {
  name: string;
  /** Sets up what the call acts on, before the target's fingerprint is taken. */
  prepare?: (id: number) => Promise<number>;
  call: (client: TestClient, id: number, prepared: number) => Promise<TestResponse>;
  /** The expected status; 'skip' where the pair says nothing (e.g. making oneself a manager). */
  expect: (actor: ActorName, target: TargetName) => number | 'skip';
  /** Puts an allowed change back, so that every pair starts from the same world. */
  undo?: (id: number) => Promise<void>;
  /** Puts what prepare changed back after every pair, allowed or refused. */
  reset?: (id: number) => Promise<void>;
};

/** The matrix's usual expectations: 200 allowed, else the refusal the route gives. */
export const managedOr404 = (actor: ActorName, target: TargetName) => (manages(actor, target) ? 200 : 404);
export const selfOrAdminElse403 = (actor: ActorName, target: TargetName) =>
  target === 'self' || actor === 'admin' ? 200 : 403;
export const selfElse403 = (_actor: ActorName, target: TargetName) => (target === 'self' ? 200 : 403);
export const adminElse403 = (actor: ActorName) => (actor === 'admin' ? 200 : 403);

/** A live session of a user for a matrix call to end (named matrix-session-N; answers N). */
export const insertMatrixSession = async (t: TestApp, serial: number, userId: number, accountId?: number) => {
  await t.ctx.db.insert(sessions).values({
    idHash: `matrix-session-hash-${serial}`,
    publicId: `matrix-session-${serial}`,
    userId,
    expiresAt: new Date(Date.now() + 3_600_000),
    accountId,
  });
  return serial;
};
export const dropMatrixSessions = async (t: TestApp, userId: number) => {
  await t.ctx.db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), like(sessions.publicId, 'matrix-session-%')));
};
/** The world's signed-in clients signed in again after an administrator ended their sessions. */
export const reopenSessionsEndedByAdmin = async (t: TestApp, userId: number) => {
  await t.ctx.db
    .update(sessions)
    .set({ endedAt: null, disconnectMessage: null })
    .where(and(eq(sessions.userId, userId), eq(sessions.disconnectMessage, MSG_SESSIONS_ENDED_BY_ADMIN)));
};

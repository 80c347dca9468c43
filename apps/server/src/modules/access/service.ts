import {
  type Ancestry,
  CHANNELS,
  MSG_ADD_USER_REFUSED,
  MSG_MANAGER_ROLE_NOT_SELECTABLE,
  mayChangeManagerStanding,
  PERMISSIONS,
  type RightsSnapshot,
} from '@media/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { sessions } from '../auth/tables.ts';
import * as repo from './repo.ts';
import { findAncestry, manageableUserIds, requireRight, visibleSiteIds } from './rights.ts';
import { accountAccess, roles } from './tables.ts';

// The rights queries (may this user do this, which sites and users they see); other modules reach them here.
export {
  canReadChannel,
  findAncestry,
  loadRights,
  manageableBy,
  manageableUserIds,
  managedSiteIds,
  mayManageEdgeServer,
  mayManageUser,
  requireReferenceRight,
  requireRight,
  requireUserManagement,
  visibleSiteIds,
} from './rights.ts';

export const listRoles = async (options: { db: Db; actor: Actor; offset: number; limit: number }) => {
  // Any signed-in user may read the role names; the actor's presence is the check.
  void options.actor;
  return repo.findCloudRolesPage(options.db, options.offset, options.limit);
};

export const ensureDefaultRoles = (db: DbOrTx) => repo.insertMissingDefaultRoles(db);

export const grantManager = (
  db: DbOrTx,
  grant: {
    userId: number;
    scope: 'admin' | 'reseller' | 'sitegroup' | 'site';
    scopeId?: number | null;
    roleId?: number | null;
  },
) => repo.insertManagerGrant(db, grant);

export const listPermissions = () => [...PERMISSIONS];

/** Roles of a site, for anyone who can see the site. */
export const listAccountRoles = async (options: { ctx: AppContext; actor: Actor; siteId: number }) => {
  const { db } = options.ctx;
  if (!(await findAncestry(db, { kind: 'site', id: options.siteId }))) throw notFound('Site');
  const visible = await visibleSiteIds(db, await options.actor.rights());
  if (visible !== 'all' && !visible.includes(options.siteId)) throw notFound('Site');
  return repo.findSiteRoles(db, options.siteId);
};

/** Account managers and above manage an account's users, invites and sessions. */
export const requireAccountManagement = async (ctx: AppContext, actor: Actor, accountId: number) => {
  const ancestry = await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  return { ancestry: ancestry as Ancestry & { siteId: number }, rights: await actor.rights() };
};

/**
 * A role given on an account must be offered on its site; manager roles only by site managers and above
 * (spec1 §6: they cannot be selected in the access list).
 */
export const checkGrantableRole = async (
  db: DbOrTx,
  rights: RightsSnapshot,
  ancestry: Ancestry & { siteId: number },
  roleId: number,
) => {
  const role = await repo.findRole(db, roleId);
  if (!role || (role.siteId !== null && role.siteId !== ancestry.siteId))
    throw badRequest('Role not found', { roleId: 'Role not found' });
  if (role.isManager && !mayChangeManagerStanding(rights, 'account', ancestry))
    throw forbidden(MSG_MANAGER_ROLE_NOT_SELECTABLE);
  return role;
};

export const listAccountUsers = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  offset: number;
  limit: number;
}) => {
  await requireAccountManagement(options.ctx, options.actor, options.accountId);
  return repo.findAccountUsersPage(options.ctx.db, options.accountId, options.offset, options.limit);
};

/**
 * Giving or changing someone's access is managing them (DESIGN.md "Managing people"): only users the
 * actor may manage; anyone else is invited by email and joins by accepting. A missing user id answers
 * the same 403, so that the answer never tells which ids exist. Removing access needs only the
 * account's management: revoking must always work, and it never reaches the person's other places.
 */
const requireManageable = async (ctx: AppContext, actor: Actor, userIds: number[]) => {
  const manageable = await manageableUserIds(ctx.db, actor, userIds);
  const refused = userIds.filter((id) => !manageable.has(id));
  if (refused.length) throw forbidden(`${MSG_ADD_USER_REFUSED} (user ${refused.join(', ')})`);
};

type AccessChange = { userId: number; roleId: number; version?: string | null; skin?: string | null };

/** Adds or updates users' access in one transaction; nothing changes when one row is refused. */
export const saveAccess = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  changes: AccessChange[];
}) => {
  const { ctx, actor, accountId, changes } = options;
  const { ancestry, rights } = await requireAccountManagement(ctx, actor, accountId);
  if (!rights.admin && changes.some((c) => c.version !== undefined || c.skin !== undefined))
    throw forbidden('Only administrators may set the version or skin of a user');
  const userIds = changes.map((c) => c.userId);
  for (const roleId of new Set(changes.map((c) => c.roleId)))
    await checkGrantableRole(ctx.db, rights, ancestry, roleId);
  // A manager's access is changed only by those who could have given it, never by a peer manager.
  const current = await repo.findAccess(ctx.db, accountId, userIds);
  if (current.some((row) => row.isManager) && !mayChangeManagerStanding(rights, 'account', ancestry))
    throw forbidden(MSG_MANAGER_ROLE_NOT_SELECTABLE);
  await requireManageable(ctx, actor, userIds);
  await ctx.db.transaction(async (tx) => {
    for (const change of changes) await repo.upsertAccess(tx, { accountId, ...change });
  });
  await ctx.publish(CHANNELS.userAccess(accountId), userIds);
  return (await repo.findAccountUsersPage(ctx.db, accountId, 0, 10_000)).rows.filter((row) =>
    userIds.includes(row.id),
  );
};

/** Any user's access may be removed by the account's managers (a manager's, by site managers and above). */
export const removeAccess = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  userId: number;
}) => {
  const { ctx, actor, accountId, userId } = options;
  const { ancestry, rights } = await requireAccountManagement(ctx, actor, accountId);
  const [current] = await repo.findAccess(ctx.db, accountId, [userId]);
  if (!current) throw notFound('User access');
  if (current.isManager && !mayChangeManagerStanding(rights, 'account', ancestry))
    throw forbidden(MSG_MANAGER_ROLE_NOT_SELECTABLE);
  await repo.deleteAccess(ctx.db, accountId, userId);
  await ctx.publish(CHANNELS.userAccess(accountId), [userId]);
  return { ok: true as const };
};

/**
 * The actor's role in an account: the one the session acts as there (Edit as role), else the user's own;
 * null without access. `acting` tells which.
 */
export const roleInAccount = async (db: DbOrTx, actor: Actor, accountId: number) => {
  // The role the session acts as in the account, and the user's own there, in one read.
  const rows = await db
    .select({ id: roles.id, name: roles.name, permissions: roles.permissions, acting: sql<boolean>`true` })
    .from(sessions)
    .innerJoin(roles, eq(roles.id, sessions.actingRoleId))
    .where(and(eq(sessions.idHash, actor.sessionIdHash), eq(sessions.accountId, accountId)))
    .unionAll(
      db
        .select({
          id: roles.id,
          name: roles.name,
          permissions: roles.permissions,
          acting: sql<boolean>`false`,
        })
        .from(accountAccess)
        .innerJoin(roles, eq(roles.id, accountAccess.roleId))
        .where(and(eq(accountAccess.accountId, accountId), eq(accountAccess.userId, actor.userId))),
    );
  return rows.find((row) => row.acting) ?? rows[0] ?? null;
};

/** The permissions of the actor's role in an account (spec1 §7 permissions list); none without access. */
export const accountPermissions = async (
  db: DbOrTx,
  actor: Actor,
  accountId: number,
): Promise<ReadonlySet<string>> => new Set((await roleInAccount(db, actor, accountId))?.permissions ?? []);

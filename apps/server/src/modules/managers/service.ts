import {
  CHANNELS,
  type ManagerType,
  MSG_ALREADY_MANAGER,
  MSG_LAST_ADMIN,
  MSG_MANAGER_NOT_BELOW,
  mayChangeManagerStanding,
  type Right,
  ROLE_ACCOUNT_MANAGER,
  ROLE_EDITOR,
} from '@media/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EntityRef } from '../../platform/permissions.ts';
import { upsertAccess } from '../access/repo.ts';
import { checkGrantableRole, requireRight, requireUserManagement } from '../access/service.ts';
import { roles } from '../access/tables.ts';
import * as repo from './repo.ts';

/** Who may see and change the managers of each type, and of what. */
const GUARD: Record<ManagerType, { right: Right; entity: (id: number) => EntityRef }> = {
  admin: { right: 'cloud.admin', entity: () => ({ kind: 'cloud' }) },
  reseller: { right: 'reseller.manage', entity: (id) => ({ kind: 'reseller', id }) },
  sitegroup: { right: 'siteGroup.manage', entity: (id) => ({ kind: 'siteGroup', id }) },
  site: { right: 'site.manage', entity: (id) => ({ kind: 'site', id }) },
  account: { right: 'account.manage', entity: (id) => ({ kind: 'account', id }) },
};

const guard = async (ctx: AppContext, actor: Actor, type: ManagerType, scopeId: number | undefined) => {
  if (type !== 'admin' && scopeId === undefined)
    throw badRequest('scopeId is required', { scopeId: 'Required' });
  const { right, entity } = GUARD[type];
  return requireRight(ctx.db, actor, right, entity(scopeId ?? 0));
};

/**
 * Giving or taking a manager standing: the scope's right (as for the list), then the standing's own right
 * (MANAGER_STANDING_RIGHT): an account's managers list their peers but do not demote them (issue 30).
 */
const guardStanding = async (
  ctx: AppContext,
  actor: Actor,
  type: ManagerType,
  scopeId: number | undefined,
) => {
  const ancestry = await guard(ctx, actor, type, scopeId);
  if (!mayChangeManagerStanding(await actor.rights(), type, ancestry)) throw forbidden(MSG_MANAGER_NOT_BELOW);
  return ancestry;
};

export const listManagers = async (options: {
  ctx: AppContext;
  actor: Actor;
  type: ManagerType;
  scopeId?: number;
  roleId?: number;
  offset: number;
  limit: number;
}) => {
  const { ctx, actor, type } = options;
  await guard(ctx, actor, type, options.scopeId);
  if (type === 'account')
    return repo.findAccountManagersPage(ctx.db, { ...options, accountId: options.scopeId as number });
  return repo.findGrantManagersPage(ctx.db, { ...options, scope: type });
};

const roleByName = async (ctx: AppContext, name: string) => {
  const [role] = await ctx.db
    .select()
    .from(roles)
    .where(and(eq(roles.name, name), isNull(roles.siteId)));
  if (!role) throw notFound('Role');
  return role;
};

/** Making someone a manager is managing them: only a user the actor may manage (else 404, as if missing). */
export const addManager = async (options: {
  ctx: AppContext;
  actor: Actor;
  type: ManagerType;
  userId: number;
  scopeId?: number;
  roleId?: number;
}) => {
  const { ctx, actor, type, userId, scopeId } = options;
  const ancestry = await guardStanding(ctx, actor, type, scopeId);
  if (type === 'account') {
    const accountId = scopeId as number;
    const roleId = options.roleId ?? (await roleByName(ctx, ROLE_ACCOUNT_MANAGER)).id;
    const role = await checkGrantableRole(
      ctx.db,
      await actor.rights(),
      ancestry as typeof ancestry & { siteId: number },
      roleId,
    );
    if (!role.isManager)
      throw badRequest('This role is not a manager role', { roleId: 'Not a manager role' });
    await requireUserManagement(ctx.db, actor, userId);
    const current = await repo.findAccountAccess(ctx.db, accountId, userId);
    if (current?.isManager) throw conflict(MSG_ALREADY_MANAGER, { username: MSG_ALREADY_MANAGER });
    await upsertAccess(ctx.db, { accountId, userId, roleId });
    await ctx.publish(CHANNELS.userAccess(accountId), [userId]);
  } else {
    await requireUserManagement(ctx.db, actor, userId);
    if (await repo.findGrant(ctx.db, userId, type, scopeId))
      throw conflict(MSG_ALREADY_MANAGER, { username: MSG_ALREADY_MANAGER });
    await repo.insertGrant(ctx.db, {
      userId,
      scope: type,
      scopeId: type === 'admin' ? null : scopeId,
      roleId: options.roleId ?? null,
    });
  }
  await ctx.publish(CHANNELS.managers(type, scopeId), [userId]);
  return { ok: true as const };
};

/**
 * Taking a manager right away acts on the actor's own scope, so it needs no management of the person's
 * other places; it needs the right that gives the standing (never a peer's: MANAGER_STANDING_RIGHT).
 */
export const removeManager = async (options: {
  ctx: AppContext;
  actor: Actor;
  type: ManagerType;
  userId: number;
  scopeId?: number;
}) => {
  const { ctx, actor, type, userId, scopeId } = options;
  await guardStanding(ctx, actor, type, scopeId);
  if (type === 'account') {
    const accountId = scopeId as number;
    const current = await repo.findAccountAccess(ctx.db, accountId, userId);
    if (!current?.isManager) throw notFound('Manager');
    // The user keeps access to the account, as an editor.
    await upsertAccess(ctx.db, { accountId, userId, roleId: (await roleByName(ctx, ROLE_EDITOR)).id });
    await ctx.publish(CHANNELS.userAccess(accountId), [userId]);
  } else {
    const grant = await repo.findGrant(ctx.db, userId, type, scopeId);
    if (!grant) throw notFound('Manager');
    await ctx.db.transaction(async (tx) => {
      if (type === 'admin' && (await repo.countAdmins(tx)) <= 1) throw conflict(MSG_LAST_ADMIN);
      await repo.deleteGrant(tx, grant.id);
    });
  }
  await ctx.publish(CHANNELS.managers(type, scopeId), [userId]);
  return { ok: true as const };
};

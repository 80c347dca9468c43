import {
  type Ancestry,
  channelScope,
  emptyRights,
  hasRight,
  type Right,
  type RightsSnapshot,
} from '@media/contract';
import { eq, inArray, or } from 'drizzle-orm';
import { accountAccess, managerGrants, roles } from '../modules/access/tables.ts';
import { edgeServers } from '../modules/edge/tables.ts';
import { accounts, resellers, siteGroups, sites } from '../modules/organisation/tables.ts';
import { users } from '../modules/users/tables.ts';
import type { Actor } from './auth/actor.ts';
import type { DbOrTx } from './db/client.ts';
import { forbidden, notFound } from './errors.ts';

/**
 * The one answer to "may this user do this on this entity", used by every service. A session acting as
 * a non-manager role of an account (the edit-role dropdown) loses its manager rights there.
 */
export const loadRights = async (
  db: DbOrTx,
  userId: number,
  acting: { accountId: number; roleId: number } | null = null,
): Promise<RightsSnapshot> => {
  const rights = emptyRights(userId);
  const grants = await db
    .select({ scope: managerGrants.scope, scopeId: managerGrants.scopeId })
    .from(managerGrants)
    .where(eq(managerGrants.userId, userId));
  const admin = grants.some((g) => g.scope === 'admin');
  const ids = (scope: string) =>
    new Set(grants.filter((g) => g.scope === scope && g.scopeId != null).map((g) => g.scopeId as number));
  const access = await db
    .select({ accountId: accountAccess.accountId, isManager: roles.isManager })
    .from(accountAccess)
    .innerJoin(roles, eq(roles.id, accountAccess.roleId))
    .where(eq(accountAccess.userId, userId));
  const accountManager = new Set(access.filter((a) => a.isManager).map((a) => a.accountId));
  if (acting) {
    const [role] = await db
      .select({ isManager: roles.isManager })
      .from(roles)
      .where(eq(roles.id, acting.roleId));
    if (!role?.isManager) accountManager.delete(acting.accountId);
  }
  return {
    ...rights,
    admin,
    resellers: ids('reseller'),
    siteGroups: ids('sitegroup'),
    sites: ids('site'),
    accountManager,
    accounts: new Set(access.map((a) => a.accountId)),
  };
};

export type EntityRef =
  | { kind: 'cloud' }
  | { kind: 'reseller' | 'siteGroup' | 'site' | 'account'; id: number };

const ENTITY_LABEL = {
  reseller: 'Reseller',
  siteGroup: 'Site group',
  site: 'Site',
  account: 'Account',
} as const;

/** Where an entity sits in the hierarchy; undefined when it does not exist. */
export const findAncestry = async (db: DbOrTx, entity: EntityRef): Promise<Ancestry | undefined> => {
  switch (entity.kind) {
    case 'cloud':
      return {};
    case 'reseller': {
      const [row] = await db
        .select({ resellerId: resellers.id })
        .from(resellers)
        .where(eq(resellers.id, entity.id));
      return row;
    }
    case 'siteGroup': {
      const [row] = await db
        .select({ siteGroupId: siteGroups.id, resellerId: siteGroups.resellerId })
        .from(siteGroups)
        .where(eq(siteGroups.id, entity.id));
      return row;
    }
    case 'site': {
      const [row] = await db
        .select({ siteId: sites.id, siteGroupId: sites.siteGroupId, resellerId: siteGroups.resellerId })
        .from(sites)
        .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
        .where(eq(sites.id, entity.id));
      return row;
    }
    case 'account': {
      const [row] = await db
        .select({
          accountId: accounts.id,
          siteId: accounts.siteId,
          siteGroupId: sites.siteGroupId,
          resellerId: siteGroups.resellerId,
        })
        .from(accounts)
        .innerJoin(sites, eq(sites.id, accounts.siteId))
        .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
        .where(eq(accounts.id, entity.id));
      return row;
    }
  }
};

/** Throws 404 when the entity does not exist, 403 when the actor lacks the right. */
export const requireRight = async (
  db: DbOrTx,
  actor: Actor,
  right: Right,
  entity: EntityRef = { kind: 'cloud' },
) => {
  const ancestry = await findAncestry(db, entity);
  if (!ancestry) throw notFound(entity.kind === 'cloud' ? 'Cloud' : ENTITY_LABEL[entity.kind]);
  if (!hasRight(await actor.rights(), right, ancestry)) throw forbidden();
  return ancestry;
};

/**
 * A user may manage their own user; administrators any user; site managers (and above) the users
 * who have access to an account of a site they manage.
 */
export const requireUserManagement = async (db: DbOrTx, actor: Actor, userId: number) => {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User');
  if (actor.userId === userId) return;
  const rights = await actor.rights();
  if (rights.admin) return;
  const places = await db
    .select({
      accountId: accounts.id,
      siteId: sites.id,
      siteGroupId: sites.siteGroupId,
      resellerId: siteGroups.resellerId,
    })
    .from(accountAccess)
    .innerJoin(accounts, eq(accounts.id, accountAccess.accountId))
    .innerJoin(sites, eq(sites.id, accounts.siteId))
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .where(eq(accountAccess.userId, userId));
  if (!places.some((place) => hasRight(rights, 'site.manage', place))) throw forbidden();
};

/** Sites an actor can see at all (manages, or has an account in); for filtering lists. */
export const visibleSiteIds = async (db: DbOrTx, rights: RightsSnapshot): Promise<number[] | 'all'> => {
  const managed = await managedSiteIds(db, rights);
  if (managed === 'all') return 'all';
  const ofAccounts = rights.accounts.size
    ? await db
        .selectDistinct({ id: accounts.siteId })
        .from(accounts)
        .where(inArray(accounts.id, [...rights.accounts]))
    : [];
  return [...new Set([...managed, ...ofAccounts.map((row) => row.id)])];
};

/** Whether the actor may receive a live-update channel (contract's channelScope names its owner). */
export const canReadChannel = async (db: DbOrTx, actor: Actor, channel: string) => {
  const scope = channelScope(channel);
  const rights = await actor.rights();
  switch (scope.kind) {
    case 'cloud':
      return scope.adminOnly ? rights.admin : true;
    case 'user':
      return scope.id === actor.userId || rights.admin;
    case 'account': {
      const ancestry = await findAncestry(db, { kind: 'account', id: scope.id });
      return ancestry !== undefined && hasRight(rights, 'account.use', ancestry);
    }
    case 'site': {
      const ancestry = await findAncestry(db, { kind: 'site', id: scope.id });
      return ancestry !== undefined && hasRight(rights, 'site.manage', ancestry);
    }
    case 'edgeServer': {
      const [edge] = await db
        .select({ userId: edgeServers.userId, siteId: edgeServers.siteId })
        .from(edgeServers)
        .where(eq(edgeServers.id, scope.id));
      return edge !== undefined && (await mayManageEdgeServer(db, actor, edge));
    }
    case 'unknown':
      return false;
  }
};

/**
 * DESIGN.md rights: an edge server is its owner's (user context), its site's managers' (site context)
 * and the administrators' (cloud context).
 */
export const mayManageEdgeServer = async (
  db: DbOrTx,
  actor: Actor,
  edge: { userId: number; siteId: number | null },
) => {
  if (edge.userId === actor.userId) return true;
  const rights = await actor.rights();
  if (rights.admin) return true;
  if (edge.siteId == null) return false;
  const ancestry = await findAncestry(db, { kind: 'site', id: edge.siteId });
  return ancestry !== undefined && hasRight(rights, 'site.manage', ancestry);
};

/** Sites the actor manages (as site, site group or reseller manager); 'all' for administrators. */
export const managedSiteIds = async (db: DbOrTx, rights: RightsSnapshot): Promise<number[] | 'all'> => {
  if (rights.admin) return 'all';
  if (!rights.sites.size && !rights.siteGroups.size && !rights.resellers.size) return [];
  const rows = await db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .where(
      or(
        inArray(sites.id, [...rights.sites, -1]),
        inArray(sites.siteGroupId, [...rights.siteGroups, -1]),
        inArray(siteGroups.resellerId, [...rights.resellers, -1]),
      ),
    );
  return rows.map((row) => row.id);
};

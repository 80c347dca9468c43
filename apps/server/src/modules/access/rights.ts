import {
  type Ancestry,
  channelScope,
  emptyRights,
  hasRight,
  type Right,
  type RightsSnapshot,
} from '@media/contract';
import {
  and,
  eq,
  exists,
  inArray,
  isNotNull,
  isNull,
  notExists,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Actor } from '../../platform/auth/actor.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { type EntityRef, entityLabel } from '../../platform/permissions.ts';
import { edgeServers } from '../edge/tables.ts';
import { accounts, resellers, siteGroups, sites } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';
import { accountAccess, managerGrants, roles } from './tables.ts';

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
  if (!ancestry) throw notFound(entityLabel(entity));
  if (!hasRight(await actor.rights(), right, ancestry)) throw forbidden();
  return ancestry;
};

/** The right that manages each kind of place (seeing it without holding a site there). */
const MANAGE_RIGHT = {
  reseller: 'reseller.manage',
  siteGroup: 'siteGroup.manage',
  site: 'site.manage',
} as const;

/**
 * A reference in a request body to a reseller, site group or site (a site group's reseller, a site's group,
 * a new account's site) is refused like a read of it (issue 30): one the actor cannot see answers as a
 * missing one (404), so an id of another organisation tells nothing; one they see (they manage it, or it
 * holds a site they see) without the right is a 403. Answers the ancestry when the right is there.
 */
export const requireReferenceRight = async (
  db: DbOrTx,
  actor: Actor,
  right: Right,
  entity: { kind: 'reseller' | 'siteGroup' | 'site'; id: number },
) => {
  const ancestry = await findAncestry(db, entity);
  if (!ancestry) throw notFound(entityLabel(entity));
  const rights = await actor.rights();
  if (hasRight(rights, right, ancestry)) return ancestry;
  if (hasRight(rights, MANAGE_RIGHT[entity.kind], ancestry)) throw forbidden();
  const visible = await visibleSiteIds(db, rights);
  const holds =
    entity.kind === 'site'
      ? eq(sites.id, entity.id)
      : entity.kind === 'siteGroup'
        ? eq(sites.siteGroupId, entity.id)
        : eq(siteGroups.resellerId, entity.id);
  const [seen] =
    visible === 'all'
      ? [{ id: entity.id }]
      : await db
          .select({ id: sites.id })
          .from(sites)
          .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
          .where(and(inArray(sites.id, [...visible, -1]), holds))
          .limit(1);
  if (!seen) throw notFound(entityLabel(entity));
  throw forbidden();
};

/**
 * DESIGN.md "Managing people" as one SQL condition: the users a non-administrator may manage. A user's
 * places are their account accesses, their manager grants (reseller, site group, site; an admin grant
 * is never managed by a non-administrator) and their home site (the site whose import created them).
 * The actor manages the user when the user has at least one place and the actor manages every one of
 * them: each account (account.manage), each granted scope (its manage right), the home site
 * (site.manage). A user without any place is managed only by administrators (and themself): nothing
 * ties them to anyone else's part of the hierarchy.
 */
const manageableUsersQuery = (db: DbOrTx, rights: RightsSnapshot) => {
  const ids = (set: ReadonlySet<number>) => [...set, -1];
  const managedSiteGroups = db
    .select({ id: siteGroups.id })
    .from(siteGroups)
    .where(
      or(
        inArray(siteGroups.id, ids(rights.siteGroups)),
        inArray(siteGroups.resellerId, ids(rights.resellers)),
      ),
    );
  const sitesManaged = or(
    inArray(sites.id, ids(rights.sites)),
    inArray(sites.siteGroupId, ids(rights.siteGroups)),
    inArray(siteGroups.resellerId, ids(rights.resellers)),
  );
  const managedSites = db
    .select({ id: sites.id })
    .from(sites)
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .where(sitesManaged);
  const managedAccounts = db
    .select({ id: accounts.id })
    .from(accounts)
    .innerJoin(sites, eq(sites.id, accounts.siteId))
    .innerJoin(siteGroups, eq(siteGroups.id, sites.siteGroupId))
    .where(or(sitesManaged, inArray(accounts.id, ids(rights.accountManager))));
  const accessOf = db.select({ one: sql`1` }).from(accountAccess).where(eq(accountAccess.userId, users.id));
  const grantsOf = db.select({ one: sql`1` }).from(managerGrants).where(eq(managerGrants.userId, users.id));
  const unmanagedAccess = db
    .select({ one: sql`1` })
    .from(accountAccess)
    .where(and(eq(accountAccess.userId, users.id), notInArray(accountAccess.accountId, managedAccounts)));
  const unmanagedGrant = db
    .select({ one: sql`1` })
    .from(managerGrants)
    .where(
      and(
        eq(managerGrants.userId, users.id),
        or(
          eq(managerGrants.scope, 'admin'),
          isNull(managerGrants.scopeId),
          and(eq(managerGrants.scope, 'reseller'), notInArray(managerGrants.scopeId, ids(rights.resellers))),
          and(eq(managerGrants.scope, 'sitegroup'), notInArray(managerGrants.scopeId, managedSiteGroups)),
          and(eq(managerGrants.scope, 'site'), notInArray(managerGrants.scopeId, managedSites)),
        ),
      ),
    );
  return db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        or(isNotNull(users.homeSiteId), exists(accessOf), exists(grantsOf)),
        or(isNull(users.homeSiteId), inArray(users.homeSiteId, managedSites)),
        notExists(unmanagedAccess),
        notExists(unmanagedGrant),
      ),
    );
};

/**
 * SQL on a user id column: the users the actor may manage (themself, and for others the rule above);
 * undefined for an administrator, who manages everyone. Lists filter with it; mayManageUser decides one.
 */
export const manageableBy = async (
  db: DbOrTx,
  actor: Actor,
  userId: AnyPgColumn,
): Promise<SQL | undefined> => {
  const rights = await actor.rights();
  if (rights.admin) return undefined;
  return or(eq(userId, actor.userId), inArray(userId, manageableUsersQuery(db, rights)));
};

/** Which of these user ids exist and may be managed by the actor. */
export const manageableUserIds = async (db: DbOrTx, actor: Actor, userIds: number[]) =>
  new Set(
    (
      await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, [...userIds, -1]), await manageableBy(db, actor, users.id)))
    ).map((row) => row.id),
  );

/** May the actor change, reset, disconnect, read the sessions of or attach this user (false if missing). */
export const mayManageUser = async (db: DbOrTx, actor: Actor, userId: number) =>
  (await manageableUserIds(db, actor, [userId])).has(userId);

/**
 * 404 both when the user does not exist and when the actor may not manage them, so that the answer
 * never tells whether a user id exists.
 */
export const requireUserManagement = async (db: DbOrTx, actor: Actor, userId: number) => {
  if (!(await mayManageUser(db, actor, userId))) throw notFound('User');
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

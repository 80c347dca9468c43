import {
  CHANNELS,
  hasRight,
  MSG_ORG_NAME_TAKEN,
  type RightsSnapshot,
  type SitePermissions,
} from '@media/contract';
import { eq, inArray, or } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { findAncestry, requireReferenceRight, requireRight, visibleSiteIds } from '../access/service.ts';
import * as repo from './repo.ts';
import { resellers, siteGroups, sites } from './tables.ts';

type Page = { offset: number; limit: number; searchText?: string; includeDisabled: '0' | '1' };

const visibleSiteGroupIds = async (db: DbOrTx, rights: RightsSnapshot): Promise<number[] | 'all'> => {
  if (rights.admin) return 'all';
  const rows = await db
    .select({ id: siteGroups.id })
    .from(siteGroups)
    .where(
      or(
        inArray(siteGroups.id, [...rights.siteGroups, -1]),
        inArray(siteGroups.resellerId, [...rights.resellers, -1]),
      ),
    );
  return rows.map((r) => r.id);
};

export const listResellers = async (options: { ctx: AppContext; actor: Actor } & Page) => {
  const rights = await options.actor.rights();
  return repo.findResellers(options.ctx.db, options, rights.admin ? 'all' : [...rights.resellers]);
};

export const listSiteGroups = async (
  options: { ctx: AppContext; actor: Actor; resellerId?: number } & Page,
) =>
  repo.findSiteGroups(
    options.ctx.db,
    options,
    await visibleSiteGroupIds(options.ctx.db, await options.actor.rights()),
  );

export const listSites = async (options: { ctx: AppContext; actor: Actor; siteGroupId?: number } & Page) =>
  repo.findSites(options.ctx.db, options, await visibleSiteIds(options.ctx.db, await options.actor.rights()));

/** A site the actor can see (manages it, or has access to one of its accounts); 404 otherwise. */
export const getSite = async (options: { ctx: AppContext; actor: Actor; siteId: number }) => {
  const { db } = options.ctx;
  const visible = await visibleSiteIds(db, await options.actor.rights());
  const site = await repo.findSite(db, options.siteId);
  if (!site || (visible !== 'all' && !visible.includes(site.id))) throw notFound('Site');
  return site;
};

export const sitePermissions = async (options: {
  ctx: AppContext;
  actor: Actor;
  siteId: number;
}): Promise<SitePermissions> => {
  await getSite(options);
  const ancestry = await findAncestry(options.ctx.db, { kind: 'site', id: options.siteId });
  const rights = await options.actor.rights();
  const manages = ancestry !== undefined && hasRight(rights, 'site.manage', ancestry);
  return {
    canManage: manages,
    canImportUsers: manages,
    canManageManagers: manages,
    canSearchSiteUsers: manages,
    canCreateAccounts: manages,
  };
};

const ensureFreeName = async (
  db: DbOrTx,
  table: typeof resellers | typeof siteGroups | typeof sites,
  kind: string,
  name: string | undefined,
  exceptId?: number,
) => {
  if (name !== undefined && (await repo.nameTaken(db, table, name, exceptId)))
    throw conflict(MSG_ORG_NAME_TAKEN(kind), { name: MSG_ORG_NAME_TAKEN(kind) });
};

export const createReseller = async (options: { ctx: AppContext; actor: Actor; name: string }) => {
  const { db, publish } = options.ctx;
  await requireRight(db, options.actor, 'cloud.admin');
  await ensureFreeName(db, resellers, 'reseller', options.name);
  const id = await repo.insertReseller(db, { name: options.name });
  await publish(CHANNELS.resellers, [id]);
  return (await repo.findReseller(db, id)) as NonNullable<Awaited<ReturnType<typeof repo.findReseller>>>;
};

export const updateReseller = async (options: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  change: { name?: string; disabled?: boolean };
}) => {
  const { db, publish } = options.ctx;
  await requireRight(db, options.actor, 'reseller.manage', { kind: 'reseller', id: options.id });
  await ensureFreeName(db, resellers, 'reseller', options.change.name, options.id);
  await repo.updateReseller(db, options.id, options.change);
  await publish(CHANNELS.resellers, [options.id]);
  return (await repo.findReseller(db, options.id)) as NonNullable<
    Awaited<ReturnType<typeof repo.findReseller>>
  >;
};

export const createSiteGroup = async (options: {
  ctx: AppContext;
  actor: Actor;
  name: string;
  resellerId: number;
}) => {
  const { db, publish } = options.ctx;
  await requireReferenceRight(db, options.actor, 'reseller.manage', {
    kind: 'reseller',
    id: options.resellerId,
  });
  await ensureFreeName(db, siteGroups, 'site group', options.name);
  const id = await repo.insertSiteGroup(db, { name: options.name, resellerId: options.resellerId });
  await publish(CHANNELS.siteGroups, [id]);
  return (await repo.findSiteGroup(db, id)) as NonNullable<Awaited<ReturnType<typeof repo.findSiteGroup>>>;
};

export const updateSiteGroup = async (options: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  change: { name?: string; resellerId?: number; disabled?: boolean };
}) => {
  const { db, publish } = options.ctx;
  await requireRight(db, options.actor, 'siteGroup.manage', { kind: 'siteGroup', id: options.id });
  if (options.change.resellerId !== undefined)
    await requireReferenceRight(db, options.actor, 'reseller.manage', {
      kind: 'reseller',
      id: options.change.resellerId,
    });
  await ensureFreeName(db, siteGroups, 'site group', options.change.name, options.id);
  await repo.updateSiteGroup(db, options.id, options.change);
  await publish(CHANNELS.siteGroups, [options.id]);
  return (await repo.findSiteGroup(db, options.id)) as NonNullable<
    Awaited<ReturnType<typeof repo.findSiteGroup>>
  >;
};

export const createSite = async (options: {
  ctx: AppContext;
  actor: Actor;
  name: string;
  siteGroupId: number;
}) => {
  const { db, publish } = options.ctx;
  await requireReferenceRight(db, options.actor, 'siteGroup.manage', {
    kind: 'siteGroup',
    id: options.siteGroupId,
  });
  await ensureFreeName(db, sites, 'site', options.name);
  const id = await repo.insertSite(db, { name: options.name, siteGroupId: options.siteGroupId });
  await publish(CHANNELS.sites, [id]);
  return (await repo.findSite(db, id)) as NonNullable<Awaited<ReturnType<typeof repo.findSite>>>;
};

export const updateSite = async (options: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  change: { name?: string; siteGroupId?: number; disabled?: boolean };
}) => {
  const { db, publish } = options.ctx;
  await requireRight(db, options.actor, 'site.manage', { kind: 'site', id: options.id });
  if (options.change.siteGroupId !== undefined)
    await requireReferenceRight(db, options.actor, 'siteGroup.manage', {
      kind: 'siteGroup',
      id: options.change.siteGroupId,
    });
  // Disabling or renaming a site is for the managers above it, not the site's own managers.
  if (options.change.disabled !== undefined || options.change.name !== undefined) {
    const ancestry = await findAncestry(db, { kind: 'site', id: options.id });
    if (!ancestry || !hasRight(await options.actor.rights(), 'siteGroup.manage', ancestry)) throw forbidden();
  }
  await ensureFreeName(db, sites, 'site', options.change.name, options.id);
  await repo.updateSite(db, options.id, options.change);
  await publish(CHANNELS.sites, [options.id]);
  return (await repo.findSite(db, options.id)) as NonNullable<Awaited<ReturnType<typeof repo.findSite>>>;
};

export const siteExists = async (db: DbOrTx, id: number) =>
  (await db.select({ id: sites.id }).from(sites).where(eq(sites.id, id))).length > 0;

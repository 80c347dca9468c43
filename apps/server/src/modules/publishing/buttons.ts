import {
  buttonProblems,
  type PublishButtonBody,
  type PublishContextKind,
  type PublishLocationRef,
  type RoleRestriction,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { roleInAccount } from '../access/service.ts';
import { refusedDestination } from './destinations/targets.ts';
import { toButton } from './presenter.ts';
import * as repo from './repo.ts';
import {
  type Call,
  manageScope,
  ownerScope,
  type PublishScope,
  publishButtonsChanged,
  readScope,
} from './scope.ts';

/** 400 code of a button whose network fails the spec3 §5 check; the message lists every problem. */
export const BAD_NETWORK = 'bad_network';
export const MSG_ID_MISMATCH = 'The id in the body is not the id in the address';
export const MSG_ICON_NOT_HERE = 'The icon is not one of this context';
export const msgUnknownRole = (roleId: number) => `Role ${roleId} is not a role of this site`;
export const msgUnknownLocation = (location: PublishLocationRef) =>
  location.type === 'cloud'
    ? 'The cloud location has no id'
    : `Edge server ${location.id} is not an edge server of this site`;

/** Whether a role may see and use a button: every role unless a restriction refuses it. */
export const roleAllowed = (restrictions: RoleRestriction[], roleId: number | null) =>
  roleId === null || !restrictions.some((entry) => entry.roleId === roleId && !entry.allow);

/** Restrictions name roles of the site (400 otherwise); their names are the site's, not the client's. */
export const checkRestrictions = async (db: DbOrTx, siteId: number, list: RoleRestriction[]) => {
  const names = new Map((await repo.findSiteRoles(db, siteId)).map((role) => [role.id, role.name]));
  const unknown = list.find((entry) => !names.has(entry.roleId));
  if (unknown)
    throw badRequest(msgUnknownRole(unknown.roleId), { restrictions: msgUnknownRole(unknown.roleId) });
  const byRole = new Map(list.map((entry) => [entry.roleId, entry.allow]));
  return [...byRole].map(([roleId, allow]) => ({ roleId, roleName: names.get(roleId) as string, allow }));
};

/** The icon must be the context's own, or for an account one of its site's (listed there as 'other'). */
const checkIcon = async (db: DbOrTx, scope: PublishScope, iconId: number | null) => {
  if (iconId === null) return;
  const icon = await repo.findIcon(db, iconId);
  const here =
    icon !== undefined &&
    (scope.kind === 'accounts'
      ? icon.accountId === scope.id || icon.siteId === scope.siteId
      : icon.siteId === scope.id);
  if (!here) throw badRequest(MSG_ICON_NOT_HERE, { iconId: MSG_ICON_NOT_HERE });
};

/** The button's location and its phases' are the cloud or edge servers of the context's site. */
const checkLocations = async (db: DbOrTx, siteId: number, body: PublishButtonBody) => {
  const all = [body.location, ...body.phases.map((phase) => phase.location)];
  const badCloud = all.find((location) => location.type === 'cloud' && location.id !== null);
  if (badCloud) throw badRequest(msgUnknownLocation(badCloud), { location: msgUnknownLocation(badCloud) });
  const edgeIds = [...new Set(all.filter((l) => l.type === 'edge').map((l) => l.id ?? 0))];
  const known = new Set((await repo.findEdgeServersOfSite(db, siteId, edgeIds)).map((edge) => edge.id));
  const missing = all.find((location) => location.type === 'edge' && !known.has(location.id ?? 0));
  if (missing) throw badRequest(msgUnknownLocation(missing), { location: msgUnknownLocation(missing) });
};

/** Every check of a whole button; answers the values to store. */
const checkedValues = async (ctx: AppContext, scope: PublishScope, body: PublishButtonBody) => {
  const { db } = ctx;
  const problems = buttonProblems(body);
  if (problems.length) throw new AppError(BAD_NETWORK, problems.join('; '), { status: 400 });
  const refused = await refusedDestination(ctx.config, body);
  if (refused) throw badRequest(refused.message, { [refused.field]: refused.message });
  await checkIcon(db, scope, body.iconId);
  await checkLocations(db, scope.siteId, body);
  return {
    name: body.name,
    description: body.description,
    keepFor: body.keepFor,
    enabled: body.enabled,
    iconId: body.iconId,
    phases: body.phases,
    restrictions: await checkRestrictions(db, scope.siteId, body.restrictions),
    location: body.location,
  };
};

/**
 * The buttons of a context, by name; an account with includeAll adds its site's. Those who only use
 * the account see the enabled buttons their role is not refused.
 */
export const listButtons = async ({
  ctx,
  actor,
  kind,
  id,
  expand,
  includeAll,
}: Call<{ kind: PublishContextKind; id: number; expand: boolean; includeAll: boolean }>) => {
  const scope = await readScope(ctx.db, actor, kind, id);
  const owners: repo.Owner[] =
    kind === 'accounts' && includeAll ? [scope.owner, { siteId: scope.siteId }] : [scope.owner];
  let rows = await repo.findButtons(ctx.db, owners);
  if (!scope.manager) {
    const roleId = (await roleInAccount(ctx.db, actor, id))?.id ?? null;
    rows = rows.filter((row) => row.enabled && roleAllowed(row.restrictions, roleId));
  }
  return rows.map((row) => toButton(row, expand));
};

export const createButton = async ({
  ctx,
  actor,
  kind,
  id,
  body,
}: Call<{ kind: PublishContextKind; id: number; body: PublishButtonBody }>) => {
  const scope = await manageScope(ctx.db, actor, kind, id);
  const values = await checkedValues(ctx, scope, body);
  const buttonId = await repo.insertButton(ctx.db, {
    ...values,
    accountId: kind === 'accounts' ? id : null,
    siteId: kind === 'sites' ? id : null,
  });
  await publishButtonsChanged(ctx, kind, id, [buttonId]);
  return { id: buttonId };
};

/** A button the caller may manage: 404 when missing or not visible, 403 when only readable. */
export const requireButton = async (db: DbOrTx, actor: Call['actor'], id: number) => {
  const row = await repo.findButton(db, id);
  if (!row) throw notFound('Publishing button');
  const owner = ownerScope(row);
  const scope = await manageScope(db, actor, owner.kind, owner.id).catch((error: unknown) => {
    throw error instanceof AppError && error.status === 404 ? notFound('Publishing button') : error;
  });
  return { row, scope };
};

export type ButtonChange =
  | (PublishButtonBody & { id?: number })
  | { id: number; name: string }
  | { enabled: boolean };

/** The whole button, a rename ({id, name}) or {enabled}; a body id must be the address's. */
export const updateButton = async ({
  ctx,
  actor,
  id,
  change,
}: Call<{ id: number; change: ButtonChange }>) => {
  const { scope } = await requireButton(ctx.db, actor, id);
  if ('id' in change && change.id !== undefined && change.id !== id)
    throw badRequest(MSG_ID_MISMATCH, { id: MSG_ID_MISMATCH });
  if ('phases' in change) await repo.updateButton(ctx.db, id, await checkedValues(ctx, scope, change));
  else if ('name' in change) await repo.updateButton(ctx.db, id, { name: change.name });
  else await repo.updateButton(ctx.db, id, { enabled: change.enabled });
  await publishButtonsChanged(ctx, scope.kind, scope.id, [id]);
  return toButton((await repo.findButton(ctx.db, id)) as repo.ButtonRow);
};

/** The button goes to the trash and its published items to the Recycle Bin, together. */
export const trashButton = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const { scope } = await requireButton(ctx.db, actor, id);
  await ctx.db.transaction((tx) => repo.trashButton(tx, id));
  await publishButtonsChanged(ctx, scope.kind, scope.id, [id]);
  return { ok: true as const };
};

export const buttonStatus = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  await requireButton(ctx.db, actor, id);
  return { numberOfPublishedItems: await repo.countPublishedItems(ctx.db, id) };
};

/** Every role of the button's site, allowed unless restricted (a new button allows every role). */
export const listRoleRestrictions = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const { row, scope } = await requireButton(ctx.db, actor, id);
  const roles = await repo.findSiteRoles(ctx.db, scope.siteId);
  return roles.map((role) => ({
    roleId: role.id,
    roleName: role.name,
    allow: roleAllowed(row.restrictions, role.id),
  }));
};

/** Replaces the button's restrictions; every role named must be of the site. */
export const saveRoleRestrictions = async ({
  ctx,
  actor,
  id,
  list,
}: Call<{ id: number; list: RoleRestriction[] }>) => {
  const { scope } = await requireButton(ctx.db, actor, id);
  const restrictions = await checkRestrictions(ctx.db, scope.siteId, list);
  await repo.updateButton(ctx.db, id, { restrictions });
  await publishButtonsChanged(ctx, scope.kind, scope.id, [id]);
  return listRoleRestrictions({ ctx, actor, id });
};

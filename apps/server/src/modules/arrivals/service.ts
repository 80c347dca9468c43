import {
  type Ancestry,
  ARRIVALS_ERRORS,
  ARRIVALS_FOLDER_TYPES,
  type ArrivalsAssignment,
  type ArrivalsFolder,
  arrivalsFolderType,
  CHANNELS,
  hasRight,
  type RightsSnapshot,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { findAncestry, loadRights, mayManageEdgeServer, requireRight } from '../access/service.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;
type Options = Record<string, string | number | boolean>;

const requireAccountManager = (db: DbOrTx, actor: Actor, accountId: number) =>
  requireRight(db, actor, 'account.manage', { kind: 'account', id: accountId });

/** The folder, once the actor may manage its account: 404 when it does not exist, 403 otherwise. */
const requireFolder = async (db: DbOrTx, actor: Actor, id: number) => {
  const folder = await repo.findFolder(db, id);
  if (!folder) throw notFound('Arrivals folder');
  await requireAccountManager(db, actor, folder.accountId);
  return folder;
};

/** A known type, and options that type names, filled with the type's defaults. */
const checkTypeAndOptions = (typeId: string, options: Options | undefined, current: Options = {}) => {
  const type = arrivalsFolderType(typeId);
  if (!type)
    throw badRequest(ARRIVALS_ERRORS.unknownType(typeId), { typeId: ARRIVALS_ERRORS.unknownType(typeId) });
  const names = new Set(type.options.map((option) => option.name));
  const unknown = Object.keys(options ?? {}).filter((name) => !names.has(name));
  if (unknown.length)
    throw badRequest(
      `${ARRIVALS_ERRORS.unknownOption}: ${unknown.join(', ')}`,
      Object.fromEntries(unknown.map((name) => [`options.${name}`, ARRIVALS_ERRORS.unknownOption])),
    );
  const defaults = Object.fromEntries(type.options.map((option) => [option.name, option.default]));
  const kept = Object.fromEntries(Object.entries(current).filter(([name]) => names.has(name)));
  return { ...defaults, ...kept, ...options };
};

export const listFolderTypes = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireAccountManager(ctx.db, actor, accountId);
  return [...ARRIVALS_FOLDER_TYPES];
};

export const listFolders = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireAccountManager(ctx.db, actor, accountId);
  return repo.findFolders(ctx.db, accountId);
};

export const getFolder = ({ ctx, actor, id }: Call<{ id: number }>): Promise<ArrivalsFolder> =>
  requireFolder(ctx.db, actor, id);

/** A name (default 'New arrivals folder') or the full folder; the type defaults to the first one. */
export const createFolder = async ({
  ctx,
  actor,
  accountId,
  folder,
}: Call<{
  accountId: number;
  folder: { name: string; typeId?: string; priority: number; options: Options; accountId?: number };
}>) => {
  await requireAccountManager(ctx.db, actor, accountId);
  if (folder.accountId !== undefined && folder.accountId !== accountId)
    throw badRequest(ARRIVALS_ERRORS.otherAccount, { accountId: ARRIVALS_ERRORS.otherAccount });
  const typeId = folder.typeId ?? (ARRIVALS_FOLDER_TYPES[0] as { id: string }).id;
  const options = checkTypeAndOptions(typeId, folder.options);
  const id = await repo.insertFolder(ctx.db, {
    accountId,
    typeId,
    name: folder.name,
    priority: folder.priority,
    options,
  });
  await ctx.publish(CHANNELS.arrivalsFolders(accountId), [id]);
  return (await repo.findFolder(ctx.db, id)) as ArrivalsFolder;
};

/** The full folder, or `{ id, name }` (a rename); the body's id must be the address's. */
export const updateFolder = async ({
  ctx,
  actor,
  id,
  change,
}: Call<{
  id: number;
  change: {
    id: number;
    name: string;
    typeId?: string;
    priority?: number;
    options?: Options;
    accountId?: number;
  };
}>) => {
  const folder = await requireFolder(ctx.db, actor, id);
  if (change.id !== id) throw badRequest(ARRIVALS_ERRORS.idMismatch, { id: ARRIVALS_ERRORS.idMismatch });
  if (change.accountId !== undefined && change.accountId !== folder.accountId)
    throw badRequest(ARRIVALS_ERRORS.otherAccount, { accountId: ARRIVALS_ERRORS.otherAccount });
  const typeId = change.typeId ?? folder.typeId;
  const retyped = typeId !== folder.typeId || change.options !== undefined;
  await repo.updateFolder(ctx.db, id, {
    name: change.name,
    typeId,
    ...(change.priority !== undefined ? { priority: change.priority } : {}),
    ...(retyped ? { options: checkTypeAndOptions(typeId, change.options, folder.options) } : {}),
  });
  await ctx.publish(CHANNELS.arrivalsFolders(folder.accountId), [id]);
  return (await repo.findFolder(ctx.db, id)) as ArrivalsFolder;
};

/** Deletes the folder; its endpoints and queue items keep their rows, with no folder (foreign keys). */
export const trashFolder = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const folder = await requireFolder(ctx.db, actor, id);
  const assigned = await repo.findFolderEndpoints(ctx.db, id);
  const items = await ctx.db.transaction((tx) => repo.deleteFolder(tx, id));
  await ctx.publish(CHANNELS.arrivalsFolders(folder.accountId), [id]);
  if (items.length)
    await ctx.publish(
      CHANNELS.accountIngestQueue(folder.accountId),
      items.map((item) => item.id),
    );
  for (const edgeServerId of new Set(items.map((item) => item.edgeServerId)))
    await ctx.publish(
      CHANNELS.edgeIngestQueue(edgeServerId),
      items.filter((item) => item.edgeServerId === edgeServerId).map((item) => item.id),
    );
  for (const edgeServerId of new Set(assigned.map((endpoint) => endpoint.edgeServerId)))
    await ctx.publish(
      CHANNELS.endpoints(edgeServerId),
      assigned.filter((endpoint) => endpoint.edgeServerId === edgeServerId).map((endpoint) => endpoint.id),
    );
  return { ok: true as const };
};

export const listAccountAssignments = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireAccountManager(ctx.db, actor, accountId);
  return repo.findAccountAssignments(ctx.db, accountId);
};

/** The endpoints page of an edge server shows the assignments of one service: for the edge's managers. */
export const listServiceAssignments = async ({ ctx, actor, serviceId }: Call<{ serviceId: number }>) => {
  const edge = await repo.findServiceEdge(ctx.db, serviceId);
  if (!edge) throw notFound('Service');
  if (!(await mayManageEdgeServer(ctx.db, actor, edge))) throw forbidden();
  return { edgeServerId: edge.edgeServerId, rows: await repo.findServiceAssignments(ctx.db, serviceId) };
};

type AssignmentTarget = {
  endpoint: Awaited<ReturnType<typeof repo.findEndpointsWithEdge>>[number];
  folder: { id: number; accountId: number };
};

/** Loads every endpoint and folder of the list: 404 for an unknown one. */
const loadTargets = async (db: DbOrTx, list: ArrivalsAssignment[]): Promise<AssignmentTarget[]> => {
  const endpoints = new Map(
    (
      await repo.findEndpointsWithEdge(
        db,
        list.map((a) => a.endpointId),
      )
    ).map((e) => [e.id, e]),
  );
  const folders = new Map(
    (
      await repo.findFoldersByIds(
        db,
        list.map((a) => a.arrivalsFolderId),
      )
    ).map((f) => [f.id, f]),
  );
  return list.map((assignment) => {
    const endpoint = endpoints.get(assignment.endpointId);
    if (!endpoint) throw notFound('Endpoint');
    const folder = folders.get(assignment.arrivalsFolderId);
    if (!folder) throw notFound('Arrivals folder');
    return { endpoint, folder };
  });
};

/**
 * The right to point an endpoint at an account's arrivals (the account, one of its arrivals folders):
 * account.manage of that account, the account managers' business (DESIGN.md Rights: arrivals). The
 * assignments below and the endpoint API's create and save (edge module) both ask it here.
 */
export const mayAssignArrivals = async (db: DbOrTx, actor: Actor, accountId: number) => {
  const ancestry = await findAncestry(db, { kind: 'account', id: accountId });
  return ancestry !== undefined && hasRight(await actor.rights(), 'account.manage', ancestry);
};

/** Where an endpoint sends media, and who chose its arrivals folder (null: nobody recorded). */
export type LandingTarget = {
  accountId: number;
  arrivalsFolderId: number | null;
  arrivalsSetBy: number | null;
};

/**
 * The agent's side of mayAssignArrivals (defence in depth, for targets set before the rule or by someone
 * who has since lost the right): may this edge server land media in the account? Yes when its arrivals
 * folder was chosen by one who may still assign the account's arrivals (an account manager: spec2 §6, the
 * folder a non-manager sees as 'An account manager must set'); else the edge server must be one the account
 * trusts by itself: its owner (user context) manages the account now, or, for an edge server at a site, the
 * account is under that site's reseller, whose managers set a site edge's endpoints (DESIGN.md Rights). An
 * account chosen without a folder by someone else lands nothing. The owner's rights, the site, each setter's
 * rights and each account are read once per rule (the heartbeat asks it for every endpoint of the edge server).
 */
export const edgeLandingRule = (db: DbOrTx, edge: { userId: number; siteId: number | null }) => {
  let owner: Promise<RightsSnapshot> | undefined;
  let site: Promise<Ancestry | undefined> | undefined;
  const setters = new Map<number, Promise<RightsSnapshot>>();
  const answers = new Map<string, Promise<boolean>>();
  const decide = async ({ accountId, arrivalsFolderId, arrivalsSetBy }: LandingTarget) => {
    const account = await findAncestry(db, { kind: 'account', id: accountId });
    if (!account) return false;
    if (arrivalsFolderId != null && arrivalsSetBy != null) {
      let setter = setters.get(arrivalsSetBy);
      if (!setter) {
        setter = loadRights(db, arrivalsSetBy);
        setters.set(arrivalsSetBy, setter);
      }
      if (hasRight(await setter, 'account.manage', account)) return true;
    }
    owner ??= loadRights(db, edge.userId);
    if (hasRight(await owner, 'account.manage', account)) return true;
    if (edge.siteId == null) return false;
    site ??= findAncestry(db, { kind: 'site', id: edge.siteId });
    const at = await site;
    return at?.resellerId != null && at.resellerId === account.resellerId;
  };
  return (target: LandingTarget) => {
    const key = `${target.accountId}:${target.arrivalsFolderId ?? ''}:${target.arrivalsSetBy ?? ''}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = decide(target);
      answers.set(key, answer);
    }
    return answer;
  };
};

/** edgeLandingRule for one target: the account, and its arrivals folder (which must be the account's). */
export const edgeMayLandIn = async (
  db: DbOrTx,
  edge: { userId: number; siteId: number | null },
  target: LandingTarget,
) => {
  if (target.arrivalsFolderId != null) {
    const [folder] = await repo.findFoldersByIds(db, [target.arrivalsFolderId]);
    if (folder?.accountId !== target.accountId) return false;
  }
  return edgeLandingRule(db, edge)(target);
};

/**
 * Rights of an assignment, decided here: assigning needs account.manage of the folder's account (its
 * arrivals are that account's business). An endpoint that already belongs to an account must belong to the
 * folder's (400 otherwise), which the same right covers; an endpoint of no account is claimed for the
 * folder's account, which also needs the right to manage the endpoint's edge server (mayManageEdgeServer),
 * so an account manager cannot take an endpoint off someone else's edge. Removing an assignment needs either
 * account.manage of the folder's account or the management of the endpoint's edge server.
 */
const checkAssign = async (db: DbOrTx, actor: Actor, { endpoint, folder }: AssignmentTarget) => {
  if (!(await mayAssignArrivals(db, actor, folder.accountId))) throw forbidden();
  if (endpoint.accountId != null && endpoint.accountId !== folder.accountId)
    throw badRequest(ARRIVALS_ERRORS.endpointOfOtherAccount(endpoint.id));
  if (
    endpoint.accountId == null &&
    !(await mayManageEdgeServer(db, actor, { userId: endpoint.edgeUserId, siteId: endpoint.edgeSiteId }))
  )
    throw forbidden();
};

const checkUnassign = async (db: DbOrTx, actor: Actor, { endpoint, folder }: AssignmentTarget) => {
  if (
    !(await mayAssignArrivals(db, actor, folder.accountId)) &&
    !(await mayManageEdgeServer(db, actor, { userId: endpoint.edgeUserId, siteId: endpoint.edgeSiteId }))
  )
    throw forbidden();
  if (endpoint.arrivalsFolderId !== folder.id)
    throw badRequest(ARRIVALS_ERRORS.notAssigned(endpoint.id, folder.id));
};

const publishAssignments = async (ctx: AppContext, targets: AssignmentTarget[]) => {
  const byAccount = new Map<number, number[]>();
  const byEdge = new Map<number, number[]>();
  for (const { endpoint, folder } of targets) {
    byAccount.set(folder.accountId, [...(byAccount.get(folder.accountId) ?? []), folder.id]);
    byEdge.set(endpoint.edgeServerId, [...(byEdge.get(endpoint.edgeServerId) ?? []), endpoint.id]);
  }
  for (const [accountId, ids] of byAccount) await ctx.publish(CHANNELS.arrivalsFolders(accountId), ids);
  for (const [edgeServerId, ids] of byEdge) await ctx.publish(CHANNELS.endpoints(edgeServerId), ids);
};

/** Sets each endpoint's arrivals folder (and account, when it had none): all or nothing. */
export const assign = async ({ ctx, actor, list }: Call<{ list: ArrivalsAssignment[] }>) => {
  const targets = await loadTargets(ctx.db, list);
  for (const target of targets) await checkAssign(ctx.db, actor, target);
  await ctx.db.transaction(async (tx) => {
    for (const { endpoint, folder } of targets)
      await repo.setEndpointFolder(tx, endpoint.id, {
        arrivalsFolderId: folder.id,
        accountId: folder.accountId,
        arrivalsSetBy: actor.userId,
      });
  });
  await publishAssignments(ctx, targets);
  return list;
};

/** Clears the assignments of the list: all or nothing. */
export const unassign = async ({ ctx, actor, list }: Call<{ list: ArrivalsAssignment[] }>) => {
  const targets = await loadTargets(ctx.db, list);
  for (const target of targets) await checkUnassign(ctx.db, actor, target);
  await ctx.db.transaction(async (tx) => {
    for (const { endpoint } of targets)
      await repo.setEndpointFolder(tx, endpoint.id, { arrivalsFolderId: null, arrivalsSetBy: null });
  });
  await publishAssignments(ctx, targets);
  return { ok: true as const };
};

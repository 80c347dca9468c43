import {
  CHANNELS,
  EDGE_MESSAGES,
  EDGE_RULE_MESSAGES,
  ENDPOINT_TYPES,
  type EndpointStatus,
  ERROR_CODES,
  findEndpointType,
  findServiceType,
  hasRight,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { findAncestry, managedSiteIds, mayManageEdgeServer, requireRight } from '../access/service.ts';
import { mayAssignArrivals } from '../arrivals/service.ts';
import { type Options, requireEdgeServer, requireEndpoint, requireService } from './access.ts';
import { publishEdgeWrite } from './live.ts';
import { checkedEndpointOptions } from './option-checks.ts';
import { toEndpoint } from './presenters.ts';
import * as repo from './repo.ts';

// Endpoints of a service: types, one, lists (service, edge server, account, arrivals folder), create,
// save, actions, trash.

/** For other modules (ingest, arrivals): an endpoint with its service type and edge server, or undefined. */
export const findEndpointWithEdge = (db: DbOrTx, id: number) => repo.findEndpointRef(db, id);

/** For other modules: an endpoint in the contract's shape, or undefined. */
export const findEndpoint = async (db: DbOrTx, id: number) => {
  const row = await repo.findEndpoint(db, id);
  return row && toEndpoint(row);
};

export const getEndpointType = (id: string) => {
  const type = findEndpointType(id);
  if (!type) throw notFound('Endpoint type');
  return type;
};

export const listEndpointTypesOfService = async (options: Options & { serviceId: number }) => {
  const service = await requireService(options.ctx, options.actor, options.serviceId);
  const type = findServiceType(service.typeId);
  return ENDPOINT_TYPES.filter((endpointType) => type?.endpointTypeIds.includes(endpointType.id));
};

const loadEndpoint = async (db: DbOrTx, id: number) => {
  const row = await repo.findEndpoint(db, id);
  if (!row) throw notFound('Endpoint');
  return toEndpoint(row);
};

/** One endpoint: for its edge server's managers, and the managers of the account it serves. */
export const getEndpoint = async (options: Options & { id: number }) => {
  const { ctx, actor, id } = options;
  const endpoint = await repo.findEndpointRef(ctx.db, id);
  if (!endpoint) throw notFound('Endpoint');
  if (!(await mayManageEdgeServer(ctx.db, actor, endpoint.edge))) {
    const ancestry =
      endpoint.accountId != null
        ? await findAncestry(ctx.db, { kind: 'account', id: endpoint.accountId })
        : undefined;
    if (!ancestry || !hasRight(await actor.rights(), 'account.manage', ancestry)) throw forbidden();
  }
  return loadEndpoint(ctx.db, id);
};

export const listEndpointsOfService = async (options: Options & { serviceId: number }) => {
  const service = await requireService(options.ctx, options.actor, options.serviceId);
  const rows = (await repo.findEndpoints(options.ctx.db, { serviceId: service.id })).map(toEndpoint);
  return { rows, total: rows.length, channel: CHANNELS.endpoints(service.edge.id) };
};

export const listEndpointsOfEdgeServer = async (options: Options & { edgeServerId: number }) => {
  const edge = await requireEdgeServer(options.ctx, options.actor, options.edgeServerId);
  const rows = (await repo.findEndpoints(options.ctx.db, { edgeServerId: edge.id })).map(toEndpoint);
  return { rows, total: rows.length, channel: CHANNELS.endpoints(edge.id) };
};

/**
 * The endpoints of an account are listed for its managers. Other users see those on edge servers they
 * manage (own, or at a site they manage), and are refused when they have none there.
 */
const accountEndpointScope = async (
  ctx: AppContext,
  actor: Actor,
  accountId: number,
): Promise<repo.EdgeManagerScope | undefined> => {
  const ancestry = await findAncestry(ctx.db, { kind: 'account', id: accountId });
  if (!ancestry) throw notFound('Account');
  const rights = await actor.rights();
  if (hasRight(rights, 'account.manage', ancestry)) return undefined;
  const siteIds = await managedSiteIds(ctx.db, rights);
  return { userId: actor.userId, siteIds: siteIds === 'all' ? [] : siteIds };
};

const endpointsOf = async (
  ctx: AppContext,
  filter: repo.EndpointFilter & { edges?: repo.EdgeManagerScope },
  channel: string,
) => {
  const rows = (await repo.findEndpoints(ctx.db, filter)).map(toEndpoint);
  if (filter.edges && rows.length === 0) throw forbidden();
  return { rows, total: rows.length, channel };
};

export const listEndpointsOfAccount = async (options: Options & { accountId: number; withSite: boolean }) => {
  const { ctx, actor, accountId } = options;
  const edges = await accountEndpointScope(ctx, actor, accountId);
  const account = await repo.findAccountRef(ctx.db, accountId);
  if (!account) throw notFound('Account');
  return endpointsOf(
    ctx,
    { accountId, withSiteId: options.withSite ? account.siteId : undefined, edges },
    CHANNELS.accountEndpoints(accountId),
  );
};

export const listEndpointsOfArrivalsFolder = async (options: Options & { arrivalsFolderId: number }) => {
  const { ctx, actor, arrivalsFolderId } = options;
  const folder = await repo.findArrivalsFolderRef(ctx.db, arrivalsFolderId);
  if (!folder) throw notFound('Arrivals folder');
  const edges = await accountEndpointScope(ctx, actor, folder.accountId);
  return endpointsOf(ctx, { arrivalsFolderId, edges }, CHANNELS.accountEndpoints(folder.accountId));
};

type EndpointBody = {
  name?: string;
  typeId?: string;
  accountId?: number | null;
  siteId?: number | null;
  serviceId?: number;
  arrivalsFolderId?: number | null;
  workflowId?: number | null;
  options?: Record<string, string | number | boolean>;
  /** The Online switch (spec2 §3 online). */
  online?: boolean;
};

type EndpointState = {
  typeId: string;
  accountId: number | null;
  siteId: number | null;
  arrivalsFolderId: number | null;
  /** Who set the arrivals folder (issue 30; edgeLandingRule). */
  arrivalsSetBy: number | null;
  workflowId: number | null;
  options: Record<string, string | number | boolean>;
};

const field = (name: string, message: string) => badRequest(message, { [name]: message });

/** 404 for an account the actor may not see (account.use), as GET /api/accounts/{id} answers. */
const requireVisibleAccount = async (db: DbOrTx, actor: Actor, accountId: number) => {
  const ancestry = await findAncestry(db, { kind: 'account', id: accountId });
  if (!ancestry || !hasRight(await actor.rights(), 'account.use', ancestry)) throw notFound('Account');
};

/**
 * The endpoint's fields after a create or save, checked: the type is one the service takes, the options
 * fit the type, the account is one the actor uses and sets the site, a new arrivals folder is chosen by one
 * who may assign the account's arrivals (mayAssignArrivals), and the folder and workflow are the account's.
 * Fields the body leaves out keep their values; a new account clears the folder and workflow of the old one.
 */
const resolveEndpoint = async (
  ctx: AppContext,
  actor: Actor,
  context: { serviceTypeId: string; edgeSiteId: number | null; current?: EndpointState },
  body: EndpointBody,
): Promise<EndpointState> => {
  const { current } = context;
  const typeId = body.typeId ?? current?.typeId;
  if (typeId === undefined) throw field('typeId', EDGE_MESSAGES.required);
  const serviceType = findServiceType(context.serviceTypeId);
  const type = findEndpointType(typeId);
  if (!type || !serviceType?.endpointTypeIds.includes(typeId))
    throw field('typeId', EDGE_RULE_MESSAGES.endpointTypeNotForService(typeId));
  const options = checkedEndpointOptions(
    type,
    body.options ?? (current && current.typeId === typeId ? current.options : {}),
  );

  const accountId = body.accountId !== undefined ? body.accountId : (current?.accountId ?? null);
  const accountChanged = accountId !== (current?.accountId ?? null);
  let siteId = body.siteId !== undefined ? body.siteId : accountChanged ? null : (current?.siteId ?? null);
  if (accountId != null) {
    const account = await repo.findAccountRef(ctx.db, accountId);
    if (!account) throw notFound('Account');
    if (body.siteId != null && body.siteId !== account.siteId)
      throw field('siteId', EDGE_RULE_MESSAGES.accountNotInSite);
    siteId = account.siteId;
  } else if (siteId != null && siteId !== (current?.siteId ?? null) && siteId !== context.edgeSiteId) {
    await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: siteId });
  }

  const keep = (given: number | null | undefined, old: number | null | undefined) =>
    given !== undefined ? given : accountChanged ? null : (old ?? null);
  const arrivalsFolderId = keep(body.arrivalsFolderId, current?.arrivalsFolderId);
  // Choosing the account is its users' (spec2 §6: the folder then shows 'An account manager must set');
  // choosing an arrivals folder is the assignment's right (the arrivals module's), and is recorded with who
  // chose it: media lands through the endpoint only while they may (edgeLandingRule). Clearing needs nothing.
  if (accountId != null && accountChanged) await requireVisibleAccount(ctx.db, actor, accountId);
  const folderChanged = arrivalsFolderId != null && arrivalsFolderId !== (current?.arrivalsFolderId ?? null);
  if (accountId != null && folderChanged && !(await mayAssignArrivals(ctx.db, actor, accountId))) {
    const message = EDGE_RULE_MESSAGES.targetNeedsAccountManager;
    throw new AppError(ERROR_CODES.forbidden, message, { fields: { arrivalsFolderId: message } });
  }
  const arrivalsSetBy = folderChanged
    ? actor.userId
    : arrivalsFolderId == null
      ? null
      : (current?.arrivalsSetBy ?? null);
  if (arrivalsFolderId != null) {
    const folder = await repo.findArrivalsFolderRef(ctx.db, arrivalsFolderId);
    if (!folder || folder.accountId !== accountId)
      throw field('arrivalsFolderId', EDGE_RULE_MESSAGES.folderNotOfAccount);
  }
  const workflowId = keep(body.workflowId, current?.workflowId);
  if (workflowId != null) {
    const workflow = await repo.findWorkflowRef(ctx.db, workflowId);
    if (!workflow || workflow.accountId !== accountId)
      throw field('workflowId', EDGE_RULE_MESSAGES.workflowNotOfAccount);
  }
  return { typeId, accountId, siteId, arrivalsFolderId, arrivalsSetBy, workflowId, options };
};

export const createEndpoint = async (
  options: Options & { serviceId: number; body: EndpointBody & { name: string; typeId: string } },
) => {
  const { ctx, actor, serviceId, body } = options;
  if (body.serviceId !== undefined && body.serviceId !== serviceId)
    throw field('serviceId', EDGE_RULE_MESSAGES.idMismatch);
  const service = await requireService(ctx, actor, serviceId);
  const state = await resolveEndpoint(
    ctx,
    actor,
    { serviceTypeId: service.typeId, edgeSiteId: service.edge.siteId },
    body,
  );
  const id = await repo.insertEndpoint(ctx.db, {
    serviceId,
    name: body.name,
    ...state,
    // spec2 §4: an endpoint is saved with pendingSettings set to its online value (a new one is offline).
    pendingSettings: false,
  });
  await publishEdgeWrite(ctx, service.edge, {
    serviceIds: [serviceId],
    endpointIds: [id],
    accountIds: [state.accountId],
    folders: [{ accountId: state.accountId, id: state.arrivalsFolderId }],
  });
  return loadEndpoint(ctx.db, id);
};

/**
 * Saves the endpoint, or renames it (`{ name }`); spec2 §4: pendingSettings becomes its online value, and
 * stays set until the agent reports the endpoint online.
 */
export const updateEndpoint = async (
  options: Options & { id: number; body: EndpointBody & { id?: number } },
) => {
  const { ctx, actor, id, body } = options;
  if (body.id !== undefined && body.id !== id) throw field('id', EDGE_RULE_MESSAGES.idMismatch);
  const endpoint = await requireEndpoint(ctx, actor, id);
  if (body.serviceId !== undefined && body.serviceId !== endpoint.serviceId)
    throw field('serviceId', EDGE_RULE_MESSAGES.endpointMoved);
  const state = await resolveEndpoint(
    ctx,
    actor,
    { serviceTypeId: endpoint.serviceTypeId, edgeSiteId: endpoint.edge.siteId, current: endpoint },
    body,
  );
  // The Online switch: the agent is told at its next heartbeat; going online stays pending until it reports
  // the endpoint online (spec2 §4: pendingSettings is the online value saved).
  const online = body.online ?? endpoint.online;
  await repo.updateEndpoint(ctx.db, id, { name: body.name, ...state, online, pendingSettings: online });
  await publishEdgeWrite(ctx, endpoint.edge, {
    serviceIds: [endpoint.serviceId],
    endpointIds: [id],
    accountIds: [endpoint.accountId, state.accountId],
    folders: [
      { accountId: endpoint.accountId, id: endpoint.arrivalsFolderId },
      { accountId: state.accountId, id: state.arrivalsFolderId },
    ],
  });
  return loadEndpoint(ctx.db, id);
};

/** enable and disable set the status (ok, disabled); reset clears a bad endpoint. Each asks the agent too. */
export const runEndpointAction = async (
  options: Options & { id: number; action: 'enable' | 'disable' | 'reset' },
) => {
  const { ctx, actor, id, action } = options;
  const endpoint = await requireEndpoint(ctx, actor, id);
  const status: EndpointStatus =
    action === 'disable'
      ? 'disabled'
      : action === 'enable' || endpoint.status !== 'disabled'
        ? 'ok'
        : 'disabled';
  await ctx.db.transaction(async (tx) => {
    await repo.updateEndpoint(tx, id, { status, bad: action === 'reset' ? false : undefined });
    await repo.insertEdgeCommand(tx, {
      edgeServerId: endpoint.edge.id,
      action: `endpoint:${action}`,
      targetId: id,
    });
  });
  await publishEdgeWrite(ctx, endpoint.edge, {
    serviceIds: [endpoint.serviceId],
    endpointIds: [id],
    accountIds: [endpoint.accountId],
  });
  return loadEndpoint(ctx.db, id);
};

export const trashEndpoint = async (options: Options & { id: number }) => {
  const { ctx, actor, id } = options;
  const endpoint = await requireEndpoint(ctx, actor, id);
  await repo.deleteEndpoint(ctx.db, id);
  await publishEdgeWrite(ctx, endpoint.edge, {
    serviceIds: [endpoint.serviceId],
    endpointIds: [id],
    accountIds: [endpoint.accountId],
    folders: [{ accountId: endpoint.accountId, id: endpoint.arrivalsFolderId }],
  });
  return { ok: true as const };
};

import {
  CHANNELS,
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  EDGE_MESSAGES,
  EDGE_RULE_MESSAGES,
  EDGE_SERVER_TYPES,
  type EdgeAction,
  type EdgeAdvancedOptions,
  type EdgeContext,
  type EdgeServer,
  ENDPOINT_TYPES,
  type Endpoint,
  type EndpointStatus,
  type EndpointType,
  endpointCategory,
  endpointOptionsWithDefaults,
  findEndpointType,
  findServiceType,
  hasRight,
  MSG_QUERY_DATA_NOT_JSON,
  type OptionProblems,
  optionProblems,
  type Service,
  type ServiceOptions,
  type ServiceSummary,
  type ServiceType,
  serviceOptionsWithDefaults,
  serviceOptionValues,
  serviceSummaryDataSchema,
  serviceTemplatesForEdgeType,
  serviceTypesForEdgeType,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import {
  findAncestry,
  managedSiteIds,
  mayManageEdgeServer,
  requireRight,
} from '../../platform/permissions.ts';
import * as repo from './repo.ts';
import type { edgeCommands } from './tables.ts';

type Options = { ctx: AppContext; actor: Actor };

// ---- mappers --------------------------------------------------------------------------------------

const toEdgeServer = (row: repo.EdgeServerRow): EdgeServer => ({
  id: row.id,
  userId: row.userId,
  userName: row.fullname || row.username,
  siteId: row.siteId,
  siteName: row.siteName,
  name: row.name,
  type: row.type,
  endpointVersions: row.endpointVersions,
  advancedOptions: { ...DEFAULT_EDGE_ADVANCED_OPTIONS, ...row.advancedOptions },
  connected: Boolean(row.connected),
  lastSeen: row.lastSeenAt ? row.lastSeenAt.toISOString() : null,
  supportConnection: row.supportConnection,
  serviceCount: Number(row.serviceCount),
});

const toService = (row: repo.ServiceRow): Service => ({ ...row, endpointCount: Number(row.endpointCount) });

const toEndpoint = (row: repo.EndpointRow): Endpoint => ({
  ...row,
  category: endpointCategory(row.typeId),
  status: row.status as EndpointStatus,
  queueItemId: row.queueItemId == null ? null : Number(row.queueItemId),
});

const toActionResult = (command: typeof edgeCommands.$inferSelect) => ({
  action: command.action,
  requestedAt: command.requestedAt.toISOString(),
  status: command.doneAt ? ('done' as const) : ('requested' as const),
  result: command.doneAt ? (command.result ?? {}) : null,
});

// ---- rights ---------------------------------------------------------------------------------------

/** The edge server, when the actor may manage it (owner, administrators, its site's managers). */
export const requireEdgeServer = async (ctx: AppContext, actor: Actor, id: number) => {
  const edge = await repo.findEdgeServerRef(ctx.db, id);
  if (!edge) throw notFound('Edge server');
  if (!(await mayManageEdgeServer(ctx.db, actor, edge))) throw forbidden();
  return edge;
};

const requireService = async (ctx: AppContext, actor: Actor, id: number) => {
  const service = await repo.findServiceRef(ctx.db, id);
  if (!service) throw notFound('Service');
  if (!(await mayManageEdgeServer(ctx.db, actor, service.edge))) throw forbidden();
  return service;
};

/** An endpoint with its edge server, when the actor may manage that edge server. */
export const requireEndpoint = async (ctx: AppContext, actor: Actor, id: number) => {
  const endpoint = await repo.findEndpointRef(ctx.db, id);
  if (!endpoint) throw notFound('Endpoint');
  if (!(await mayManageEdgeServer(ctx.db, actor, endpoint.edge))) throw forbidden();
  return endpoint;
};

/** For other modules (ingest, arrivals): an endpoint with its service type and edge server, or undefined. */
export const findEndpointWithEdge = (db: DbOrTx, id: number) => repo.findEndpointRef(db, id);

/** For other modules: an endpoint in the contract's shape, or undefined. */
export const findEndpoint = async (db: DbOrTx, id: number) => {
  const row = await repo.findEndpoint(db, id);
  return row && toEndpoint(row);
};

/** For other modules: an edge server in the contract's shape, or undefined. */
export const findEdgeServer = async (db: DbOrTx, id: number) => {
  const row = await repo.findEdgeServer(db, id);
  return row && toEdgeServer(row);
};

// ---- live updates ---------------------------------------------------------------------------------

/** Every list an edge server appears in: its owner's, its site's and the cloud's. */
export const edgeServerChannels = (edge: { userId: number; siteId: number | null }) => [
  CHANNELS.edgeServers('user', edge.userId),
  ...(edge.siteId != null ? [CHANNELS.edgeServers('site', edge.siteId)] : []),
  CHANNELS.edgeServers('cloud'),
];

const publishEdgeWrite = async (
  ctx: AppContext,
  edge: { id: number; userId: number; siteId: number | null },
  change: {
    serviceIds?: number[];
    endpointIds?: number[];
    /** Accounts whose endpoint lists changed. */
    accountIds?: (number | null)[];
    /** Arrivals folders whose endpoint count changed, by account. */
    folders?: { accountId: number | null; id: number | null }[];
    previousSiteId?: number | null;
  } = {},
) => {
  const channels = new Set(edgeServerChannels(edge));
  if (change.previousSiteId != null) channels.add(CHANNELS.edgeServers('site', change.previousSiteId));
  for (const channel of channels) await ctx.publish(channel, [edge.id]);
  if (change.serviceIds?.length) await ctx.publish(CHANNELS.edgeServices(edge.id), change.serviceIds);
  if (change.endpointIds?.length) {
    await ctx.publish(CHANNELS.endpoints(edge.id), change.endpointIds);
    for (const accountId of new Set(change.accountIds ?? []))
      if (accountId != null) await ctx.publish(CHANNELS.accountEndpoints(accountId), change.endpointIds);
  }
  const foldersByAccount = new Map<number, number[]>();
  for (const folder of change.folders ?? [])
    if (folder.accountId != null && folder.id != null)
      foldersByAccount.set(folder.accountId, [...(foldersByAccount.get(folder.accountId) ?? []), folder.id]);
  for (const [accountId, ids] of foldersByAccount)
    await ctx.publish(CHANNELS.arrivalsFolders(accountId), [...new Set(ids)]);
};

// ---- edge servers ---------------------------------------------------------------------------------

const requireEdgeType = (type: string) => {
  if (!EDGE_SERVER_TYPES.some((known) => known.id === type))
    throw badRequest(EDGE_RULE_MESSAGES.unknownEdgeType(type), {
      type: EDGE_RULE_MESSAGES.unknownEdgeType(type),
    });
};

const requireUser = async (ctx: AppContext, actor: Actor, userId: number) => {
  if (!(await repo.userExists(ctx.db, userId))) throw notFound('User');
  if (actor.userId !== userId && !(await actor.rights()).admin) throw forbidden();
};

/** The edge servers of a user, of a site, or of the whole cloud (administrators), by name. */
export const listEdgeServers = async (
  options: Options & {
    context: EdgeContext;
    id?: number;
    query: { type: string; searchText?: string; offset: number; limit: number };
  },
) => {
  const { ctx, actor, context } = options;
  let scope: repo.EdgeScope;
  if (context === 'cloud') {
    if (!(await actor.rights()).admin) throw forbidden();
    scope = 'cloud';
  } else if (context === 'site') {
    await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: options.id as number });
    scope = { siteId: options.id as number };
  } else {
    await requireUser(ctx, actor, options.id as number);
    scope = { userId: options.id as number };
  }
  const page = await repo.findEdgeServersPage(ctx.db, scope, options.query);
  return {
    rows: page.rows.map(toEdgeServer),
    total: page.total,
    channel: CHANNELS.edgeServers(context, options.id),
  };
};

const loadEdgeServer = async (db: DbOrTx, id: number) => {
  const row = await repo.findEdgeServer(db, id);
  if (!row) throw notFound('Edge server');
  return toEdgeServer(row);
};

export const getEdgeServer = async (options: Options & { id: number }) => {
  await requireEdgeServer(options.ctx, options.actor, options.id);
  return loadEdgeServer(options.ctx.db, options.id);
};

/** Creates an edge server for a user; answers it with its agent token, shown this once. */
export const createEdgeServer = async (
  options: Options & {
    userId: number;
    body: { name: string; type: string; siteId?: number | null; advancedOptions?: EdgeAdvancedOptions };
  },
) => {
  const { ctx, actor, userId, body } = options;
  await requireUser(ctx, actor, userId);
  if (body.siteId != null)
    await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: body.siteId });
  requireEdgeType(body.type);
  const agentToken = randomToken();
  const id = await repo.insertEdgeServer(ctx.db, {
    name: body.name,
    type: body.type,
    userId,
    siteId: body.siteId ?? null,
    advancedOptions: body.advancedOptions ?? DEFAULT_EDGE_ADVANCED_OPTIONS,
    agentTokenHash: sha256(agentToken),
  });
  const edge = await loadEdgeServer(ctx.db, id);
  await publishEdgeWrite(ctx, edge);
  return { ...edge, agentToken };
};

/** Saves the whole edge server, or renames it (`{ id, name }`). */
export const updateEdgeServer = async (
  options: Options & {
    id: number;
    body: {
      id: number;
      name: string;
      type?: string;
      siteId?: number | null;
      advancedOptions?: EdgeAdvancedOptions;
      supportConnection?: boolean;
    };
  },
) => {
  const { ctx, actor, id, body } = options;
  if (body.id !== id) throw badRequest(EDGE_RULE_MESSAGES.idMismatch, { id: EDGE_RULE_MESSAGES.idMismatch });
  const edge = await requireEdgeServer(ctx, actor, id);
  if (body.siteId != null && body.siteId !== edge.siteId)
    await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: body.siteId });
  if (body.type !== undefined && body.type !== edge.type) {
    requireEdgeType(body.type);
    // The edge server must still be able to run each of its services.
    const allowed = serviceTypesForEdgeType(body.type).map((type) => type.id);
    const stranded = (await repo.findServices(ctx.db, id)).find(
      (service) => !allowed.includes(service.typeId),
    );
    if (stranded)
      throw badRequest(EDGE_RULE_MESSAGES.serviceTypeNotForEdge(stranded.typeId), {
        type: EDGE_RULE_MESSAGES.serviceTypeNotForEdge(stranded.typeId),
      });
  }
  await repo.updateEdgeServer(ctx.db, id, {
    name: body.name,
    type: body.type,
    siteId: body.siteId,
    advancedOptions: body.advancedOptions,
    supportConnection: body.supportConnection,
  });
  const saved = await loadEdgeServer(ctx.db, id);
  await publishEdgeWrite(ctx, saved, { previousSiteId: edge.siteId });
  return saved;
};

/** Deletes an edge server with its services, endpoints, commands and queue items. */
export const trashEdgeServer = async (options: Options & { id: number }) => {
  const { ctx, actor, id } = options;
  const edge = await requireEdgeServer(ctx, actor, id);
  const services = await repo.findServices(ctx.db, id);
  const endpoints = await repo.findEndpoints(ctx.db, { edgeServerId: id });
  await repo.deleteEdgeServer(ctx.db, id);
  await publishEdgeWrite(ctx, edge, {
    serviceIds: services.map((service) => service.id),
    endpointIds: endpoints.map((endpoint) => endpoint.id),
    accountIds: endpoints.map((endpoint) => endpoint.accountId),
    folders: endpoints.map((endpoint) => ({ accountId: endpoint.accountId, id: endpoint.arrivalsFolderId })),
  });
  await ctx.publish(CHANNELS.edgeIngestQueue(id), [id]);
  return { ok: true as const };
};

export const setSupportConnection = async (options: Options & { id: number; supportConnection: boolean }) => {
  const { ctx, actor, id } = options;
  await requireEdgeServer(ctx, actor, id);
  await repo.updateEdgeServer(ctx.db, id, { supportConnection: options.supportConnection });
  const saved = await loadEdgeServer(ctx.db, id);
  await publishEdgeWrite(ctx, saved);
  return saved;
};

/**
 * Machine load and speed test: a request the agent picks up and answers. getEdgeSpeedTestResults
 * answers the latest speed test request, with its result once the agent has sent it.
 */
export const runEdgeAction = async (options: Options & { id: number; action: EdgeAction }) => {
  const { ctx, actor, id, action } = options;
  await requireEdgeServer(ctx, actor, id);
  if (action === 'getEdgeSpeedTestResults') {
    const latest = await repo.findLatestEdgeCommand(ctx.db, id, 'runNewEdgeSpeedTest');
    if (!latest) throw notFound('Speed test');
    return toActionResult(latest);
  }
  return toActionResult(await repo.insertEdgeCommand(ctx.db, { edgeServerId: id, action }));
};

// ---- services -------------------------------------------------------------------------------------

const problemsError = (problems: OptionProblems, prefix: string) => {
  const entries = Object.entries(problems);
  const first = entries[0];
  if (!first) return undefined;
  return badRequest(
    first[1],
    Object.fromEntries(entries.map(([name, problem]) => [`${prefix}.${name}`, problem])),
  );
};

const checkedServiceOptions = (type: ServiceType, options: ServiceOptions) => {
  const error = problemsError(optionProblems(type.options, serviceOptionValues(options)), 'options');
  if (error) throw error;
  return serviceOptionsWithDefaults(type.options, options);
};

/** A service type this edge server can run, or a 400. */
const requireServiceType = (edgeType: string, typeId: string) => {
  const type = findServiceType(typeId);
  if (!type)
    throw badRequest(EDGE_RULE_MESSAGES.unknownServiceType(typeId), {
      typeId: EDGE_RULE_MESSAGES.unknownServiceType(typeId),
    });
  if (!serviceTypesForEdgeType(edgeType).includes(type))
    throw badRequest(EDGE_RULE_MESSAGES.serviceTypeNotForEdge(typeId), {
      typeId: EDGE_RULE_MESSAGES.serviceTypeNotForEdge(typeId),
    });
  return type;
};

const loadService = async (db: DbOrTx, id: number) => {
  const row = await repo.findService(db, id);
  if (!row) throw notFound('Service');
  return toService(row);
};

export const listServices = async (options: Options & { edgeServerId: number }) => {
  const { ctx, actor, edgeServerId } = options;
  await requireEdgeServer(ctx, actor, edgeServerId);
  const rows = (await repo.findServices(ctx.db, edgeServerId)).map(toService);
  return { rows, total: rows.length, channel: CHANNELS.edgeServices(edgeServerId) };
};

export const listServiceTypesOfEdge = async (options: Options & { edgeServerId: number }) => {
  const edge = await requireEdgeServer(options.ctx, options.actor, options.edgeServerId);
  return [...serviceTypesForEdgeType(edge.type)];
};

export const listServiceTemplates = async (options: Options & { edgeServerId: number }) => {
  const edge = await requireEdgeServer(options.ctx, options.actor, options.edgeServerId);
  return serviceTemplatesForEdgeType(edge.type);
};

export const getServiceType = (id: string) => {
  const type = findServiceType(id);
  if (!type) throw notFound('Service type');
  return type;
};

export const getService = async (options: Options & { id: number }) => {
  await requireService(options.ctx, options.actor, options.id);
  return loadService(options.ctx.db, options.id);
};

/** Creates a service; with serviceGroupId it joins that fail-over group, else it starts its own. */
export const createService = async (
  options: Options & {
    edgeServerId: number;
    body: {
      edgeServerId: number;
      name: string;
      typeId: string;
      options: ServiceOptions;
      serviceGroupId?: number | null;
    };
  },
) => {
  const { ctx, actor, edgeServerId, body } = options;
  if (body.edgeServerId !== edgeServerId)
    throw badRequest(EDGE_RULE_MESSAGES.idMismatch, { edgeServerId: EDGE_RULE_MESSAGES.idMismatch });
  const edge = await requireEdgeServer(ctx, actor, edgeServerId);
  const type = requireServiceType(edge.type, body.typeId);
  const serviceOptions = checkedServiceOptions(type, body.options);
  if (body.serviceGroupId != null) {
    const group = await repo.findServiceGroup(ctx.db, body.serviceGroupId);
    if (group.length === 0)
      throw badRequest(EDGE_RULE_MESSAGES.unknownServiceGroup, {
        serviceGroupId: EDGE_RULE_MESSAGES.unknownServiceGroup,
      });
    if (group.some((member) => member.typeId !== type.id))
      throw badRequest(EDGE_RULE_MESSAGES.serviceGroupType, {
        serviceGroupId: EDGE_RULE_MESSAGES.serviceGroupType,
      });
    let allowed = false;
    for (const member of group) if (!allowed) allowed = await mayManageEdgeServer(ctx.db, actor, member.edge);
    if (!allowed) throw forbidden();
  }
  const id = await ctx.db.transaction((tx) =>
    repo.insertService(tx, {
      edgeServerId,
      name: body.name,
      typeId: type.id,
      options: serviceOptions,
      serviceGroupId: body.serviceGroupId ?? null,
    }),
  );
  await publishEdgeWrite(ctx, edge, { serviceIds: [id] });
  return loadService(ctx.db, id);
};

/** Saves the service, or renames it (`{ name }`). */
export const updateService = async (
  options: Options & {
    id: number;
    body: { id?: number; edgeServerId?: number; name: string; typeId?: string; options?: ServiceOptions };
  },
) => {
  const { ctx, actor, id, body } = options;
  if (body.id !== undefined && body.id !== id)
    throw badRequest(EDGE_RULE_MESSAGES.idMismatch, { id: EDGE_RULE_MESSAGES.idMismatch });
  const service = await requireService(ctx, actor, id);
  if (body.edgeServerId !== undefined && body.edgeServerId !== service.edge.id)
    throw badRequest(EDGE_RULE_MESSAGES.serviceMoved, { edgeServerId: EDGE_RULE_MESSAGES.serviceMoved });
  const typeId = body.typeId ?? service.typeId;
  const type = requireServiceType(service.edge.type, typeId);
  if (typeId !== service.typeId) {
    const stranded = (await repo.findEndpointTypeIdsOfService(ctx.db, id)).find(
      (endpointTypeId) => !type.endpointTypeIds.includes(endpointTypeId),
    );
    if (stranded)
      throw badRequest(EDGE_RULE_MESSAGES.serviceTypeInUse(stranded), {
        typeId: EDGE_RULE_MESSAGES.serviceTypeInUse(stranded),
      });
  }
  const serviceOptions =
    body.options !== undefined || typeId !== service.typeId
      ? checkedServiceOptions(type, body.options ?? {})
      : undefined;
  await repo.updateService(ctx.db, id, { name: body.name, typeId, options: serviceOptions });
  await publishEdgeWrite(ctx, service.edge, { serviceIds: [id] });
  return loadService(ctx.db, id);
};

export const trashService = async (options: Options & { id: number }) => {
  const { ctx, actor, id } = options;
  const service = await requireService(ctx, actor, id);
  const endpoints = await repo.findEndpoints(ctx.db, { serviceId: id });
  await repo.deleteService(ctx.db, id);
  await publishEdgeWrite(ctx, service.edge, {
    serviceIds: [id],
    endpointIds: endpoints.map((endpoint) => endpoint.id),
    accountIds: endpoints.map((endpoint) => endpoint.accountId),
    folders: endpoints.map((endpoint) => ({ accountId: endpoint.accountId, id: endpoint.arrivalsFolderId })),
  });
  return { ok: true as const };
};

/** restart or rescan: a request for the agent, answered when it has acted. */
export const runServiceAction = async (options: Options & { id: number; action: 'restart' | 'rescan' }) => {
  const { ctx, actor, id, action } = options;
  const service = await requireService(ctx, actor, id);
  return toActionResult(
    await repo.insertEdgeCommand(ctx.db, {
      edgeServerId: service.edge.id,
      action: `service:${action}`,
      targetId: id,
    }),
  );
};

/** GET /api/services/{id}/queries/summary: counts of the service's endpoints and their queue items. */
export const queryServiceSummary = async (
  options: Options & { id: number; data: string | undefined },
): Promise<ServiceSummary> => {
  const { ctx, actor, id } = options;
  let parsed: unknown;
  try {
    parsed = JSON.parse(options.data ?? '{}');
  } catch {
    throw badRequest(MSG_QUERY_DATA_NOT_JSON, { data: MSG_QUERY_DATA_NOT_JSON });
  }
  const data = serviceSummaryDataSchema.safeParse(parsed);
  if (!data.success) {
    const message = data.error.issues.map((issue) => issue.message).join('; ');
    throw badRequest(message, { data: message });
  }
  await requireService(ctx, actor, id);
  const counts = await repo.findServiceSummary(ctx.db, id, data.data.accountId);
  if (!counts) throw notFound('Service');
  return {
    serviceId: id,
    endpointCount: Number(counts.endpointCount),
    onlineCount: Number(counts.onlineCount),
    disabledCount: Number(counts.disabledCount),
    queuedCount: Number(counts.queuedCount),
    ingestingCount: Number(counts.ingestingCount),
  };
};

// ---- endpoints ------------------------------------------------------------------------------------

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
};

type EndpointState = {
  typeId: string;
  accountId: number | null;
  siteId: number | null;
  arrivalsFolderId: number | null;
  workflowId: number | null;
  options: Record<string, string | number | boolean>;
};

const field = (name: string, message: string) => badRequest(message, { [name]: message });

/**
 * The endpoint's fields after a create or save, checked: the type is one the service takes, the options
 * fit the type, the account may be used by the actor and sets the site, and the arrivals folder and
 * workflow are the account's. Fields the body leaves out keep their values; a new account clears the
 * folder and workflow of the old one.
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
    if (accountChanged) await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
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
  return { typeId, accountId, siteId, arrivalsFolderId, workflowId, options };
};

const checkedEndpointOptions = (type: EndpointType, values: Record<string, string | number | boolean>) => {
  const error = problemsError(optionProblems(type.options, values), 'options');
  if (error) throw error;
  return endpointOptionsWithDefaults(type.options, values);
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

/** Saves the endpoint, or renames it (`{ name }`); spec2 §4: pendingSettings becomes its online value. */
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
  await repo.updateEndpoint(ctx.db, id, { name: body.name, ...state, pendingSettings: endpoint.online });
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

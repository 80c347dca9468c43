import {
  CHANNELS,
  EDGE_RULE_MESSAGES,
  findServiceType,
  MSG_QUERY_DATA_NOT_JSON,
  type ServiceGroup,
  type ServiceOptions,
  type ServiceSummary,
  serviceSummaryDataSchema,
  serviceTemplatesForEdgeType,
  serviceTypesForEdgeType,
} from '@media/contract';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { managedSiteIds, mayManageEdgeServer } from '../access/service.ts';
import { type Options, requireEdgeServer, requireService } from './access.ts';
import { findGroupedServicesOfType } from './groups-repo.ts';
import { publishEdgeWrite } from './live.ts';
import { checkedServiceOptions } from './option-checks.ts';
import { toActionResult, toService } from './presenters.ts';
import * as repo from './repo.ts';

// Services of an edge server: types, templates, one, create, save, trash, actions and queries.

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

/**
 * The fail-over groups a new service of this type on this edge server may join (serviceGroupId on create):
 * services of the type on edge servers the caller manages, grouped by their group id.
 */
export const listServiceGroups = async (options: Options & { edgeServerId: number; typeId: string }) => {
  const { ctx, actor, edgeServerId, typeId } = options;
  const edge = await requireEdgeServer(ctx, actor, edgeServerId);
  requireServiceType(edge.type, typeId);
  const rows = await findGroupedServicesOfType(ctx.db, typeId, {
    userId: actor.userId,
    siteIds: await managedSiteIds(ctx.db, await actor.rights()),
  });
  const groups = new Map<number, ServiceGroup['services']>();
  for (const { serviceGroupId, ...member } of rows)
    groups.set(serviceGroupId, [...(groups.get(serviceGroupId) ?? []), member]);
  return [...groups].map(
    ([serviceGroupId, members]): ServiceGroup => ({ serviceGroupId, services: members }),
  );
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

import {
  CHANNELS,
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  EDGE_ACTION_WAIT_SECONDS,
  EDGE_RULE_MESSAGES,
  EDGE_SERVER_TYPES,
  type EdgeAction,
  type EdgeAdvancedOptions,
  type EdgeContext,
  serviceTypesForEdgeType,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { requireRight } from '../access/service.ts';
import { type Options, requireEdgeServer } from './access.ts';
import { publishEdgeWrite } from './live.ts';
import { toActionResult, toEdgeServer } from './presenters.ts';
import * as repo from './repo.ts';

// Edge servers: lists (user, site, cloud), one, create, save, trash, support connection, actions.

/** For other modules: an edge server in the contract's shape, or undefined. */
export const findEdgeServer = async (db: DbOrTx, id: number) => {
  const row = await repo.findEdgeServer(db, id);
  return row && toEdgeServer(row);
};

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

/** How often a request waiting for the agent's answer looks for it. */
const ANSWER_POLL_MS = 250;

/**
 * Machine load and speed test: a request the agent picks up and answers. A connected edge server's answer
 * is waited for (EDGE_ACTION_WAIT_SECONDS) and comes back done; one that is not connected, or does not
 * answer in time, comes back requested, and the page says why. getEdgeSpeedTestResults answers the latest
 * speed test request, with its result once the agent has sent it.
 */
export const runEdgeAction = async (options: Options & { id: number; action: EdgeAction }) => {
  const { ctx, actor, id, action } = options;
  const edge = await requireEdgeServer(ctx, actor, id);
  if (action === 'getEdgeSpeedTestResults') {
    const latest = await repo.findLatestEdgeCommand(ctx.db, id, 'runNewEdgeSpeedTest');
    if (!latest) throw notFound('Speed test');
    return toActionResult(latest);
  }
  const requested = await repo.insertEdgeCommand(ctx.db, { edgeServerId: id, action });
  if (!edge.connected) return toActionResult(requested);
  const deadline = Date.now() + EDGE_ACTION_WAIT_SECONDS * 1000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ANSWER_POLL_MS));
    const now = await repo.findEdgeCommand(ctx.db, requested.id);
    if (!now) throw notFound('Edge server');
    if (now.doneAt) return toActionResult(now);
  }
  return toActionResult(requested);
};

import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { mayManageEdgeServer } from '../access/service.ts';
import * as repo from './repo.ts';

/** What every use case of the edge module takes. */
export type Options = { ctx: AppContext; actor: Actor };

/** The edge server, when the actor may manage it (owner, administrators, its site's managers). */
export const requireEdgeServer = async (ctx: AppContext, actor: Actor, id: number) => {
  const edge = await repo.findEdgeServerRef(ctx.db, id);
  if (!edge) throw notFound('Edge server');
  if (!(await mayManageEdgeServer(ctx.db, actor, edge))) throw forbidden();
  return edge;
};

/** A service with its edge server, when the actor may manage that edge server. */
export const requireService = async (ctx: AppContext, actor: Actor, id: number) => {
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

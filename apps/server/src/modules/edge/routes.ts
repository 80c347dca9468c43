import type { FastifyInstance } from 'fastify';
import type { AppContext, AppServices } from '../../platform/context.ts';
import { registerEdgeServerRoutes } from './edge-servers.routes.ts';
import { registerEndpointRoutes } from './endpoints.routes.ts';
import { registerServiceRoutes } from './services.routes.ts';

/** The API of edge servers, their services and endpoints (spec2 §7). */
export const registerEdgeRoutes = (fastify: FastifyInstance, ctx: AppContext, _services: AppServices) => {
  registerEdgeServerRoutes(fastify, ctx);
  registerServiceRoutes(fastify, ctx);
  registerEndpointRoutes(fastify, ctx);
};

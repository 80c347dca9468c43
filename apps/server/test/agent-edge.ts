import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import type { TestApp } from './harness.ts';

/**
 * An edge server whose agent signs in with `token`, with one file ingest service and a watch-folder endpoint
 * feeding `accountId`; `agent` calls the agent API as that edge server's agent does.
 */
export const makeAgentEdge = async (
  t: TestApp,
  options: { token: string; userId: number; accountId: number; siteId?: number; name?: string },
) => {
  const [edge] = await t.ctx.db
    .insert(edgeServers)
    .values({
      name: options.name ?? 'Agent edge',
      userId: options.userId,
      siteId: options.siteId ?? null,
      advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
      agentTokenHash: sha256(options.token),
    })
    .returning();
  if (!edge) throw new Error('edge server not made');
  const [service] = await t.ctx.db
    .insert(services)
    .values({ edgeServerId: edge.id, name: 'Files', typeId: 'FileIngestService', serviceGroupId: 0 })
    .returning();
  if (!service) throw new Error('service not made');
  const [endpoint] = await t.ctx.db
    .insert(endpoints)
    .values({
      serviceId: service.id,
      name: 'Watch folder',
      typeId: 'LocalFolderEndpoint',
      accountId: options.accountId,
      options: { path: '/media/in' },
    })
    .returning();
  if (!endpoint) throw new Error('endpoint not made');
  const agent = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${options.token}`, 'x-api-version': API_VERSIONS.ingest },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
  return { edge, service, endpoint, agent };
};

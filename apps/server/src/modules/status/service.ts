import { EDGE_LINKS, type EdgeContext, STATUS_MESSAGES, type StatusItem } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { requireRight } from '../access/service.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

const isProblem = (status: string | null) => status === 'error' || status === 'warning';

/**
 * What an endpoint's status really is (DESIGN: health is reported, not assumed): a person's `disabled`;
 * else, with its edge server not connected, an error; else what the agent last reported, with its message;
 * an endpoint never reported is a warning saying so, never 'ok'.
 */
const endpointState = (row: repo.Row): { status: string; message: string } => {
  const status = row.endpointStatus ?? 'ok';
  if (status === 'disabled') return { status, message: STATUS_MESSAGES.endpoint.disabled };
  if (!row.connected) return { status: 'error', message: STATUS_MESSAGES.endpoint.edgeDown };
  if (!row.endpointReported) return { status: 'warning', message: STATUS_MESSAGES.endpoint.notReported };
  const fallback = isProblem(status)
    ? STATUS_MESSAGES.endpoint[status as 'error' | 'warning']
    : row.endpointOnline
      ? STATUS_MESSAGES.endpoint.ok
      : STATUS_MESSAGES.endpoint.offline;
  return { status, message: row.endpointMessage || fallback };
};

/**
 * The status items of spec2 §3, each edge server followed by its services and endpoints: an edge server
 * not connected is 'error' (pbnotconn1 pbnotconn2 read 'Edge server not connected'); a service shares its
 * edge's trouble, else the worst of its endpoints; an endpoint reads its own status (error, warning,
 * disabled, else ok).
 */
const toStatusItems = (rows: repo.Row[]): StatusItem[] => {
  const items: StatusItem[] = [];
  const seen = new Set<string>();
  const problems = new Map<string, number>();
  for (const row of rows)
    if (row.serviceId != null && row.endpointId != null && isProblem(endpointState(row).status)) {
      const key = `${row.serviceId}:${endpointState(row).status}`;
      problems.set(key, (problems.get(key) ?? 0) + 1);
    }
  for (const row of rows) {
    const context: EdgeContext = row.edgeSiteId != null ? 'site' : 'user';
    const edgeLink = EDGE_LINKS.edgeServer(row.edgeUserId, row.edgeId);
    if (!seen.has(`e${row.edgeId}`)) {
      seen.add(`e${row.edgeId}`);
      items.push({
        name: row.edgeName,
        type: 'EdgeServer',
        status: row.connected ? 'ok' : 'error',
        message: row.connected ? STATUS_MESSAGES.edgeConnected : STATUS_MESSAGES.edgeNotConnected,
        links: { edgeServer: edgeLink },
      });
    }
    if (row.serviceId != null && !seen.has(`s${row.serviceId}`)) {
      seen.add(`s${row.serviceId}`);
      const errors = problems.get(`${row.serviceId}:error`) ?? 0;
      const warnings = problems.get(`${row.serviceId}:warning`) ?? 0;
      const [status, message] = !row.connected
        ? ['error', STATUS_MESSAGES.serviceEdgeDown]
        : errors
          ? ['error', STATUS_MESSAGES.serviceEndpointsInError(errors)]
          : warnings
            ? ['warning', STATUS_MESSAGES.serviceEndpointsInWarning(warnings)]
            : ['ok', STATUS_MESSAGES.serviceRunning];
      items.push({
        name: row.serviceName ?? '',
        type: 'Service',
        status,
        message,
        links: { edgeServer: edgeLink, service: EDGE_LINKS.services(row.edgeId, context) },
      });
    }
    if (row.endpointId != null && row.serviceId != null && !seen.has(`p${row.endpointId}`)) {
      seen.add(`p${row.endpointId}`);
      const { status, message } = endpointState(row);
      items.push({
        name: row.endpointName ?? '',
        type: 'Endpoint',
        status,
        message,
        links: {
          edgeServer: edgeLink,
          service: EDGE_LINKS.endpoints(row.edgeId, row.serviceId, context, row.endpointId),
        },
      });
    }
  }
  return items;
};

export const siteStatus = async ({ ctx, actor, siteId }: Call<{ siteId: number }>) => {
  await requireRight(ctx.db, actor, 'site.manage', { kind: 'site', id: siteId });
  return toStatusItems(await repo.findSiteRows(ctx.db, siteId));
};

export const accountStatus = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  return toStatusItems(await repo.findAccountRows(ctx.db, accountId));
};

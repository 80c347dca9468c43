import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { edgeServerConnected, edgeServers, endpoints, services } from '../edge/tables.ts';
import { accounts } from '../organisation/tables.ts';

const rowColumns = {
  edgeId: edgeServers.id,
  edgeName: edgeServers.name,
  edgeUserId: edgeServers.userId,
  edgeSiteId: edgeServers.siteId,
  connected: edgeServerConnected(),
  serviceId: services.id,
  serviceName: services.name,
  endpointId: endpoints.id,
  endpointName: endpoints.name,
  endpointStatus: endpoints.status,
  endpointOnline: endpoints.online,
  endpointMessage: endpoints.statusMessage,
  endpointReported: sql<boolean>`${endpoints.statusReportedAt} is not null`,
};
export type Row = {
  edgeId: number;
  edgeName: string;
  edgeUserId: number;
  edgeSiteId: number | null;
  connected: boolean;
  serviceId: number | null;
  serviceName: string | null;
  endpointId: number | null;
  endpointName: string | null;
  endpointStatus: string | null;
  endpointOnline: boolean | null;
  endpointMessage: string | null;
  endpointReported: boolean | null;
};

const ORDER = [
  asc(sql`lower(${edgeServers.name})`),
  asc(edgeServers.id),
  asc(services.id),
  asc(endpoints.id),
];

/**
 * What concerns a site: its edge servers with all their services and endpoints, and wherever else the
 * endpoints of the site or of its accounts run (with their service and edge server).
 */
export const findSiteRows = (db: DbOrTx, siteId: number): Promise<Row[]> =>
  db
    .select(rowColumns)
    .from(edgeServers)
    .leftJoin(services, eq(services.edgeServerId, edgeServers.id))
    .leftJoin(endpoints, eq(endpoints.serviceId, services.id))
    .leftJoin(accounts, eq(accounts.id, endpoints.accountId))
    .where(or(eq(edgeServers.siteId, siteId), eq(endpoints.siteId, siteId), eq(accounts.siteId, siteId)))
    .orderBy(...ORDER);

/** What concerns an account: its endpoints (its own or feeding its arrivals folders), their services and edges. */
export const findAccountRows = (db: DbOrTx, accountId: number): Promise<Row[]> =>
  db
    .select(rowColumns)
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .leftJoin(arrivalsFolders, eq(arrivalsFolders.id, endpoints.arrivalsFolderId))
    .where(and(or(eq(endpoints.accountId, accountId), eq(arrivalsFolders.accountId, accountId))))
    .orderBy(...ORDER);

import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { edgeServers, endpoints, services } from '../edge/tables.ts';
import { ingestQueueItems } from '../ingest/tables.ts';
import { arrivalsFolders } from './tables.ts';

// Qualified by hand: in a select list drizzle leaves column names bare, which the subquery would misread.
const endpointCount = sql<number>`(select count(*)::int from "edge_endpoints" where "edge_endpoints"."arrivals_folder_id" = "arrivals_folders"."id")`;

const folderColumns = {
  id: arrivalsFolders.id,
  accountId: arrivalsFolders.accountId,
  typeId: arrivalsFolders.typeId,
  name: arrivalsFolders.name,
  priority: arrivalsFolders.priority,
  options: arrivalsFolders.options,
  endpointCount,
};

export type FolderRow = Awaited<ReturnType<typeof findFolder>> & object;

export const findFolders = (db: DbOrTx, accountId: number) =>
  db
    .select(folderColumns)
    .from(arrivalsFolders)
    .where(eq(arrivalsFolders.accountId, accountId))
    .orderBy(asc(sql`lower(${arrivalsFolders.name})`), asc(arrivalsFolders.id));

export const findFolder = async (db: DbOrTx, id: number) => {
  const [row] = await db.select(folderColumns).from(arrivalsFolders).where(eq(arrivalsFolders.id, id));
  return row;
};

export const findFoldersByIds = (db: DbOrTx, ids: number[]) =>
  db
    .select({ id: arrivalsFolders.id, accountId: arrivalsFolders.accountId })
    .from(arrivalsFolders)
    .where(inArray(arrivalsFolders.id, ids));

export const insertFolder = async (db: DbOrTx, values: typeof arrivalsFolders.$inferInsert) => {
  const [row] = await db.insert(arrivalsFolders).values(values).returning({ id: arrivalsFolders.id });
  return (row as { id: number }).id;
};

export const updateFolder = (
  db: DbOrTx,
  id: number,
  change: Partial<Pick<typeof arrivalsFolders.$inferInsert, 'name' | 'typeId' | 'priority' | 'options'>>,
) => db.update(arrivalsFolders).set(change).where(eq(arrivalsFolders.id, id));

/** The endpoints assigned to a folder with their edge servers, to announce their change. */
export const findFolderEndpoints = (db: DbOrTx, folderId: number) =>
  db
    .select({ id: endpoints.id, edgeServerId: services.edgeServerId })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .where(eq(endpoints.arrivalsFolderId, folderId));

/**
 * Deletes a folder: the foreign keys clear its endpoints' and queue items' arrivalsFolderId. The queue
 * items take a new version first, so incremental readers (sinceVersion) see them change.
 */
export const deleteFolder = async (db: DbOrTx, id: number) => {
  const items = await db
    .update(ingestQueueItems)
    .set({ version: sql`nextval('ingest_queue_version')` })
    .where(eq(ingestQueueItems.arrivalsFolderId, id))
    .returning({ id: ingestQueueItems.id, edgeServerId: ingestQueueItems.edgeServerId });
  await db.delete(arrivalsFolders).where(eq(arrivalsFolders.id, id));
  return items;
};

const assignmentColumns = {
  endpointId: endpoints.id,
  arrivalsFolderId: sql<number>`${endpoints.arrivalsFolderId}`,
};

export const findAccountAssignments = (db: DbOrTx, accountId: number) =>
  db
    .select(assignmentColumns)
    .from(endpoints)
    .innerJoin(arrivalsFolders, eq(arrivalsFolders.id, endpoints.arrivalsFolderId))
    .where(eq(arrivalsFolders.accountId, accountId))
    .orderBy(asc(endpoints.id));

export const findServiceAssignments = (db: DbOrTx, serviceId: number) =>
  db
    .select(assignmentColumns)
    .from(endpoints)
    .where(and(eq(endpoints.serviceId, serviceId), isNotNull(endpoints.arrivalsFolderId)))
    .orderBy(asc(endpoints.id));

/** A service with the owner and site of its edge server, for the rights check. */
export const findServiceEdge = async (db: DbOrTx, serviceId: number) => {
  const [row] = await db
    .select({ edgeServerId: edgeServers.id, userId: edgeServers.userId, siteId: edgeServers.siteId })
    .from(services)
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(eq(services.id, serviceId));
  return row;
};

/** Endpoints with their account, folder and edge server (owner and site), for the assignment rules. */
export const findEndpointsWithEdge = (db: DbOrTx, ids: number[]) =>
  db
    .select({
      id: endpoints.id,
      accountId: endpoints.accountId,
      arrivalsFolderId: endpoints.arrivalsFolderId,
      edgeServerId: edgeServers.id,
      edgeUserId: edgeServers.userId,
      edgeSiteId: edgeServers.siteId,
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(inArray(endpoints.id, ids));

export const setEndpointFolder = (
  db: DbOrTx,
  endpointId: number,
  change: { arrivalsFolderId: number | null; arrivalsSetBy: number | null; accountId?: number },
) => db.update(endpoints).set(change).where(eq(endpoints.id, endpointId));

import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { lowerContains } from '../../platform/db/search.ts';
import { sites } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';
import {
  edgeCommands,
  edgeServerConnected,
  edgeServers,
  endpointShownStatus,
  endpoints,
  services,
} from './tables.ts';

// Raw subqueries spell out their tables: drizzle leaves a lone table's columns unqualified.

// ---- edge servers ---------------------------------------------------------------------------------

const edgeColumns = {
  id: edgeServers.id,
  userId: edgeServers.userId,
  username: users.username,
  fullname: users.fullname,
  siteId: edgeServers.siteId,
  siteName: sites.name,
  name: edgeServers.name,
  type: edgeServers.type,
  endpointVersions: edgeServers.endpointVersions,
  advancedOptions: edgeServers.advancedOptions,
  lastSeenAt: edgeServers.lastSeenAt,
  connected: edgeServerConnected(),
  supportConnection: edgeServers.supportConnection,
  serviceCount: sql<number>`(select count(*)::int from edge_services s where s.edge_server_id = "edge_servers"."id")`,
};
export type EdgeServerRow = NonNullable<Awaited<ReturnType<typeof findEdgeServer>>>;

const edgeQuery = (db: DbOrTx) =>
  db
    .select(edgeColumns)
    .from(edgeServers)
    .innerJoin(users, eq(users.id, edgeServers.userId))
    .leftJoin(sites, eq(sites.id, edgeServers.siteId));

/** Which edge servers a list holds: a user's, a site's, or all of them (the cloud). */
export type EdgeScope = { userId: number } | { siteId: number } | 'cloud';

export const findEdgeServersPage = async (
  db: DbOrTx,
  scope: EdgeScope,
  page: { type: string; searchText?: string; offset: number; limit: number },
) => {
  const where = and(
    eq(edgeServers.type, page.type),
    scope === 'cloud'
      ? undefined
      : 'userId' in scope
        ? eq(edgeServers.userId, scope.userId)
        : eq(edgeServers.siteId, scope.siteId),
    lowerContains(sql`${edgeServers.name}`, page.searchText),
  );
  const rows = await edgeQuery(db)
    .where(where)
    .orderBy(asc(sql`lower(${edgeServers.name})`), asc(edgeServers.id))
    .offset(page.offset)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(edgeServers).where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findEdgeServer = async (db: DbOrTx, id: number) => {
  const [row] = await edgeQuery(db).where(eq(edgeServers.id, id));
  return row;
};

/** What rights and channels need to know of an edge server. */
export const findEdgeServerRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: edgeServers.id,
      userId: edgeServers.userId,
      siteId: edgeServers.siteId,
      type: edgeServers.type,
      connected: edgeServerConnected(),
    })
    .from(edgeServers)
    .where(eq(edgeServers.id, id));
  return row;
};
export type EdgeServerRef = NonNullable<Awaited<ReturnType<typeof findEdgeServerRef>>>;

export const insertEdgeServer = async (db: DbOrTx, values: typeof edgeServers.$inferInsert) => {
  const [row] = await db.insert(edgeServers).values(values).returning({ id: edgeServers.id });
  return row?.id as number;
};

export const updateEdgeServer = (
  db: DbOrTx,
  id: number,
  values: Partial<
    Pick<
      typeof edgeServers.$inferInsert,
      'name' | 'type' | 'siteId' | 'advancedOptions' | 'supportConnection'
    >
  >,
) => db.update(edgeServers).set(values).where(eq(edgeServers.id, id));

/** Deletes the edge server; its services, endpoints, commands and queue items go with it (cascades). */
export const deleteEdgeServer = (db: DbOrTx, id: number) =>
  db.delete(edgeServers).where(eq(edgeServers.id, id));

export const userExists = async (db: DbOrTx, id: number) =>
  (await db.select({ id: users.id }).from(users).where(eq(users.id, id))).length > 0;

// ---- commands for the agent -----------------------------------------------------------------------

export const insertEdgeCommand = async (
  db: DbOrTx,
  values: { edgeServerId: number; action: string; targetId?: number | null },
) => {
  const [row] = await db.insert(edgeCommands).values(values).returning();
  return row as typeof edgeCommands.$inferSelect;
};

export const findEdgeCommand = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(edgeCommands).where(eq(edgeCommands.id, id));
  return row;
};

export const findLatestEdgeCommand = async (db: DbOrTx, edgeServerId: number, action: string) => {
  const [row] = await db
    .select()
    .from(edgeCommands)
    .where(and(eq(edgeCommands.edgeServerId, edgeServerId), eq(edgeCommands.action, action)))
    .orderBy(desc(edgeCommands.requestedAt), desc(edgeCommands.id))
    .limit(1);
  return row;
};

// ---- services -------------------------------------------------------------------------------------

const serviceColumns = {
  id: services.id,
  name: services.name,
  edgeServerId: services.edgeServerId,
  typeId: services.typeId,
  serviceGroupId: services.serviceGroupId,
  options: services.options,
  endpointCount: sql<number>`(select count(*)::int from edge_endpoints e where e.service_id = "edge_services"."id")`,
};
export type ServiceRow = NonNullable<Awaited<ReturnType<typeof findService>>>;

export const findServices = (db: DbOrTx, edgeServerId: number) =>
  db
    .select(serviceColumns)
    .from(services)
    .where(eq(services.edgeServerId, edgeServerId))
    .orderBy(asc(sql`lower(${services.name})`), asc(services.id));

export const findService = async (db: DbOrTx, id: number) => {
  const [row] = await db.select(serviceColumns).from(services).where(eq(services.id, id));
  return row;
};

/** A service with what rights and channels need to know of its edge server. */
export const findServiceRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: services.id,
      name: services.name,
      typeId: services.typeId,
      serviceGroupId: services.serviceGroupId,
      options: services.options,
      edge: {
        id: edgeServers.id,
        userId: edgeServers.userId,
        siteId: edgeServers.siteId,
        type: edgeServers.type,
      },
    })
    .from(services)
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(eq(services.id, id));
  return row;
};
export type ServiceRef = NonNullable<Awaited<ReturnType<typeof findServiceRef>>>;

/** The services of a fail-over group, with their edge servers (for the rights check). */
export const findServiceGroup = (db: DbOrTx, serviceGroupId: number) =>
  db
    .select({
      id: services.id,
      typeId: services.typeId,
      edge: { userId: edgeServers.userId, siteId: edgeServers.siteId },
    })
    .from(services)
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(eq(services.serviceGroupId, serviceGroupId));

export const insertService = async (
  db: DbOrTx,
  values: Omit<typeof services.$inferInsert, 'serviceGroupId'> & { serviceGroupId: number | null },
) => {
  const [row] = await db
    .insert(services)
    .values({ ...values, serviceGroupId: values.serviceGroupId ?? 0 })
    .returning({ id: services.id });
  const id = row?.id as number;
  // A new group is the service's own id.
  if (values.serviceGroupId == null)
    await db.update(services).set({ serviceGroupId: id }).where(eq(services.id, id));
  return id;
};

export const updateService = (
  db: DbOrTx,
  id: number,
  values: Partial<Pick<typeof services.$inferInsert, 'name' | 'typeId' | 'options'>>,
) => db.update(services).set(values).where(eq(services.id, id));

export const deleteService = (db: DbOrTx, id: number) => db.delete(services).where(eq(services.id, id));

/** Counts for GET /api/services/{id}/queries/summary. */
export const findServiceSummary = async (db: DbOrTx, serviceId: number, accountId?: number) => {
  const ofService = sql`e.service_id = ${serviceId}${accountId === undefined ? sql`` : sql` and e.account_id = ${accountId}`}`;
  const endpointsWhere = (extra: SQL) =>
    sql`(select count(*)::int from edge_endpoints e where ${ofService}${extra})`;
  const itemsWhere = (status: string) =>
    sql`(select count(*)::int from ingest_queue_items q join edge_endpoints e on e.id = q.endpoint_id where ${ofService} and q.status = ${status})`;
  const [row] = await db
    .select({
      endpointCount: sql<number>`${endpointsWhere(sql``)}`,
      onlineCount: sql<number>`${endpointsWhere(sql` and e.online`)}`,
      disabledCount: sql<number>`${endpointsWhere(sql` and e.status = 'disabled'`)}`,
      queuedCount: sql<number>`${itemsWhere('queued')}`,
      ingestingCount: sql<number>`${itemsWhere('ingesting')}`,
    })
    .from(services)
    .where(eq(services.id, serviceId));
  return row;
};

/** The endpoint types in use on a service (a type change must keep them allowed). */
export const findEndpointTypeIdsOfService = async (db: DbOrTx, serviceId: number) =>
  (
    await db
      .selectDistinct({ typeId: endpoints.typeId })
      .from(endpoints)
      .where(eq(endpoints.serviceId, serviceId))
  ).map((row) => row.typeId);

// ---- endpoints ------------------------------------------------------------------------------------

const endpointColumns = {
  id: endpoints.id,
  name: endpoints.name,
  typeId: endpoints.typeId,
  accountId: endpoints.accountId,
  siteId: endpoints.siteId,
  serviceId: endpoints.serviceId,
  edgeServerId: services.edgeServerId,
  arrivalsFolderId: endpoints.arrivalsFolderId,
  workflowId: endpoints.workflowId,
  options: endpoints.options,
  online: endpoints.online,
  status: endpointShownStatus(),
  bad: endpoints.bad,
  pendingSettings: endpoints.pendingSettings,
  recording: endpoints.recording,
  /** The item the endpoint is recording or ingesting now, if any. */
  queueItemId: sql<
    number | null
  >`(select q.id from ingest_queue_items q where q.endpoint_id = "edge_endpoints"."id" and q.status = 'ingesting' order by q.id desc limit 1)`,
};
export type EndpointRow = NonNullable<Awaited<ReturnType<typeof findEndpoint>>>;

const endpointQuery = (db: DbOrTx) =>
  db
    .select(endpointColumns)
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId));

/** Which endpoints a list holds. `edges` keeps those on edge servers of these owners or sites. */
export type EndpointFilter =
  | { serviceId: number }
  | { edgeServerId: number }
  | { arrivalsFolderId: number; edges?: EdgeManagerScope }
  | { accountId: number; withSiteId?: number; edges?: EdgeManagerScope };

/** Edge servers a user manages: owned by them, or at one of their sites. */
export type EdgeManagerScope = { userId: number; siteIds: number[] };

const managedBy = (scope: EdgeManagerScope | undefined) =>
  scope === undefined
    ? undefined
    : or(eq(edgeServers.userId, scope.userId), inArray(edgeServers.siteId, [...scope.siteIds, -1]));

const endpointWhere = (filter: EndpointFilter): SQL | undefined => {
  if ('serviceId' in filter) return eq(endpoints.serviceId, filter.serviceId);
  if ('edgeServerId' in filter) return eq(services.edgeServerId, filter.edgeServerId);
  if ('arrivalsFolderId' in filter)
    return and(eq(endpoints.arrivalsFolderId, filter.arrivalsFolderId), managedBy(filter.edges));
  return and(
    filter.withSiteId === undefined
      ? eq(endpoints.accountId, filter.accountId)
      : or(
          eq(endpoints.accountId, filter.accountId),
          and(isNull(endpoints.accountId), eq(endpoints.siteId, filter.withSiteId)),
        ),
    managedBy(filter.edges),
  );
};

export const findEndpoints = (db: DbOrTx, filter: EndpointFilter) =>
  endpointQuery(db)
    .where(endpointWhere(filter))
    .orderBy(asc(sql`lower(${endpoints.name})`), asc(endpoints.id));

export const findEndpoint = async (db: DbOrTx, id: number) => {
  const [row] = await endpointQuery(db).where(eq(endpoints.id, id));
  return row;
};

/** An endpoint with its service's type and its edge server (for rights, rules and channels). */
export const findEndpointRef = async (db: DbOrTx, id: number) => {
  const [row] = await db
    .select({
      id: endpoints.id,
      name: endpoints.name,
      typeId: endpoints.typeId,
      serviceId: endpoints.serviceId,
      serviceTypeId: services.typeId,
      accountId: endpoints.accountId,
      siteId: endpoints.siteId,
      arrivalsFolderId: endpoints.arrivalsFolderId,
      arrivalsSetBy: endpoints.arrivalsSetBy,
      workflowId: endpoints.workflowId,
      options: endpoints.options,
      online: endpoints.online,
      status: endpoints.status,
      edge: {
        id: edgeServers.id,
        userId: edgeServers.userId,
        siteId: edgeServers.siteId,
        type: edgeServers.type,
      },
    })
    .from(endpoints)
    .innerJoin(services, eq(services.id, endpoints.serviceId))
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(eq(endpoints.id, id));
  return row;
};
export type EndpointRef = NonNullable<Awaited<ReturnType<typeof findEndpointRef>>>;

export const insertEndpoint = async (db: DbOrTx, values: typeof endpoints.$inferInsert) => {
  const [row] = await db.insert(endpoints).values(values).returning({ id: endpoints.id });
  return row?.id as number;
};

export const updateEndpoint = (
  db: DbOrTx,
  id: number,
  values: Partial<
    Pick<
      typeof endpoints.$inferInsert,
      | 'name'
      | 'typeId'
      | 'accountId'
      | 'siteId'
      | 'arrivalsFolderId'
      | 'arrivalsSetBy'
      | 'workflowId'
      | 'options'
      | 'online'
      | 'pendingSettings'
      | 'status'
      | 'bad'
    >
  >,
) => db.update(endpoints).set(values).where(eq(endpoints.id, id));

export const deleteEndpoint = (db: DbOrTx, id: number) => db.delete(endpoints).where(eq(endpoints.id, id));

// What endpoints point at (accounts, arrivals folders, workflows, sites).
export * from './refs-repo.ts';

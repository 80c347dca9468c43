import { and, asc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { edgeServers, services } from './tables.ts';

/**
 * The services of one type on edge servers the caller manages, by group: edge servers of `userId`, of the
 * sites `siteIds`, or every one (`'all'`, administrators).
 */
export const findGroupedServicesOfType = (
  db: DbOrTx,
  typeId: string,
  reach: { userId: number; siteIds: number[] | 'all' },
) => {
  const visible: SQL | undefined =
    reach.siteIds === 'all'
      ? undefined
      : or(eq(edgeServers.userId, reach.userId), inArray(edgeServers.siteId, [...reach.siteIds, -1]));
  return db
    .select({
      id: services.id,
      name: services.name,
      serviceGroupId: services.serviceGroupId,
      edgeServerId: edgeServers.id,
      edgeServerName: edgeServers.name,
    })
    .from(services)
    .innerJoin(edgeServers, eq(edgeServers.id, services.edgeServerId))
    .where(and(eq(services.typeId, typeId), visible))
    .orderBy(asc(services.serviceGroupId), asc(services.id))
    .limit(1000);
};

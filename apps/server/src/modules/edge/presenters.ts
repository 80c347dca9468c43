import {
  DEFAULT_EDGE_ADVANCED_OPTIONS,
  type EdgeServer,
  type Endpoint,
  type EndpointStatus,
  endpointCategory,
  type Service,
} from '@media/contract';
import type * as repo from './repo.ts';
import type { edgeCommands } from './tables.ts';

/** The edge module's rows in the contract's shapes: one mapper per entity. */

export const toEdgeServer = (row: repo.EdgeServerRow): EdgeServer => ({
  id: row.id,
  userId: row.userId,
  userName: row.fullname || row.username,
  siteId: row.siteId,
  siteName: row.siteName,
  name: row.name,
  type: row.type,
  endpointVersions: row.endpointVersions,
  advancedOptions: { ...DEFAULT_EDGE_ADVANCED_OPTIONS, ...row.advancedOptions },
  connected: Boolean(row.connected),
  lastSeen: row.lastSeenAt ? row.lastSeenAt.toISOString() : null,
  supportConnection: row.supportConnection,
  serviceCount: Number(row.serviceCount),
});

export const toService = (row: repo.ServiceRow): Service => ({
  ...row,
  endpointCount: Number(row.endpointCount),
});

export const toEndpoint = (row: repo.EndpointRow): Endpoint => ({
  ...row,
  category: endpointCategory(row.typeId),
  status: row.status as EndpointStatus,
  queueItemId: row.queueItemId == null ? null : Number(row.queueItemId),
});

export const toActionResult = (command: typeof edgeCommands.$inferSelect) => ({
  action: command.action,
  requestedAt: command.requestedAt.toISOString(),
  status: command.doneAt ? ('done' as const) : ('requested' as const),
  result: command.doneAt ? (command.result ?? {}) : null,
});

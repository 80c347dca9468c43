import { type Endpoint, INGEST_LOOKUP_PAGE_SIZE, type IngestQueueItem } from '@media/contract';

/** `edgesEndpointIds`: the endpoints a queue page is narrowed to ('3,7'), or nothing for all of them. */
export const edgesEndpointIdsOf = (endpointIds: readonly string[]) =>
  endpointIds.length
    ? [...endpointIds]
        .map(Number)
        .sort((a, b) => a - b)
        .join(',')
    : undefined;

/**
 * `priorityMap` of an account's queue in its own order (rank), folder priority first: each endpoint is boosted
 * by the priority of the arrivals folder it delivers into, so items of a higher-priority folder come first.
 * Nothing when every folder has priority 0 (the map would change nothing).
 */
export const priorityMapOf = (
  endpoints: readonly Pick<Endpoint, 'id' | 'arrivalsFolderId'>[],
  folders: readonly { id: number; priority: number }[],
) => {
  const priorities = new Map(folders.map((folder) => [folder.id, folder.priority]));
  const entries = endpoints
    .map((endpoint) => [endpoint.id, priorities.get(endpoint.arrivalsFolderId ?? -1) ?? 0] as const)
    .filter(([, priority]) => priority !== 0)
    .sort(([a], [b]) => a - b);
  return entries.length ? JSON.stringify(Object.fromEntries(entries)) : undefined;
};

/**
 * spec2 §7's endpoint lookup: the queue read with sortKey id, sortDirection 1, filters 'queued|streams' and
 * pageSize 100, then filtered by endpoint on the client.
 */
export const ENDPOINT_LOOKUP_REQUEST = {
  offset: 0,
  pageSize: INGEST_LOOKUP_PAGE_SIZE,
  sortKey: 'id',
  sortDirection: 1,
  filters: 'queued|streams',
  extendedSearch: '0',
} as const;

export const itemsOfEndpoint = (items: readonly IngestQueueItem[], endpointId: number) =>
  items.filter((item) => item.endpointId === endpointId);

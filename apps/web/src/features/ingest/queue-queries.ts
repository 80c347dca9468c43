import type { ArrivalsFolder, Endpoint } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { arrivalsFoldersKey } from '../../api/arrivals.ts';
import { apiFetch, retryUnlessRefused } from '../../api/client.ts';
import { ingestFetch, ingestKey, type QueuePage, type QueueScope, scopeBase } from '../../api/ingest.ts';
import { useLiveRefresh } from '../../api/live.ts';
import type { QueueActionRules } from './action-rules.ts';
import { ENDPOINT_LOOKUP_REQUEST, priorityMapOf } from './queue-request.ts';

/**
 * `…/ingestQueueItemActions` of a queue (spec2 §7: "the answer is cached"): fetched once per queue and kept;
 * its key is outside the ingest key, so writes to the queue do not fetch it again.
 */
export const queueActionsKey = (scope: QueueScope) => ['ingestQueueItemActions', scopeBase(scope)] as const;

export const useQueueActionRules = (scope: QueueScope) =>
  useQuery({
    queryKey: queueActionsKey(scope),
    queryFn: () => ingestFetch<QueueActionRules>(`${scopeBase(scope)}/ingestQueueItemActions`),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: retryUnlessRefused,
  });

/** The endpoint whose queue a page shows (GET /api/endpoints/{id}). */
export const useQueueEndpoint = (endpointId: number) =>
  useQuery({
    queryKey: [...ingestKey, 'endpoint', endpointId],
    queryFn: () => apiFetch<Endpoint>(`/api/endpoints/${endpointId}`),
    enabled: Number.isInteger(endpointId) && endpointId > 0,
    retry: false,
  });

/**
 * spec2 §7's endpoint lookup on an edge server: its queued stream items, sortKey id, pageSize 100, read once
 * for every endpoint card of the page and filtered by endpoint on the client (itemsOfEndpoint).
 */
export const useEndpointQueueLookup = (edgeServerId: number) => {
  const key = [...ingestKey, 'lookup', edgeServerId] as const;
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      ingestFetch<QueuePage>(
        `/api/edgeServers/${edgeServerId}/ingestQueueItems?${new URLSearchParams({
          ...ENDPOINT_LOOKUP_REQUEST,
          pageSize: String(ENDPOINT_LOOKUP_REQUEST.pageSize),
          offset: String(ENDPOINT_LOOKUP_REQUEST.offset),
          sortDirection: String(ENDPOINT_LOOKUP_REQUEST.sortDirection),
        })}`,
        { raw: true },
      ),
    retry: retryUnlessRefused,
  });
  useLiveRefresh(query.data?.channel, key);
  return query;
};

/**
 * The `priorityMap` of an account's queue: its endpoints boosted by their arrivals folders' priorities (sent
 * when the page asks for folder priority first). Other queues have none (an edge server's endpoints belong
 * to many accounts; a folder has one priority).
 */
export const useQueuePriorityMap = (scope: QueueScope, endpoints: Endpoint[] | undefined) => {
  const accountId = scope.kind === 'account' ? scope.accountId : 0;
  const folders = useQuery({
    queryKey: arrivalsFoldersKey(accountId),
    enabled: scope.kind === 'account',
    queryFn: () =>
      apiFetch<{ results: ArrivalsFolder[] }>(`/api/accounts/${accountId}/arrivalsFolders`, { raw: true }),
    retry: false,
  });
  return scope.kind === 'account' && endpoints && folders.data
    ? priorityMapOf(endpoints, folders.data.results)
    : undefined;
};

import {
  type EdgeServer,
  type Endpoint,
  FIRST_RANK,
  type IngestQueueItem,
  type IngestQueueQuery,
  type IngestStatus,
  type LiveUpdate,
  type ManualStatusChange,
  type UnprocessedFile,
} from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { mergeQueueUpdate } from '../features/ingest/merge-queue.ts';
import { apiFetch, type RequestOptions, retryUnlessRefused } from './client.ts';
import { useLiveChannel } from './live.ts';

type Collection<T> = { results: T[]; total: number; channel: string };
export type QueuePage = Collection<IngestQueueItem> & { version: number };

/** Whose queue a page shows: an edge server's, an arrivals folder's, an account's or one endpoint's. */
export type QueueScope =
  | { kind: 'edge'; edgeServerId: number }
  | { kind: 'folder'; accountId: number; arrivalsFolderId: number }
  | { kind: 'account'; accountId: number }
  | { kind: 'endpoint'; endpointId: number };

/**
 * The API path of the scope's collections (`/api/{base}/ingestQueueItems`, `…/ingestQueueItemRanks`,
 * `…/ingestQueueItemActions`, and but for an endpoint `…/endpoints`).
 */
export const scopeBase = (scope: QueueScope) =>
  scope.kind === 'edge'
    ? `/api/edgeServers/${scope.edgeServerId}`
    : scope.kind === 'folder'
      ? `/api/arrivalsFolders/${scope.arrivalsFolderId}`
      : scope.kind === 'account'
        ? `/api/accounts/${scope.accountId}`
        : `/api/endpoints/${scope.endpointId}`;

export type QueueRequest = Pick<
  IngestQueueQuery,
  'offset' | 'pageSize' | 'sortKey' | 'sortDirection' | 'filters' | 'extendedSearch'
> & { search?: string; priorityMap?: string; edgesEndpointIds?: string };

/** Ingest calls send the API version header (spec2 §7). */
const ingest = <T>(path: string, options: RequestOptions = {}) =>
  apiFetch<T>(path, { ...options, apiVersion: 'ingest' });

const queryString = (request: QueueRequest & { sinceVersion?: number }) => {
  const query = new URLSearchParams({
    offset: String(request.offset),
    pageSize: String(request.pageSize),
    sortKey: request.sortKey,
    sortDirection: String(request.sortDirection),
    extendedSearch: request.extendedSearch,
  });
  if (request.filters) query.set('filters', request.filters);
  if (request.search) query.set('search', request.search);
  if (request.priorityMap) query.set('priorityMap', request.priorityMap);
  if (request.edgesEndpointIds) query.set('edgesEndpointIds', request.edgesEndpointIds);
  if (request.sinceVersion !== undefined) query.set('sinceVersion', String(request.sinceVersion));
  return query.toString();
};

export const ingestKey = ['ingest'] as const;
export { ingest as ingestFetch };

const queueKey = (scope: QueueScope, request: QueueRequest) =>
  [...ingestKey, 'queue', scope, request] as const;

const fetchQueue = (scope: QueueScope, request: QueueRequest & { sinceVersion?: number }) =>
  ingest<QueuePage>(`${scopeBase(scope)}/ingestQueueItems?${queryString(request)}`, { raw: true });

/**
 * One page of a queue, kept live: a change on the queue's channel fetches only what changed since the
 * page's version (sinceVersion plus the same filters) and merges it in place; when the change could move
 * rows in or out of the page, the page is fetched again.
 */
export const useIngestQueue = (scope: QueueScope, request: QueueRequest) => {
  const queryClient = useQueryClient();
  const key = queueKey(scope, request);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchQueue(scope, request),
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });
  const latest = useRef({ key, scope, request, page: query.data });
  latest.current = { key, scope, request, page: query.isPlaceholderData ? undefined : query.data };

  useLiveChannel(query.data?.channel, (data: LiveUpdate['data']) => {
    const { key: currentKey, scope: currentScope, request: currentRequest, page } = latest.current;
    const refetch = () => void queryClient.invalidateQueries({ queryKey: currentKey });
    const modified = (data.modified ?? []).map(Number).filter(Number.isFinite);
    if (!page || modified.length === 0) return refetch();
    void fetchQueue(currentScope, {
      ...currentRequest,
      offset: 0,
      pageSize: 1000,
      sinceVersion: page.version,
    }).then((changed) => {
      // The page may have been fetched again meanwhile; then it is newer than this merge.
      if (queryClient.getQueryData(currentKey) !== page) return;
      const merged = mergeQueueUpdate(page, changed, modified, currentRequest.sortKey);
      if (merged) queryClient.setQueryData(currentKey, merged);
      else refetch();
    }, refetch);
  });
  return query;
};

/** The endpoints whose items a queue shows (`/api/{base}/endpoints`; an endpoint's queue: that endpoint). */
export const useQueueEndpoints = (scope: QueueScope) =>
  useQuery({
    queryKey: [...ingestKey, 'endpoints', scope],
    queryFn: async (): Promise<Collection<Endpoint>> =>
      scope.kind === 'endpoint'
        ? { results: [await apiFetch<Endpoint>(scopeBase(scope))], total: 1, channel: '' }
        : apiFetch<Collection<Endpoint>>(`${scopeBase(scope)}/endpoints`, { raw: true }),
    retry: retryUnlessRefused,
  });

export type UnprocessedList = { files: (UnprocessedFile & { endpointName: string })[]; channels: string[] };

/** The unprocessed files of these endpoints (GET /api/endpoints/{id}/unprocessedFiles each). */
export const useUnprocessedFiles = (endpoints: Pick<Endpoint, 'id' | 'name'>[] | undefined) =>
  useQuery({
    queryKey: [...ingestKey, 'unprocessed', endpoints?.map((e) => e.id) ?? []],
    enabled: endpoints !== undefined,
    retry: retryUnlessRefused,
    queryFn: async (): Promise<UnprocessedList> => {
      const lists = await Promise.all(
        (endpoints ?? []).map(async (endpoint) => {
          const list = await ingest<Collection<UnprocessedFile>>(
            `/api/endpoints/${endpoint.id}/unprocessedFiles?limit=1000`,
            { raw: true },
          );
          return { list, endpointName: endpoint.name };
        }),
      );
      return {
        files: lists.flatMap(({ list, endpointName }) => list.results.map((f) => ({ ...f, endpointName }))),
        channels: [...new Set(lists.map(({ list }) => list.channel))],
      };
    },
    placeholderData: keepPreviousData,
  });

export const useItemLog = (itemId: number | null) =>
  useQuery({
    queryKey: [...ingestKey, 'log', itemId],
    enabled: itemId !== null,
    queryFn: async () => {
      const answer = await ingest<string | { log: string }>(`/api/ingestQueueItems/${itemId}/log`);
      return typeof answer === 'string' ? answer : (answer?.log ?? '');
    },
  });

export type ItemChange =
  | { id: number; status: ManualStatusChange }
  | { id: number; action: 'start' | 'stop' }
  | { id: number; action: 'reschedule'; startTime: string; duration: number; clipName?: string }
  | { id: number; reelName: string; diskLabel: string; clipName: string };

/** Every write to the queue refreshes the queues and unprocessed lists shown (the channel does too). */
const useIngestMutation = <V, R>(mutationFn: (variables: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ingestKey }),
  });
};

/** POST /api/ingestQueueItems/{id}: a status, an action (start, stop) or new names. */
export const useChangeItem = () =>
  useIngestMutation((change: ItemChange) =>
    ingest<IngestQueueItem>(`/api/ingestQueueItems/${change.id}`, { method: 'POST', body: change }),
  );

/** POST /api/ingestQueueItems: several status changes, all or nothing. */
export const useChangeStatuses = () =>
  useIngestMutation((changes: { id: number; status: IngestStatus }[]) =>
    ingest('/api/ingestQueueItems', { method: 'POST', body: changes }),
  );

export const useTrashItem = () =>
  useIngestMutation((id: number) =>
    ingest(`/api/ingestQueueItems/${id}/trash`, { method: 'POST', body: {} }),
  );

/** POST /api/ingestQueueItems/trash with ids 'edgeServerId:endpointId:queueId'. */
export const useTrashItems = () =>
  useIngestMutation((items: Pick<IngestQueueItem, 'edgeServerId' | 'endpointId' | 'queueId'>[]) =>
    ingest('/api/ingestQueueItems/trash', {
      method: 'POST',
      body: {
        ids: items.map((item) => `${item.edgeServerId}:${item.endpointId}:${item.queueId}`),
        mode: 'trash',
      },
    }),
  );

/**
 * Send to top: the item takes rank 1 and the items ahead of it (by the queue's order) move down one place
 * each, ranks 2, 3, …; the items behind it keep theirs. One call, all or nothing.
 */
export const useSendToTop = (scope: QueueScope) =>
  useIngestMutation(async (item: Pick<IngestQueueItem, 'id' | 'rank'>) => {
    const queue = await fetchQueue(scope, {
      offset: 0,
      pageSize: 1000,
      sortKey: 'rank',
      sortDirection: 1,
      filters: '',
      extendedSearch: '0',
    });
    const ahead = queue.results.filter(
      (other) =>
        other.id !== item.id && (other.rank < item.rank || (other.rank === item.rank && other.id < item.id)),
    );
    const ranks = [
      { queueItemId: item.id, rank: FIRST_RANK },
      ...ahead.map((other, index) => ({ queueItemId: other.id, rank: FIRST_RANK + 1 + index })),
    ];
    return ingest(`${scopeBase(scope)}/ingestQueueItemRanks`, { method: 'POST', body: ranks });
  });

export const useForceFiles = () =>
  useIngestMutation((ids: number[]) =>
    ingest('/api/unprocessedFiles', { method: 'POST', body: ids.map((id) => ({ id, forced: true })) }),
  );

/** Rescan: the files are dropped and the endpoint looks at them again. */
export const useRescanFiles = () =>
  useIngestMutation((ids: number[]) => ingest('/api/unprocessedFiles/trash', { method: 'POST', body: ids }));

/** The edge server whose queue or unprocessed files a page shows (GET /api/edgeServers/{id}). */
export const useQueueEdgeServer = (edgeServerId: number) =>
  useQuery({
    queryKey: [...ingestKey, 'edgeServer', edgeServerId],
    queryFn: () => apiFetch<EdgeServer>(`/api/edgeServers/${edgeServerId}`),
    retry: false,
  });

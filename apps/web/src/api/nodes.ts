import {
  type FolderPermission,
  type MediaNode,
  type NodesTransfer,
  pathSegments,
  type TransferOperation,
  type TransferResult,
} from '@media/contract';
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  type ListingPage,
  type ListingRequest,
  listingQueryString,
  withoutNodes,
} from '../features/media/listing-query.ts';
import { ApiError, apiFetch, type RequestOptions } from './client.ts';
import { useLiveRefresh } from './live.ts';

/** Node calls send the API version header (spec3 §7). */
const nodes = <T>(path: string, options: RequestOptions = {}) =>
  apiFetch<T>(path, { ...options, apiVersion: 'nodes' });

export const nodesKey = ['nodes'] as const;
/** Every query of one account's tree, by the first segment of its paths. */
const accountNodesKey = (path: string) => [...nodesKey, pathSegments(path)[0] ?? ''] as const;
const listingKey = (request: ListingRequest) =>
  [...accountNodesKey(request.path), 'listing', request] as const;

/** A refusal (4xx) will not change on a second try; network and server failures may. */
const retryUnlessRefused = (count: number, error: Error) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 3;

export type ListingData = InfiniteData<ListingPage, number>;

/**
 * A folder with its ancestors and its children, paged by nextChildOffset ('Load more'). With `live`,
 * a change on the listing's channel refreshes every listing of the account (one page subscribes).
 */
export const useNodeListing = (
  request: ListingRequest,
  options: { enabled?: boolean; live?: boolean } = {},
) => {
  const query = useInfiniteQuery({
    queryKey: listingKey(request),
    queryFn: ({ pageParam, signal }) =>
      nodes<ListingPage>(`/api/nodes?${listingQueryString(request, pageParam)}`, { raw: true, signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.results.nextChildOffset ?? undefined,
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
    retry: retryUnlessRefused,
  });
  useLiveRefresh(options.live ? query.data?.pages[0]?.channel : undefined, accountNodesKey(request.path));
  return query;
};

export type NodeWrite =
  | { parentPath: string; type: 'folder'; name: string }
  | { path: string; name: string }
  | { path: string; key: string; value: string; accountId: number }
  | { path: string; permissions: FolderPermission[] };

/** Writes refresh the account's listings (its channel does too, for everyone else). */
const useNodesMutation = <V, R>(mutationFn: (variables: V) => Promise<R>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodesKey }),
  });
};

const postNode = (body: NodeWrite) => nodes<MediaNode>('/api/nodes', { method: 'POST', body });

/** POST /api/nodes: create a folder, rename a node, set a metadata field, save folder permissions. */
export const useNodeMutations = () => {
  const create = useNodesMutation((body: { parentPath: string; name: string }) =>
    postNode({ ...body, type: 'folder' }),
  );
  const rename = useNodesMutation((body: { path: string; name: string }) => postNode(body));
  const setField = useNodesMutation((body: { path: string; key: string; value: string; accountId: number }) =>
    postNode(body),
  );
  const savePermissions = useNodesMutation((body: { path: string; permissions: FolderPermission[] }) =>
    postNode(body),
  );
  return { create, rename, setField, savePermissions };
};

/** POST /api/nodesTransferType: what may be done with these nodes at that destination. */
export const useTransferTypes = () =>
  useMutation({
    mutationFn: (body: { srcPath: string[]; dstPath: string }) =>
      nodes<{ operations: TransferOperation[] }>('/api/nodesTransferType', { method: 'POST', body }),
  });

/**
 * POST /api/nodesTransfer. After a move the sources leave the listings at once (spec3 §4); after a copy
 * they stay. The refetch that follows brings the destination's new children.
 */
export const useTransfer = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      body: Pick<NodesTransfer, 'dstPath' | 'operation' | 'userPublishData'> & { srcPath: string[] },
    ) => nodes<TransferResult>('/api/nodesTransfer', { method: 'POST', body }),
    onSuccess: (result) => {
      if (result.operation !== 'move') return;
      const moved = new Set(result.nodes.map((node) => node.from));
      queryClient.setQueriesData<ListingData>({ queryKey: nodesKey }, (data) =>
        data ? { ...data, pages: withoutNodes(data.pages, moved) } : data,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: nodesKey }),
  });
};

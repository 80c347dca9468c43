import type {
  AccountListItem,
  ArrivalsFolder,
  EdgeAction,
  EdgeServer,
  EdgeServerType,
  Endpoint,
  EndpointType,
  SERVICE_ACTIONS,
  Service,
  ServiceTemplate,
  ServiceType,
  Workflow,
} from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveListById } from '../features/edge/live-by-id.ts';
import { apiFetch } from './client.ts';
import { useLiveRefresh } from './live.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

/** Whose edge servers a list shows (spec2 §7): one user's, one site's, or the whole cloud's. */
export type EdgeScope =
  | { context: 'user'; id: number }
  | { context: 'site'; id: number }
  | { context: 'cloud' };

export type EdgeServerCreated = EdgeServer & { agentToken: string };
export type EdgeActionResult = {
  action: string;
  requestedAt: string;
  status: 'requested' | 'done';
  result: Record<string, string | number | boolean | null> | null;
};

const edgeListPath = (scope: EdgeScope) =>
  scope.context === 'cloud'
    ? '/api/edgeServers'
    : scope.context === 'site'
      ? `/api/sites/${scope.id}/edgeServers`
      : `/api/users/${scope.id}/edgeServers`;

export const EDGE_QUERY_KEY = ['edge'] as const;
export const edgeServersKey = (scope: EdgeScope, type: string) =>
  [...EDGE_QUERY_KEY, 'servers', scope, type] as const;
const edgeServerKey = (id: number) => [...EDGE_QUERY_KEY, 'server', id] as const;

/** Whether an edge server, fetched again after a change, belongs to a list of this scope and type. */
const inEdgeList = (scope: EdgeScope, type: string) => (edge: EdgeServer) =>
  edge.type === type &&
  (scope.context === 'cloud' || (scope.context === 'site' ? edge.siteId : edge.userId) === scope.id);

/**
 * The edge servers of a user, a site or the cloud; after the first load, a change on its channel refetches
 * the changed edge servers by id (spec2 §4 Realtime).
 */
export const useEdgeServers = (scope: EdgeScope, type: string) => {
  const key = edgeServersKey(scope, type);
  const query = useQuery({
    queryKey: key,
    queryFn: () =>
      apiFetch<Collection<EdgeServer>>(
        `${edgeListPath(scope)}?${new URLSearchParams({ type, limit: '1000' })}`,
        {
          raw: true,
        },
      ),
  });
  useLiveListById(query.data?.channel, key, fetchEdgeServer, inEdgeList(scope, type));
  return query;
};

const fetchEdgeServer = (id: number) => apiFetch<EdgeServer>(`/api/edgeServers/${id}`);
const fetchService = (id: number) => apiFetch<Service>(`/api/services/${id}`);

/** An edge server; `0` (not known yet) asks for nothing. */
export const useEdgeServer = (id: number) =>
  useQuery({
    queryKey: edgeServerKey(id),
    queryFn: () => apiFetch<EdgeServer>(`/api/edgeServers/${id}`),
    enabled: id > 0,
  });

export const useEdgeServerTypes = () =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'serverTypes'],
    queryFn: () => apiFetch<EdgeServerType[]>('/api/edgeServerTypes'),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Any write to an edge server shows in every list and in its own entry. */
const useInvalidateEdge = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: EDGE_QUERY_KEY });
};

export type EdgeServerDraft = {
  name: string;
  type: string;
  siteId: number | null;
  advancedOptions: EdgeServer['advancedOptions'];
};

export const useCreateEdgeServer = (userId: number) => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (draft: EdgeServerDraft) =>
      apiFetch<EdgeServerCreated>(`/api/users/${userId}/edgeServers`, { method: 'POST', body: draft }),
    onSuccess: invalidate,
  });
};

export type EdgeServerChange = { id: number; name: string } & Partial<
  Pick<EdgeServer, 'type' | 'siteId' | 'advancedOptions' | 'supportConnection'>
>;

/** Saves the whole edge, or only `{id, name}` for a rename. */
export const useSaveEdgeServer = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (change: EdgeServerChange) =>
      apiFetch<EdgeServer>(`/api/edgeServers/${change.id}`, { method: 'POST', body: change }),
    onSuccess: invalidate,
  });
};

export const useTrashEdgeServer = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/edgeServers/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: invalidate,
  });
};

export const useSupportConnection = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      apiFetch<EdgeServer>(`/api/edgeServers/${id}/supportConnection`, {
        method: 'POST',
        body: { supportConnection: enabled },
      }),
    onSuccess: invalidate,
  });
};

export const useEdgeAction = (id: number) =>
  useMutation({
    mutationFn: (action: EdgeAction) =>
      apiFetch<EdgeActionResult>(`/api/edgeServers/${id}/actions/${action}`, { method: 'POST', body: {} }),
  });

// ---- services -------------------------------------------------------------------------------------

const servicesKey = (edgeServerId: number) => [...EDGE_QUERY_KEY, 'services', edgeServerId] as const;

export const useServices = (edgeServerId: number) => {
  const key = servicesKey(edgeServerId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Collection<Service>>(`/api/edgeServers/${edgeServerId}/services`, { raw: true }),
  });
  // spec2 §4 Realtime: a change refetches the changed services by id.
  useLiveListById(query.data?.channel, key, fetchService, (service) => service.edgeServerId === edgeServerId);
  return query;
};

export const useServiceTypes = (edgeServerId: number) =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'serviceTypes', edgeServerId],
    queryFn: () => apiFetch<ServiceType[]>(`/api/edgeServers/${edgeServerId}/serviceTypes`),
    retry: false,
  });

export const useServiceTemplates = (edgeServerId: number) =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'serviceTemplates', edgeServerId],
    queryFn: () => apiFetch<ServiceTemplate[]>(`/api/edgeServers/${edgeServerId}/serviceTemplates`),
    retry: false,
  });

export const useService = (serviceId: number, options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'service', serviceId],
    enabled: options.enabled,
    queryFn: () => apiFetch<Service>(`/api/services/${serviceId}`),
  });

export type ServiceDraft = Pick<Service, 'name' | 'typeId' | 'options'> & { serviceGroupId?: number | null };

export const useCreateService = (edgeServerId: number) => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (draft: ServiceDraft) =>
      apiFetch<Service>(`/api/edgeServers/${edgeServerId}/services`, {
        method: 'POST',
        body: { ...draft, edgeServerId },
      }),
    onSuccess: invalidate,
  });
};

export const useSaveService = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (service: Pick<Service, 'id' | 'edgeServerId' | 'name' | 'typeId' | 'options'>) =>
      apiFetch<Service>(`/api/services/${service.id}`, { method: 'POST', body: service }),
    onSuccess: invalidate,
  });
};

/** Asks the edge server's agent to restart a service or rescan its endpoints. */
export const useServiceAction = () =>
  useMutation({
    mutationFn: ({ id, action }: { id: number; action: (typeof SERVICE_ACTIONS)[number] }) =>
      apiFetch<EdgeActionResult>(`/api/services/${id}/actions/${action}`, { method: 'POST', body: {} }),
  });

export const useTrashService = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/services/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: invalidate,
  });
};

// ---- endpoints ------------------------------------------------------------------------------------

const endpointsKey = (serviceId: number) => [...EDGE_QUERY_KEY, 'endpoints', serviceId] as const;

export const useServiceEndpoints = (serviceId: number) => {
  const key = endpointsKey(serviceId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<Collection<Endpoint>>(`/api/services/${serviceId}/endpoints`, { raw: true }),
  });
  useLiveRefresh(query.data?.channel, key);
  return query;
};

export const useEndpointTypes = (serviceId: number) =>
  useQuery({
    queryKey: [...EDGE_QUERY_KEY, 'endpointTypes', serviceId],
    queryFn: () => apiFetch<EndpointType[]>(`/api/services/${serviceId}/endpointTypes`),
  });

export type EndpointDraft = Pick<
  Endpoint,
  'name' | 'typeId' | 'accountId' | 'arrivalsFolderId' | 'workflowId' | 'options' | 'online'
> & { pendingSettings: boolean };

export const useCreateEndpoint = (serviceId: number) => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (draft: EndpointDraft) =>
      apiFetch<Endpoint>(`/api/services/${serviceId}/endpoints`, {
        method: 'POST',
        body: { ...draft, serviceId },
      }),
    onSuccess: invalidate,
  });
};

export const useSaveEndpoint = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: ({ id, ...change }: EndpointDraft & { id: number }) =>
      apiFetch<Endpoint>(`/api/endpoints/${id}`, { method: 'POST', body: { id, ...change } }),
    onSuccess: invalidate,
  });
};

export const useEndpointAction = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'enable' | 'disable' | 'reset' }) =>
      apiFetch<Endpoint>(`/api/endpoints/${id}/actions/${action}`, { method: 'POST', body: {} }),
    onSuccess: invalidate,
  });
};

export const useTrashEndpoint = () => {
  const invalidate = useInvalidateEdge();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/endpoints/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: invalidate,
  });
};

// ---- what an endpoint points at -------------------------------------------------------------------

/** Accounts the user can see, matching a search: the choices of an endpoint's account. */
export const useVisibleAccounts = (searchText: string) =>
  useQuery({
    queryKey: ['accounts', 'forEndpoint', searchText],
    queryFn: () => {
      const query = new URLSearchParams({ limit: '50', sort: 'name', includeDisabled: '0' });
      if (searchText) query.set('searchText', searchText);
      return apiFetch<Collection<AccountListItem>>(`/api/accounts?${query}`, { raw: true });
    },
    placeholderData: keepPreviousData,
  });

export const useAccountArrivalsFolders = (accountId: number | null) =>
  useQuery({
    queryKey: ['arrivalsFolders', accountId],
    enabled: accountId !== null,
    queryFn: () => apiFetch<ArrivalsFolder[]>(`/api/accounts/${accountId}/arrivalsFolders`),
    retry: false,
  });

/** '** Create New Folder **' (spec2 §3): a folder made on the spot, with the defaults of a new one. */
export const useCreateAccountArrivalsFolder = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, name }: { accountId: number; name: string }) =>
      apiFetch<ArrivalsFolder>(`/api/accounts/${accountId}/arrivalsFolders`, {
        method: 'POST',
        body: { name },
      }),
    onSuccess: (_saved, { accountId }) =>
      queryClient.invalidateQueries({ queryKey: ['arrivalsFolders', accountId] }),
  });
};

export const useAccountWorkflows = (accountId: number | null) =>
  useQuery({
    queryKey: ['workflows', accountId],
    enabled: accountId !== null,
    queryFn: () => apiFetch<Workflow[]>(`/api/accounts/${accountId}/workflows`),
    retry: false,
  });

/** The name of an endpoint's account, for its select when the account is not among the search's matches. */
export const useAccountName = (accountId: number | null) =>
  useQuery({
    queryKey: ['accounts', 'name', accountId],
    enabled: accountId !== null,
    queryFn: async () => (await apiFetch<{ id: number; name: string }>(`/api/accounts/${accountId}`)).name,
    retry: false,
    staleTime: 60_000,
  });

import {
  type Account,
  ARRIVALS_MESSAGES,
  type ArrivalsAssignment,
  type ArrivalsFolder,
  type ArrivalsFolderType,
  type arrivalsFolderCreateSchema,
  type arrivalsFolderUpdateSchema,
  CREATE_NEW_FOLDER_ID,
  type Endpoint,
} from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, apiFetch } from './client.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

export type ArrivalsFolderCreate = z.input<typeof arrivalsFolderCreateSchema>;
export type ArrivalsFolderUpdate = z.input<typeof arrivalsFolderUpdateSchema>;

export const arrivalsKey = (accountId: number) => ['arrivals', accountId] as const;
export const arrivalsFoldersKey = (accountId: number) => [...arrivalsKey(accountId), 'folders'] as const;
const typesKey = (accountId: number) => [...arrivalsKey(accountId), 'types'] as const;
export const accountEndpointsKey = (accountId: number) => [...arrivalsKey(accountId), 'endpoints'] as const;
export const assignmentsKey = (accountId: number) => [...arrivalsKey(accountId), 'assignments'] as const;

/** GET /api/accounts/{id}/arrivalsFolders: the account's folders and the channel that tells of changes. */
export const useArrivalsFolders = (accountId: number) =>
  useQuery({
    queryKey: arrivalsFoldersKey(accountId),
    queryFn: () =>
      apiFetch<Collection<ArrivalsFolder>>(`/api/accounts/${accountId}/arrivalsFolders`, { raw: true }),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });

export const useArrivalsFolderTypes = (accountId: number) =>
  useQuery({
    queryKey: typesKey(accountId),
    queryFn: () => apiFetch<ArrivalsFolderType[]>(`/api/accounts/${accountId}/arrivalsFolderTypes`),
    staleTime: 5 * 60_000,
  });

/** GET /api/accounts/{id}/endpoints: the endpoints that may be assigned to the account's folders. */
export const useAccountEndpoints = (accountId: number) =>
  useQuery({
    queryKey: accountEndpointsKey(accountId),
    queryFn: () => apiFetch<Collection<Endpoint>>(`/api/accounts/${accountId}/endpoints`, { raw: true }),
  });

export const useArrivalsAssignments = (accountId: number) =>
  useQuery({
    queryKey: assignmentsKey(accountId),
    queryFn: () =>
      apiFetch<ArrivalsAssignment[]>(`/api/accounts/${accountId}/arrivalsFolderEndpointAssignments`),
  });

/** Puts a saved folder into the cached list, replacing the one with its id. */
const upsertFolder = (
  queryClient: ReturnType<typeof useQueryClient>,
  accountId: number,
  folder: ArrivalsFolder,
) =>
  queryClient.setQueryData<Collection<ArrivalsFolder>>(arrivalsFoldersKey(accountId), (list) => {
    if (!list) return list;
    const exists = list.results.some((f) => f.id === folder.id);
    return exists
      ? { ...list, results: list.results.map((f) => (f.id === folder.id ? folder : f)) }
      : { ...list, results: [...list.results, folder], total: list.total + 1 };
  });

export const useCreateArrivalsFolder = (accountId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folder: ArrivalsFolderCreate) =>
      apiFetch<ArrivalsFolder>(`/api/accounts/${accountId}/arrivalsFolders`, {
        method: 'POST',
        body: folder,
      }),
    onSuccess: (saved) => upsertFolder(queryClient, accountId, saved),
  });
};

/** POST /api/arrivalsFolders/{id}: the full folder, or `{ id, name }` for a rename. */
export const useUpdateArrivalsFolder = (accountId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folder: ArrivalsFolderUpdate) =>
      apiFetch<ArrivalsFolder>(`/api/arrivalsFolders/${folder.id}`, { method: 'POST', body: folder }),
    onSuccess: (saved) => upsertFolder(queryClient, accountId, saved),
  });
};

export const useTrashArrivalsFolder = (accountId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/arrivalsFolders/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<Collection<ArrivalsFolder>>(arrivalsFoldersKey(accountId), (list) =>
        list
          ? { ...list, results: list.results.filter((f) => f.id !== id), total: Math.max(0, list.total - 1) }
          : list,
      );
      void queryClient.invalidateQueries({ queryKey: assignmentsKey(accountId) });
    },
  });
};

/** Assigns an endpoint to a folder (POST /api/arrivalsFolderEndpointAssignments) or takes it off (…/trash). */
export const useAssignEndpoint = (accountId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ assignment, remove }: { assignment: ArrivalsAssignment; remove?: boolean }) =>
      apiFetch(`/api/arrivalsFolderEndpointAssignments${remove ? '/trash' : ''}`, {
        method: 'POST',
        body: assignment,
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: assignmentsKey(accountId) }),
        queryClient.invalidateQueries({ queryKey: arrivalsFoldersKey(accountId) }),
        queryClient.invalidateQueries({ queryKey: accountEndpointsKey(accountId) }),
      ]),
  });
};

/** The account of an `/accounts/{accountId}/…` page (GET /api/accounts/{id}), with what the user may change. */
export const useAccountById = (accountId: number) =>
  useQuery({
    queryKey: ['accounts', 'byId', accountId],
    queryFn: () => apiFetch<Account>(`/api/accounts/${accountId}`),
    retry: false,
  });

export type FolderChoice = { value: string; label: string; disabled?: boolean };

/**
 * The choices where an arrivals folder is chosen (spec2 §3, §6): the folders, optionally '** Unassigned **'
 * and '** Create New Folder **' (id NEW); a 403 when fetching the folders leaves the single choice
 * '** An account manager must set **'.
 */
export const arrivalsFolderChoices = (
  folders: Pick<ArrivalsFolder, 'id' | 'name'>[] | 'forbidden',
  extra: { unassigned?: boolean; createNew?: boolean } = {},
): FolderChoice[] =>
  folders === 'forbidden'
    ? [{ value: '', label: ARRIVALS_MESSAGES.managerMustSet, disabled: true }]
    : [
        ...(extra.unassigned ? [{ value: '', label: ARRIVALS_MESSAGES.unassigned }] : []),
        ...folders.map((folder) => ({ value: String(folder.id), label: folder.name })),
        ...(extra.createNew
          ? [{ value: CREATE_NEW_FOLDER_ID, label: ARRIVALS_MESSAGES.createNewFolder }]
          : []),
      ];

/** The folder choices of an account, as the folder selects show them. */
export const useArrivalsFolderChoices = (
  accountId: number,
  extra: { unassigned?: boolean; createNew?: boolean } = {},
) => {
  const folders = useArrivalsFolders(accountId);
  const forbidden = folders.error instanceof ApiError && folders.error.status === 403;
  return {
    ...folders,
    choices: forbidden
      ? arrivalsFolderChoices('forbidden')
      : arrivalsFolderChoices(folders.data?.results ?? [], extra),
    forbidden,
  };
};

import {
  type AccountListItem,
  type AnyColumnSet,
  COLUMN_PATHS,
  type ColumnKind,
  type ExtraData,
  type ExtraDataScope,
  type ExtraDataUpdate,
  type KeyboardExpansionMap,
  type KeyShortcutContext,
  type KeyShortcutLevel,
  type KeyShortcutSet,
} from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

export const extraDataKey = (scope: ExtraDataScope, id: number) => ['extraData', scope, id] as const;

export const useExtraData = (scope: ExtraDataScope, id: number) =>
  useQuery({
    queryKey: extraDataKey(scope, id),
    queryFn: () => apiFetch<ExtraData>(`/api/${scope}/${id}/extraData`),
  });

/** Sets (value) or deletes (null) keys; the answer is the whole object, which replaces the cache. */
export const useUpdateExtraData = (scope: ExtraDataScope, id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ExtraDataUpdate) =>
      apiFetch<ExtraData>(`/api/${scope}/${id}/extraData`, { method: 'POST', body: update }),
    onSuccess: (saved) => queryClient.setQueryData(extraDataKey(scope, id), saved),
  });
};

export const ingestFormatsKey = (accountId: number) => ['ingestFormats', accountId] as const;

export const useIngestFormats = (accountId: number) =>
  useQuery({
    queryKey: ingestFormatsKey(accountId),
    queryFn: () => apiFetch<string[]>(`/api/accounts/${accountId}/ingestFormats`),
  });

export const useSaveIngestFormats = (accountId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (formats: string[]) =>
      apiFetch<string[]>(`/api/accounts/${accountId}/ingestFormats`, { method: 'POST', body: formats }),
    onSuccess: (saved) => queryClient.setQueryData(ingestFormatsKey(accountId), saved),
  });
};

export const keyMapsKey = (accountId: number) => ['keyboardExpansions', accountId] as const;

export const fetchKeyMaps = (accountId: number) =>
  apiFetch<Collection<KeyboardExpansionMap>>(`/api/keyboardExpansions?accountId=${accountId}`, { raw: true });

export const useKeyMaps = (accountId: number) =>
  useQuery({ queryKey: keyMapsKey(accountId), queryFn: () => fetchKeyMaps(accountId) });

export const useExportKeyMap = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { accountId: number; name: string; cloneFromId: number }) =>
      apiFetch<KeyboardExpansionMap>('/api/keyboardExpansions', { method: 'POST', body }),
    onSuccess: (saved) => queryClient.invalidateQueries({ queryKey: keyMapsKey(saved.accountId) }),
  });
};

const contextQuery = (context: KeyShortcutContext) => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(context))
    if (value !== undefined) query.set(name, String(value));
  return query.toString();
};

export const keyShortcutsKey = (context: KeyShortcutContext) => ['keyshortcuts', context] as const;

export const useKeyShortcuts = (context: KeyShortcutContext) =>
  useQuery({
    queryKey: keyShortcutsKey(context),
    queryFn: () =>
      apiFetch<Collection<KeyShortcutSet>>(`/api/keyshortcuts?${contextQuery(context)}`, { raw: true }),
  });

export const useKeyShortcutAccessLevel = (context: KeyShortcutContext) =>
  useQuery({
    queryKey: ['keyshortcutsAccessLevel', context],
    queryFn: () =>
      apiFetch<{ levels: KeyShortcutLevel[]; defaultLevel: KeyShortcutLevel }>(
        `/api/keyshortcutsAccessLevel?${contextQuery(context)}`,
      ),
  });

export type KeyShortcutChange = Pick<KeyShortcutSet, 'id' | 'name' | 'parentId' | 'visible' | 'level'>;

/**
 * spec1 §4: Save sends the batch update, then a trash call per removed set, then the new default if
 * one was chosen; the list reloads afterwards whatever happened.
 */
export const useSaveKeyShortcuts = (context: KeyShortcutContext) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (plan: { updates: KeyShortcutChange[]; removals: number[]; newDefault?: number }) => {
      if (plan.updates.length)
        await apiFetch('/api/keyshortcuts', {
          method: 'PUT',
          body: plan.updates.map((set) => ({ ...set, ...context })),
        });
      for (const id of plan.removals)
        await apiFetch(`/api/keyshortcuts/${id}/trash`, { method: 'POST', body: {} });
      if (plan.newDefault !== undefined)
        await apiFetch('/api/defaultKeyshortcuts', {
          method: 'POST',
          body: {
            data: { keyshortcutId: plan.newDefault, accountId: context.accountId, siteId: context.siteId },
          },
        });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keyShortcutsKey(context) }),
  });
};

/** Accounts the user manages, matching a search: the targets of a keyboard expansion map export. */
export const useManagedAccounts = (searchText: string) =>
  useQuery({
    queryKey: ['accounts', 'managed', searchText],
    queryFn: () => {
      const query = new URLSearchParams({ managed: '1', limit: '50', sort: 'name', includeDisabled: '0' });
      if (searchText) query.set('searchText', searchText);
      return apiFetch<Collection<AccountListItem>>(`/api/accounts?${query}`, { raw: true });
    },
    placeholderData: (previous) => previous,
  });

export type ColumnOwner = { scope: 'accounts' | 'sites'; id: number };

export const columnsKey = (owner: ColumnOwner, kind: ColumnKind) =>
  ['columns', owner.scope, owner.id, kind] as const;

/** The owner's own set (or what it inherits, when autoInherit) and the defaults it would inherit. */
export const useColumns = (owner: ColumnOwner, kind: ColumnKind) =>
  useQuery({
    queryKey: columnsKey(owner, kind),
    queryFn: async () => {
      const base = `/api/${owner.scope}/${owner.id}`;
      const [set, defaults] = await Promise.all([
        apiFetch<AnyColumnSet>(`${base}/${COLUMN_PATHS[kind].own}`),
        apiFetch<AnyColumnSet['columns']>(`${base}/${COLUMN_PATHS[kind].defaults}`),
      ]);
      return { ...set, defaults };
    },
  });

export const useSaveColumns = (owner: ColumnOwner, kind: ColumnKind) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: AnyColumnSet) =>
      apiFetch<AnyColumnSet>(`/api/${owner.scope}/${owner.id}/${COLUMN_PATHS[kind].own}`, {
        method: 'POST',
        body: set,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['columns', owner.scope, owner.id] }),
  });
};

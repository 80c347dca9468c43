import {
  type Account,
  type AccountListItem,
  type AccountRole,
  type AccountUpdate,
  MAX_PAGE_LIMIT,
  PAGE_SIZE_ALL,
  type PageWindow,
} from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';
import { emptyCollection, loadOrEmpty } from './fallback.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

export type AccountSort = { id: 'name' | 'siteName' | 'productionName' | 'createdAt'; desc: boolean };
export type AccountsFilter = { searchText: string; siteId?: number };

export const ACCOUNTS_QUERY_KEY = ['accounts'] as const;
export const ACCOUNT_LIST_QUERY_KEY = [...ACCOUNTS_QUERY_KEY, 'list'] as const;
export const accountByNameKey = (name: string) => [...ACCOUNTS_QUERY_KEY, 'byName', name] as const;

const pageLimit = (window: PageWindow) =>
  String(window.pageSize === PAGE_SIZE_ALL ? MAX_PAGE_LIMIT : window.pageSize);

export const useAccounts = (window: PageWindow, sort: AccountSort, filter: AccountsFilter) =>
  useQuery({
    queryKey: [...ACCOUNT_LIST_QUERY_KEY, window, sort, filter],
    queryFn: () => {
      const query = new URLSearchParams({
        offset: String(window.startIndex),
        limit: pageLimit(window),
        sort: sort.id,
        desc: sort.desc ? '1' : '0',
      });
      if (filter.searchText) query.set('searchText', filter.searchText);
      if (filter.siteId !== undefined) query.set('siteId', String(filter.siteId));
      return loadOrEmpty(
        () => apiFetch<Collection<AccountListItem>>(`/api/accounts?${query}`, { raw: true }),
        emptyCollection<AccountListItem>(),
        'loading accounts',
      );
    },
    placeholderData: keepPreviousData,
  });

/** The account of the `/accounts/{accountName}/` page, with what the user may change on it. */
export const useAccountByName = (name: string) =>
  useQuery({
    queryKey: accountByNameKey(name),
    queryFn: () => apiFetch<Account>(`/api/accounts/byName/${encodeURIComponent(name)}`),
    retry: false,
  });

export const useUpdateAccount = (account: Pick<Account, 'id' | 'name'>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: AccountUpdate) =>
      apiFetch<Account>(`/api/accounts/${account.id}`, { method: 'POST', body: change }),
    onSuccess: (saved) => {
      queryClient.setQueryData(accountByNameKey(account.name), saved);
      void queryClient.invalidateQueries({ queryKey: ACCOUNT_LIST_QUERY_KEY });
    },
  });
};

/** Create ({name, siteId}) or clone ({name, cloneFrom, siteId?}) an account. */
export const useCreateAccount = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      body: { name: string; siteId: number } | { name: string; cloneFrom: number; siteId?: number },
    ) => apiFetch<Account>('/api/accounts', { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ACCOUNT_LIST_QUERY_KEY }),
  });
};

type Reservation = { name: string; reserved: boolean };

/** Holds a name for a clone while the user confirms it (spec1 §1), or gives it back. */
export const useAccountNameReservation = () => {
  const reserve = useMutation({
    mutationFn: (body: { name: string; cloneFrom: number }) =>
      apiFetch<Reservation>('/api/accounts', { method: 'POST', body: { reserveKey: true, ...body } }),
  });
  const release = useMutation({
    mutationFn: (body: { name: string; cloneFrom: number }) =>
      apiFetch<Reservation>('/api/accounts', { method: 'POST', body: { unreserveKey: true, ...body } }),
  });
  return { reserve, release };
};

export type EditorOptionKind = 'versions' | 'skins' | 'launchModes';

export const useEditorOptions = (kind: EditorOptionKind) =>
  useQuery({
    queryKey: ['editor', kind],
    queryFn: () => apiFetch<string[]>(`/api/editor/${kind}`),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The roles an account of this site can give, sorted by name (the Edit-role dropdown, spec1 §2). */
export const useAccountRoles = (siteId: number | undefined) =>
  useQuery({
    queryKey: ['accountRoles', siteId],
    enabled: siteId !== undefined,
    queryFn: async () => {
      const roles = await apiFetch<AccountRole[]>(`/api/account_roles?siteId=${siteId}`);
      return [...roles].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
    },
  });

export const useLaunchAccount = (accountId: number) =>
  useMutation({
    mutationFn: (roleId: number | undefined) =>
      apiFetch<{ accountId: number; roleId: number; url: string }>(`/api/accounts/${accountId}/launch`, {
        method: 'POST',
        body: roleId === undefined ? {} : { roleId },
      }),
  });

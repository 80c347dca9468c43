import type { AccountListItem, AuditPage } from '@media/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

const auditKey = ['auditLog'] as const;

/** GET /api/auditLog: a page of the activity the user may read, by the filters' query (`before` pages). */
export const useAuditLog = (query: URLSearchParams, before: string | undefined) => {
  const params = new URLSearchParams(query);
  if (before) params.set('before', before);
  return useQuery({
    queryKey: [...auditKey, 'all', params.toString()],
    queryFn: () => apiFetch<AuditPage>(`/api/auditLog?${params}`, { raw: true }),
    placeholderData: keepPreviousData,
  });
};

/** GET /api/me/auditLog: what others did to the signed-in user. */
export const useOwnAuditLog = (before: string | undefined) =>
  useQuery({
    queryKey: [...auditKey, 'own', before],
    queryFn: () =>
      apiFetch<AuditPage>(`/api/me/auditLog${before ? `?before=${encodeURIComponent(before)}` : ''}`, {
        raw: true,
      }),
    placeholderData: keepPreviousData,
  });

/** The CSV of every row the filters match (a download link: the browser sends the session). */
export const auditExportUrl = (query: URLSearchParams) => `/api/auditLog/export?${query}`;

/** Accounts the user sees whose name has the text, for the account filter. */
export const searchAccounts = async (text: string) =>
  (
    await apiFetch<{ results: AccountListItem[] }>(
      `/api/accounts?${new URLSearchParams({ searchText: text, limit: '20', sort: 'name' })}`,
      { raw: true },
    )
  ).results;

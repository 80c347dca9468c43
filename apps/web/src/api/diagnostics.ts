import type { AccountDashboard, Diagnostics } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

export const DIAGNOSTICS_QUERY_KEY = ['diagnostics'] as const;
export const accountDashboardKey = (accountId: number | undefined) =>
  ['accountDashboard', accountId] as const;

/** GET /api/diagnostics (administrators): measured again on every load and on Refresh, never retried. */
export const useDiagnostics = () =>
  useQuery({
    queryKey: DIAGNOSTICS_QUERY_KEY,
    queryFn: () => apiFetch<Diagnostics>('/api/diagnostics'),
    retry: false,
    refetchOnWindowFocus: false,
  });

/** GET /api/accounts/{id}/dashboard, once the account's id is known. */
export const useAccountDashboard = (accountId: number | undefined) =>
  useQuery({
    queryKey: accountDashboardKey(accountId),
    queryFn: () => apiFetch<AccountDashboard>(`/api/accounts/${accountId}/dashboard`),
    enabled: accountId !== undefined,
    retry: false,
  });

import {
  ACCESS_PAGE_LIMIT,
  type AccountRole,
  type AccountSession,
  type AccountUser,
  type Invite,
  USER_SEARCH_LIMIT,
  USER_SEARCH_LIMIT_WIDE,
  type User,
} from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './client.ts';
import { emptyCollection, loadOrEmpty } from './fallback.ts';

export type Collection<T> = { results: T[]; total: number; channel: string };
export type PageOf = { offset: number; limit: number };

export const FIRST_ACCESS_PAGE: PageOf = { offset: 0, limit: ACCESS_PAGE_LIMIT };

const pageQuery = (page: PageOf) => `offset=${page.offset}&limit=${page.limit}`;

export const accountUsersKey = (accountId: number) => ['accounts', accountId, 'userAccess'] as const;
export const invitesKey = (accountId: number) => ['accounts', accountId, 'invites'] as const;
export const sessionsKey = (accountId: number) => ['accounts', accountId, 'sessions'] as const;

export const useAccountUsers = (accountId: number, page: PageOf) =>
  useQuery({
    queryKey: [...accountUsersKey(accountId), page],
    queryFn: () =>
      loadOrEmpty(
        () =>
          apiFetch<Collection<AccountUser>>(`/api/accounts/${accountId}/userAccess?${pageQuery(page)}`, {
            raw: true,
          }),
        emptyCollection<AccountUser>(),
        'loading the users of the account',
      ),
  });

export const useInvites = (accountId: number, page: PageOf) =>
  useQuery({
    queryKey: [...invitesKey(accountId), page],
    queryFn: () =>
      apiFetch<Collection<Invite>>(`/api/accounts/${accountId}/invites?${pageQuery(page)}`, { raw: true }),
  });

export const useSessions = (accountId: number, page: PageOf) =>
  useQuery({
    queryKey: [...sessionsKey(accountId), page],
    queryFn: () =>
      apiFetch<Collection<AccountSession>>(`/api/accounts/${accountId}/sessions?${pageQuery(page)}`, {
        raw: true,
      }),
  });

/** The roles an account of the site can give, sorted by name (spec1 §2). */
export const useAccountRoles = (siteId: number | undefined) =>
  useQuery({
    queryKey: ['sites', siteId, 'roles'],
    queryFn: () => apiFetch<AccountRole[]>(`/api/account_roles?siteId=${siteId}`),
    enabled: siteId !== undefined,
    staleTime: 60_000,
  });

export const useEditorChoices = (kind: 'versions' | 'skins', enabled = true) =>
  useQuery({
    queryKey: ['editor', kind],
    queryFn: () => apiFetch<string[]>(`/api/editor/${kind}`),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });

export type AccessChange = { userId: number; roleId: number; version?: string | null; skin?: string | null };

export const saveAccess = (accountId: number, data: AccessChange[]) =>
  apiFetch<AccountUser[]>(`/api/accounts/${accountId}/userAccess`, { method: 'POST', body: { data } });

export const removeAccess = (accountId: number, userId: number) =>
  apiFetch<{ ok: true }>(`/api/accounts/${accountId}/userAccess/${userId}`, { method: 'DELETE' });

export const createInvites = (
  accountId: number,
  data: { email: string; roleId: number; username?: string }[],
) => apiFetch<Invite[]>(`/api/accounts/${accountId}/invites`, { method: 'POST', body: { data } });

export const updateInvite = (accountId: number, inviteId: number, roleId: number) =>
  apiFetch<Invite>(`/api/accounts/${accountId}/invites/${inviteId}`, { method: 'POST', body: { roleId } });

export const trashInvite = (accountId: number, inviteId: number) =>
  apiFetch<{ ok: true }>(`/api/accounts/${accountId}/invites/${inviteId}/trash`, {
    method: 'POST',
    body: {},
  });

export const disconnectSession = (accountId: number, sessionId: string, disconnectmessage: string) =>
  apiFetch<{ message: string }>(`/api/accounts/${accountId}/sessions/${sessionId}/trash`, {
    method: 'POST',
    body: { disconnectmessage },
  });

/**
 * spec1 §6, §7: administrators search every user (20 a page); others the users of a site (10 a page; users
 * of the sites where they manage, when no site is given).
 */
export const userSearchQuery = (
  text: string,
  options: { admin: boolean; siteId?: number; limit?: number },
) => {
  const query = new URLSearchParams({
    searchText: text,
    limit: String(options.limit ?? (options.admin ? USER_SEARCH_LIMIT_WIDE : USER_SEARCH_LIMIT)),
  });
  if (options.admin) query.set('type', 'all');
  else {
    query.set('type', 'site');
    if (options.siteId !== undefined) query.set('siteId', String(options.siteId));
  }
  return query.toString();
};

export const searchUsers = (text: string, options: { admin: boolean; siteId?: number; limit?: number }) =>
  apiFetch<User[]>(`/api/users?${userSearchQuery(text, options)}`);

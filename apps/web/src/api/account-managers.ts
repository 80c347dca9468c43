import type { Manager, ManagerType } from '@media/contract';
import { useQuery } from '@tanstack/react-query';
import type { Collection, PageOf } from './account-access.ts';
import { apiFetch } from './client.ts';

export type ManagerScope = { type: ManagerType; scopeId?: number; roleId?: number };

export const managersKey = (scope: ManagerScope) =>
  ['managers', scope.type, scope.scopeId, scope.roleId] as const;

const scopeQuery = (scope: ManagerScope) => {
  const query = new URLSearchParams();
  if (scope.scopeId !== undefined) query.set('scopeId', String(scope.scopeId));
  if (scope.roleId !== undefined) query.set('roleId', String(scope.roleId));
  return query;
};

export const useManagers = (scope: ManagerScope, page: PageOf) =>
  useQuery({
    queryKey: [...managersKey(scope), page],
    queryFn: () => {
      const query = scopeQuery(scope);
      query.set('offset', String(page.offset));
      query.set('limit', String(page.limit));
      return apiFetch<Collection<Manager>>(`/api/managers/${scope.type}?${query}`, { raw: true });
    },
  });

export const addManager = (scope: ManagerScope, userId: number) =>
  apiFetch<{ ok: true }>(`/api/managers/${scope.type}/${userId}`, {
    method: 'POST',
    body: {
      ...(scope.scopeId !== undefined ? { scopeId: scope.scopeId } : {}),
      ...(scope.roleId !== undefined ? { roleId: scope.roleId } : {}),
    },
  });

export const removeManager = (scope: ManagerScope, userId: number) => {
  const query = scopeQuery(scope);
  query.delete('roleId');
  return apiFetch<{ ok: true }>(`/api/managers/${scope.type}/${userId}?${query}`, { method: 'DELETE' });
};

export const raiseEmailVerification = (userId: number) =>
  apiFetch(`/api/users/${userId}`, { method: 'POST', body: { emailverified: true } });

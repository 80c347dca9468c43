import {
  MAX_PAGE_LIMIT,
  PAGE_SIZE_ALL,
  type PageWindow,
  type Reseller,
  type Site,
  type SiteGroup,
  type SitePermissions,
} from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

type Collection<T> = { results: T[]; total: number; channel: string };

/** The three levels above accounts, as the API names their collections. */
export type OrgKind = 'resellers' | 'siteGroups' | 'sites';
export type OrgEntity = { resellers: Reseller; siteGroups: SiteGroup; sites: Site };

export const orgQueryKey = (kind: OrgKind) => ['organisation', kind] as const;

/** Every row at once, for the parent selects; "All" asks for the largest page. */
export const ALL_ROWS: PageWindow = { startIndex: 0, pageSize: PAGE_SIZE_ALL };

export const useOrgList = <K extends OrgKind>(
  kind: K,
  window: PageWindow,
  filter: { searchText?: string; parentId?: number } = {},
  options: { enabled?: boolean } = {},
) =>
  useQuery({
    queryKey: [...orgQueryKey(kind), 'list', window, filter],
    enabled: options.enabled ?? true,
    queryFn: () => {
      const query = new URLSearchParams({
        offset: String(window.startIndex),
        limit: String(window.pageSize === PAGE_SIZE_ALL ? MAX_PAGE_LIMIT : window.pageSize),
      });
      if (filter.searchText) query.set('searchText', filter.searchText);
      if (filter.parentId !== undefined)
        query.set(kind === 'sites' ? 'siteGroupId' : 'resellerId', String(filter.parentId));
      return apiFetch<Collection<OrgEntity[K]>>(`/api/${kind}?${query}`, { raw: true });
    },
    placeholderData: keepPreviousData,
  });

export type OrgCreate = { name: string; parentId?: number };
export type OrgChange = { name?: string; parentId?: number; disabled?: boolean };

const parentField = (kind: OrgKind) =>
  kind === 'siteGroups' ? 'resellerId' : kind === 'sites' ? 'siteGroupId' : undefined;

/** The body the API expects: the parent under its own name (resellerId, siteGroupId). */
const bodyOf = (kind: OrgKind, { parentId, ...rest }: OrgChange) => {
  const field = parentField(kind);
  return field && parentId !== undefined ? { ...rest, [field]: parentId } : rest;
};

/** A change at one level shows in the lists below it (parent names, counts). */
const invalidateOrganisation = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: ['organisation'] });

export const useCreateOrg = <K extends OrgKind>(kind: K) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (create: OrgCreate) =>
      apiFetch<OrgEntity[K]>(`/api/${kind}`, { method: 'POST', body: bodyOf(kind, create) }),
    onSuccess: () => invalidateOrganisation(queryClient),
  });
};

export const useUpdateOrg = <K extends OrgKind>(kind: K) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: OrgChange }) =>
      apiFetch<OrgEntity[K]>(`/api/${kind}/${id}`, { method: 'POST', body: bodyOf(kind, change) }),
    onSuccess: () => invalidateOrganisation(queryClient),
  });
};

export const useSite = (siteId: number) =>
  useQuery({
    queryKey: [...orgQueryKey('sites'), 'one', siteId],
    queryFn: () => apiFetch<Site>(`/api/sites/${siteId}`),
    retry: false,
  });

export const useSitePermissions = (siteId: number) =>
  useQuery({
    queryKey: [...orgQueryKey('sites'), 'permissions', siteId],
    queryFn: () => apiFetch<SitePermissions>(`/api/sites/${siteId}/permissions`),
    retry: false,
  });

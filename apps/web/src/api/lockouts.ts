import { type Lockout, MAX_PAGE_LIMIT, PAGE_SIZE_ALL, type PageWindow } from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

export type LockoutSort = { id: 'kind' | 'key' | 'failures' | 'lockedUntil'; desc: boolean };
type Collection<T> = { results: T[]; total: number; channel: string };

export const LOCKOUTS_QUERY_KEY = ['loginLockouts'] as const;

export const useLockouts = (window: PageWindow, sort: LockoutSort) =>
  useQuery({
    queryKey: [...LOCKOUTS_QUERY_KEY, window, sort],
    queryFn: () => {
      const query = new URLSearchParams({
        offset: String(window.startIndex),
        limit: String(window.pageSize === PAGE_SIZE_ALL ? MAX_PAGE_LIMIT : window.pageSize),
        sort: sort.id,
        desc: sort.desc ? '1' : '0',
      });
      return apiFetch<Collection<Lockout>>(`/api/loginLockouts?${query}`, { raw: true });
    },
    placeholderData: keepPreviousData,
  });

export const useLiftLockouts = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (locks: Pick<Lockout, 'kind' | 'key'>[]) => {
      for (const { kind, key } of locks)
        await apiFetch('/api/loginLockouts/lift', { method: 'POST', body: { kind, key } });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: LOCKOUTS_QUERY_KEY }),
  });
};

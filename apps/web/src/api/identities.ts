import type { LinkedIdentity } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

const identitiesKey = ['me', 'identities'] as const;

/** The signed-in user's sign-ins linked at the identity provider. */
export const useLinkedIdentities = () =>
  useQuery({ queryKey: identitiesKey, queryFn: () => apiFetch<LinkedIdentity[]>('/api/me/identities') });

/**
 * Starts linking the user's identity at the provider: answers the provider's address, where the browser goes
 * next (the provider asks for the password, then sends the browser back to `returnTo`).
 */
export const useLinkIdentity = () =>
  useMutation({
    mutationFn: (returnTo: string) =>
      apiFetch<{ url: string }>('/api/me/identities/link', { method: 'POST', body: { returnTo } }),
  });

/** Unlinks one; the list is read again whatever the answer. */
export const useUnlinkIdentity = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ ok: true }>(`/api/me/identities/${id}/trash`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: identitiesKey }),
  });
};

import type { ApiToken, ApiTokenCreate } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

const apiTokensKey = ['me', 'apiTokens'] as const;

/** The signed-in user's API tokens, newest first. */
export const useApiTokens = () =>
  useQuery({ queryKey: apiTokensKey, queryFn: () => apiFetch<ApiToken[]>('/api/me/apiTokens') });

/** Makes a token; the answer holds the token itself, this once. */
export const useCreateApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiTokenCreate) =>
      apiFetch<ApiToken & { token: string }>('/api/me/apiTokens', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
  });
};

export const useRevokeApiToken = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ ok: true }>(`/api/me/apiTokens/${id}/trash`, { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
  });
};

const userApiTokensKey = (userId: number) => ['users', userId, 'apiTokens'] as const;

/** Administrators: another user's API tokens, newest first (none asked for until a user is chosen). */
export const useUserApiTokens = (userId: number | undefined) =>
  useQuery({
    queryKey: userApiTokensKey(userId ?? 0),
    queryFn: () => apiFetch<ApiToken[]>(`/api/users/${userId}/apiTokens`),
    enabled: userId !== undefined,
  });

/** Administrators: revokes one of that user's tokens. */
export const useRevokeUserApiToken = (userId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: number) =>
      apiFetch<{ ok: true }>(`/api/users/${userId}/apiTokens/${tokenId}/trash`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userApiTokensKey(userId) }),
  });
};

import type { LoginRequest, LoginResult, Me } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { showAlert } from '../ui/alerts.tsx';
import { ApiError, apiFetch } from './client.ts';
import { stopLiveUpdates } from './live.ts';

export const ME_QUERY_KEY = ['me'] as const;

/** The signed-in user, or null when not signed in. */
export const useMe = () =>
  useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: async () => {
      try {
        return await apiFetch<Me>('/api/me', { noRelogin: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
  });

export const useLogin = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: LoginRequest) =>
      apiFetch<LoginResult>('/api/login', { method: 'POST', body: request, noRelogin: true }),
    onSuccess: (result) => {
      // Drop the cached "not signed in", so the shell waits for the new user instead of redirecting.
      if (result.status === 'valid') queryClient.removeQueries({ queryKey: ME_QUERY_KEY });
    },
  });
};

/**
 * Signs out, then calls `leave` (which navigates away) before the cached user is dropped: dropping
 * it first would let the shell redirect to `/login?next=…` in a race with the caller's navigation.
 */
export const useLogout = (leave: () => Promise<void> | void) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await stopLiveUpdates();
      return apiFetch<{ ok: true; endSessionUrl?: string }>('/api/logout', {
        method: 'POST',
        body: {},
        noRelogin: true,
      });
    },
    onSuccess: async (answer) => {
      // A session from the identity provider is ended there too (its end-session page comes back to /login).
      if (answer.endSessionUrl) {
        window.location.assign(answer.endSessionUrl);
        return;
      }
      await leave();
      queryClient.setQueryData(ME_QUERY_KEY, null);
    },
    // The session may still be open: say so, rather than leave the button doing nothing.
    onError: (error) =>
      showAlert({ type: 'danger', text: `Could not sign out: ${error.message}`, source: 'sign-out' }),
  });
};

export const usePasswordReset = () =>
  useMutation({
    mutationFn: (username: string) =>
      apiFetch<{ message: string }>('/api/passwordReset', {
        method: 'POST',
        body: { username },
        noRelogin: true,
      }),
  });

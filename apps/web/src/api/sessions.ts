import type { OwnSession, ReauthRequest, reauthResponseSchema, sessionsEndedSchema } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from './client.ts';

export type SessionsEnded = z.infer<typeof sessionsEndedSchema>['results'];
type Reauthenticated = z.infer<typeof reauthResponseSchema>['results'];

const ownSessionsKey = ['me', 'sessions'] as const;

/** The signed-in user's live sessions: the current one first, then the most recently seen. */
export const useOwnSessions = () =>
  useQuery({ queryKey: ownSessionsKey, queryFn: () => apiFetch<OwnSession[]>('/api/me/sessions') });

/** Ends one of the user's other sessions; the list is read again whatever the answer (it may be gone). */
export const useEndOwnSession = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<SessionsEnded>(`/api/me/sessions/${encodeURIComponent(id)}/trash`, {
        method: 'POST',
        body: {},
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
};

/** Ends every session of the user but the one in use. */
export const useEndOtherOwnSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SessionsEnded>('/api/me/sessions/trash', { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
};

/** Signs in again within the session (the password, and the second factor's code when asked for). */
export const useReauthenticate = () =>
  useMutation({
    mutationFn: (request: ReauthRequest) =>
      apiFetch<Reauthenticated>('/api/me/reauth', { method: 'POST', body: request }),
  });

/** Administrators: ends every session of one user (their own current one is kept). */
export const useEndUserSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) =>
      apiFetch<SessionsEnded>(`/api/users/${userId}/sessions/trash`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
};

/** Administrators: ends every session of every user but the caller's current one. */
export const useEndAllSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SessionsEnded>('/api/sessions/trash', { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ownSessionsKey }),
  });
};

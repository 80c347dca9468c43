import type { UserNotification } from '@media/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './client.ts';

type Collection<T> = { results: T[]; total: number; channel: string };
type Setting = { type: 'email' };

export const notificationsKey = (userId: number) => ['users', userId, 'notifications'] as const;
export const notificationSettingsKey = (userId: number) => ['users', userId, 'notificationSettings'] as const;

export const useNotifications = (userId: number) =>
  useQuery({
    queryKey: notificationsKey(userId),
    queryFn: () =>
      apiFetch<Collection<UserNotification>>(`/api/users/${userId}/notifications?limit=100`, { raw: true }),
  });

export const useAcknowledgeNotification = (userId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<UserNotification>(`/api/users/${userId}/notifications/${id}`, {
        method: 'POST',
        body: { status: 'acknowledged' },
      }),
    onSuccess: (_done, id) =>
      queryClient.setQueryData<Collection<UserNotification>>(notificationsKey(userId), (old) =>
        old
          ? { ...old, results: old.results.filter((n) => n.id !== id), total: Math.max(0, old.total - 1) }
          : old,
      ),
  });
};

export const useNotificationSettings = (userId: number) =>
  useQuery({
    queryKey: notificationSettingsKey(userId),
    queryFn: () => apiFetch<Setting[]>(`/api/users/${userId}/notificationSettings`),
  });

export const useUpdateNotificationSettings = (userId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emailOn: boolean) =>
      apiFetch<Setting[]>(`/api/users/${userId}/notificationSettings`, {
        method: 'POST',
        body: emailOn ? { add: [{ type: 'email' }] } : { remove: [{ type: 'email' }] },
      }),
    onSuccess: (settings) => queryClient.setQueryData(notificationSettingsKey(userId), settings),
  });
};

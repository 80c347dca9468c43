import type {
  PageWindow,
  Webhook,
  WebhookCreate,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryStatus,
  WebhookUpdate,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookWithSecretSchema,
} from '@media/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from './client.ts';
import { useLiveRefresh } from './live.ts';

type WebhookList = z.infer<typeof webhookListSchema>;
type DeliveryList = z.infer<typeof webhookDeliveryListSchema>;
/** A webhook as a creation or a rotation answers it: with its whole secret, this once. */
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>['results'];

/** Every webhook query: a change anywhere reads them again (there are few, and their deliveries are paged). */
const webhooksKey = ['webhooks'] as const;

/** An account's webhooks (its Integrations), or the cloud's (null). */
const ownerPath = (accountId: number | null) =>
  accountId === null ? '/api/webhooks' : `/api/accounts/${accountId}/webhooks`;

const pageQuery = (window: PageWindow) =>
  new URLSearchParams({ offset: String(window.startIndex), limit: String(window.pageSize) });

/** GET /api/accounts/{id}/webhooks or /api/webhooks, kept live on their channel. */
export const useWebhooks = (accountId: number | null, window: PageWindow) => {
  const queryKey = [...webhooksKey, 'list', accountId, window];
  const query = useQuery({
    queryKey,
    queryFn: () => apiFetch<WebhookList>(`${ownerPath(accountId)}?${pageQuery(window)}`, { raw: true }),
    placeholderData: keepPreviousData,
  });
  useLiveRefresh(query.data?.channel, queryKey);
  return query;
};

/** Makes a webhook; the answer holds its secret, this once. */
export const useCreateWebhook = (accountId: number | null) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookCreate) =>
      apiFetch<WebhookWithSecret>(ownerPath(accountId), { method: 'POST', body: input }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

/** Changes a webhook's address, events or description, or enables or disables it. */
export const useUpdateWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: WebhookUpdate }) =>
      apiFetch<Webhook>(`/api/webhooks/${id}`, { method: 'POST', body: change }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

/** Removes a webhook and its deliveries. */
export const useTrashWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<{ ok: true }>(`/api/webhooks/${id}/trash`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

/** A new signing secret, answered this once; the old one stops at once. */
export const useRotateWebhookSecret = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<WebhookWithSecret>(`/api/webhooks/${id}/rotateSecret`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

/** Sends a ping delivery now; answers the delivery. */
export const useTestWebhook = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<WebhookDelivery>(`/api/webhooks/${id}/test`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

/** GET /api/webhooks/{id}/deliveries: newest first, one page, of one status or all; kept live. */
export const useWebhookDeliveries = (
  webhookId: number,
  window: PageWindow,
  status: WebhookDeliveryStatus | undefined,
) => {
  const queryKey = [...webhooksKey, 'deliveries', webhookId, window, status];
  const query = useQuery({
    queryKey,
    queryFn: () => {
      const search = pageQuery(window);
      if (status) search.set('status', status);
      return apiFetch<DeliveryList>(`/api/webhooks/${webhookId}/deliveries?${search}`, { raw: true });
    },
    placeholderData: keepPreviousData,
  });
  useLiveRefresh(query.data?.channel, queryKey);
  return query;
};

/** GET /api/webhookDeliveries/{id}: what was sent and what came back; read again on its webhook's channel. */
export const useWebhookDelivery = (id: number | undefined, channel: string | undefined) => {
  const queryKey = [...webhooksKey, 'delivery', id];
  const query = useQuery({
    queryKey,
    enabled: id !== undefined,
    queryFn: () => apiFetch<WebhookDeliveryDetail>(`/api/webhookDeliveries/${id}`),
  });
  useLiveRefresh(id === undefined ? undefined : channel, queryKey);
  return query;
};

/** Tries a delivery that failed (or waits) again now. */
export const useRetryWebhookDelivery = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiFetch<WebhookDelivery>(`/api/webhookDeliveries/${id}/retry`, { method: 'POST', body: {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
  });
};

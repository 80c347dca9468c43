import { Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import {
  formatTableDate,
  type PageWindow,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from '@media/contract';
import { useCallback, useMemo, useState } from 'react';
import { useRetryWebhookDelivery, useWebhookDeliveries } from '../../api/webhooks.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { DataTable, type DataTableColumn } from '../../ui/data-table/DataTable.tsx';
import { notify } from '../../ui/notify.tsx';
import { DeliveryDetails } from './DeliveryDetails.tsx';
import { DELIVERY_STATUS_OPTIONS, DeliveryStatusBadge } from './DeliveryStatusBadge.tsx';
import { RETRYABLE_STATUSES } from './webhook-events.ts';

const FIRST_PAGE: PageWindow = { startIndex: 0, pageSize: 20 };
const ALL_STATUSES = 'all';

const when = (iso: string | null) => (iso ? formatTableDate(new Date(iso)) : '');

/** Retry, for a delivery that did not arrive: one more attempt now. */
export const useRetry = () => {
  const { mutate, isPending, variables } = useRetryWebhookDelivery();
  const run = useCallback(
    (delivery: WebhookDelivery) =>
      mutate(delivery.id, {
        onSuccess: () => notify({ type: 'success', text: 'Delivery retried' }),
        onError: (error) => showAlert({ type: 'danger', text: error.message, source: 'webhooks' }),
      }),
    [mutate],
  );
  return { run, busyId: isPending ? variables : undefined };
};

/**
 * One webhook's deliveries, newest first and paged, of one status or all: event, status, attempts, the
 * receiver's answer, how long it took and when; the event opens what was sent and what came back.
 */
export const WebhookDeliveries = ({ webhookId }: { webhookId: number }) => {
  const [window, setWindow] = useState(FIRST_PAGE);
  const [status, setStatus] = useState<WebhookDeliveryStatus>();
  const [openId, setOpenId] = useState<number>();
  const [opened, setOpened] = useState(false);
  const deliveries = useWebhookDeliveries(webhookId, window, status);
  const retry = useRetry();

  const columns = useMemo<DataTableColumn<WebhookDelivery>[]>(
    () => [
      {
        id: 'type',
        header: 'Event',
        width: 150,
        cell: (delivery) => (
          <Anchor
            component="button"
            type="button"
            size="sm"
            aria-label={`${delivery.type}: details of delivery ${delivery.id}`}
            onClick={() => {
              setOpenId(delivery.id);
              setOpened(true);
            }}
          >
            {delivery.type}
          </Anchor>
        ),
      },
      { id: 'status', header: 'Status', width: 100, cell: (d) => <DeliveryStatusBadge status={d.status} /> },
      { id: 'attempts', header: 'Attempts', width: 80, cell: (d) => String(d.attempts) },
      { id: 'response', header: 'Response', width: 90, cell: (d) => d.responseStatus ?? '' },
      {
        id: 'duration',
        header: 'Duration',
        width: 90,
        cell: (d) => (d.durationMs === null ? '' : `${d.durationMs} ms`),
      },
      { id: 'created', header: 'Created', width: 140, cell: (d) => when(d.createdAt) },
      { id: 'lastAttempt', header: 'Last attempt', width: 140, cell: (d) => when(d.lastAttemptAt) },
      {
        id: 'actions',
        header: '',
        width: 80,
        cell: (d) =>
          RETRYABLE_STATUSES.includes(d.status) ? (
            <Button
              size="compact-xs"
              variant="light"
              aria-label={`Retry delivery ${d.id}`}
              loading={retry.busyId === d.id}
              onClick={() => retry.run(d)}
            >
              Retry
            </Button>
          ) : null,
      },
    ],
    [retry.busyId, retry.run],
  );

  return (
    <Stack gap="sm" data-testid="webhook-deliveries">
      <Group justify="space-between" align="flex-end">
        <Text size="sm" c="dimmed">
          Each delivery keeps its request and the receiver's answer (the first 2 kB of each).
        </Text>
        <Select
          label="Status"
          size="xs"
          w={160}
          allowDeselect={false}
          data={[{ value: ALL_STATUSES, label: 'All' }, ...DELIVERY_STATUS_OPTIONS]}
          value={status ?? ALL_STATUSES}
          onChange={(value) => {
            setStatus(value && value !== ALL_STATUSES ? (value as WebhookDeliveryStatus) : undefined);
            setWindow(FIRST_PAGE);
          }}
        />
      </Group>
      <DataTable
        entities="deliveries"
        rows={deliveries.data?.results ?? []}
        total={deliveries.data?.total ?? 0}
        getRowId={(delivery) => String(delivery.id)}
        columns={columns}
        loading={deliveries.isPending}
        error={deliveries.error?.message ?? null}
        emptyText={
          status ? 'No delivery has this status' : 'Nothing has been sent yet: Send test sends a ping'
        }
        window={window}
        onWindowChange={setWindow}
        height={360}
      />
      <DeliveryDetails
        deliveryId={openId}
        opened={opened}
        channel={deliveries.data?.channel}
        onRetry={retry.run}
        retryBusy={openId !== undefined && retry.busyId === openId}
        onClose={() => setOpened(false)}
      />
    </Stack>
  );
};

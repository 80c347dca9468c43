import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  formatDateTime,
  WEBHOOK_KEPT_BYTES,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
} from '@media/contract';
import type { ReactNode } from 'react';
import { useWebhookDelivery } from '../../api/webhooks.ts';
import { DeliveryStatusBadge } from './DeliveryStatusBadge.tsx';
import { RETRYABLE_STATUSES, readableBody } from './webhook-events.ts';

const when = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : '—');

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** A kept text (headers or a body) in a scrolling block, or what stands for it when there is none. */
const Kept = ({ label, text, none }: { label: string; text: string | null; none: string }) => (
  <Stack gap={4}>
    <Text size="sm" fw={500}>
      {label}
    </Text>
    {text ? (
      <ScrollArea.Autosize mah={240} type="auto">
        <Code block aria-label={label} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {text}
        </Code>
      </ScrollArea.Autosize>
    ) : (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    )}
  </Stack>
);

const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack gap={0}>
    <Text size="xs" c="dimmed">
      {label}
    </Text>
    <Text size="sm" component="div">
      {children}
    </Text>
  </Stack>
);

const Details = ({ delivery }: { delivery: WebhookDeliveryDetail }) => (
  <Stack gap="md" data-testid="webhook-delivery-details">
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      <Fact label="Status">
        <DeliveryStatusBadge status={delivery.status} />
      </Fact>
      <Fact label="Attempts">{delivery.attempts}</Fact>
      <Fact label="Response">{delivery.responseStatus ?? '—'}</Fact>
      <Fact label="Duration">{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</Fact>
      <Fact label="Created">{when(delivery.createdAt)}</Fact>
      <Fact label="Last attempt">{when(delivery.lastAttemptAt)}</Fact>
      {delivery.status === 'retrying' && <Fact label="Next attempt">{when(delivery.nextAttemptAt)}</Fact>}
      <Fact label="Message id">
        <Code>{delivery.messageId}</Code>
      </Fact>
    </SimpleGrid>
    {delivery.error && (
      <Alert color="red" title="Error" role="alert">
        {delivery.error}
      </Alert>
    )}
    <Text size="xs" c="dimmed">
      Bodies and headers are kept up to their first {WEBHOOK_KEPT_BYTES / 1024} kB.
    </Text>
    <Title order={4}>Request</Title>
    <Kept label="Request headers" text={headerLines(delivery.requestHeaders)} none="None" />
    <Kept label="Request body" text={readableBody(delivery.requestBody)} none="Empty" />
    <Title order={4}>Response</Title>
    <Kept
      label="Response headers"
      text={delivery.responseHeaders ? headerLines(delivery.responseHeaders) : null}
      none="No answer was received"
    />
    <Kept
      label="Response body"
      text={delivery.responseBody ? readableBody(delivery.responseBody) : null}
      none={delivery.responseHeaders ? 'Empty' : 'No answer was received'}
    />
  </Stack>
);

/** One delivery's details in a dialog: what was sent and what came back; Retry when it did not arrive. */
export const DeliveryDetails = ({
  deliveryId,
  opened,
  channel,
  onRetry,
  retryBusy,
  onClose,
}: {
  /** The delivery shown, kept while the dialog closes. */
  deliveryId: number | undefined;
  opened: boolean;
  channel: string | undefined;
  onRetry: (delivery: WebhookDelivery) => void;
  retryBusy: boolean;
  onClose: () => void;
}) => {
  const delivery = useWebhookDelivery(deliveryId, channel);
  const shown = delivery.data;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      closeButtonProps={{ 'aria-label': 'Close the delivery' }}
      title={shown ? `Delivery of ${shown.type}` : 'Delivery'}
    >
      {delivery.isPending ? (
        <Loader aria-label="Loading" />
      ) : delivery.isError ? (
        <Alert color="red" role="alert">
          Could not load the delivery: {delivery.error.message}
        </Alert>
      ) : (
        <Stack gap="md">
          <Details delivery={delivery.data} />
          <Group justify="flex-end">
            {RETRYABLE_STATUSES.includes(delivery.data.status) && (
              <Button variant="light" loading={retryBusy} onClick={() => onRetry(delivery.data)}>
                Retry
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
};

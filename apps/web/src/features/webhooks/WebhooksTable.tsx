import { Anchor, Code, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { formatTableDate, WEBHOOK_FAILURES_TO_DISABLE, type Webhook } from '@media/contract';
import type { WebhookWithSecret } from '../../api/webhooks.ts';
import { DeliveryStatusBadge } from './DeliveryStatusBadge.tsx';
import { WebhookActions, WebhookEnabledSwitch } from './WebhookActions.tsx';

const eventCount = (count: number) => `${count} event${count === 1 ? '' : 's'}`;

/** On or off, and plainly why when the server turned it off; failures in a row while it is on. */
const WebhookState = ({ webhook }: { webhook: Webhook }) => (
  <Stack gap={4} align="flex-start">
    <WebhookEnabledSwitch webhook={webhook} />
    {!webhook.enabled && webhook.disabledReason === 'failures' && (
      <Text size="xs" c="red" maw={200} data-testid="webhook-disabled-after-failures">
        <strong>Disabled after failures:</strong> its last {WEBHOOK_FAILURES_TO_DISABLE} deliveries failed.
        Enable it to try again.
      </Text>
    )}
    {webhook.enabled && webhook.consecutiveFailures > 0 && (
      <Text size="xs" c="orange">
        {webhook.consecutiveFailures} failed in a row
      </Text>
    )}
  </Stack>
);

/**
 * A list of webhooks: address (with the start of its secret), description, events, on or off, the last
 * delivery, and each one's actions. The chosen one (its deliveries shown) is marked.
 */
export const WebhooksTable = ({
  webhooks,
  chosenId,
  onDeliveries,
  onEdit,
  onSecret,
}: {
  webhooks: Webhook[];
  chosenId: number | undefined;
  onDeliveries: (webhook: Webhook) => void;
  onEdit: (webhook: Webhook) => void;
  onSecret: (rotated: WebhookWithSecret) => void;
}) => (
  <Table.ScrollContainer minWidth={960}>
    <Table striped highlightOnHover data-testid="webhooks" verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Address</Table.Th>
          <Table.Th>Description</Table.Th>
          <Table.Th>Events</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th style={{ whiteSpace: 'nowrap' }}>Last delivery</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {webhooks.map((webhook) => (
          <Table.Tr
            key={webhook.id}
            data-webhook-id={webhook.id}
            aria-current={webhook.id === chosenId ? 'true' : undefined}
            // The chosen one is marked by a bar at its start (a coloured row would dim its link below contrast).
            style={
              webhook.id === chosenId
                ? { boxShadow: 'inset 4px 0 0 var(--mantine-primary-color-filled)' }
                : undefined
            }
          >
            <Table.Td miw={220} maw={320} style={{ overflowWrap: 'anywhere' }}>
              <Anchor
                component="button"
                type="button"
                size="sm"
                ta="left"
                onClick={() => onDeliveries(webhook)}
              >
                {webhook.url}
              </Anchor>
              <Text size="xs" c="dimmed">
                Secret <Code>{webhook.secretPrefix}…</Code>
              </Text>
            </Table.Td>
            <Table.Td maw={220}>
              <Text size="sm" lineClamp={3}>
                {webhook.description}
              </Text>
            </Table.Td>
            <Table.Td>
              <Tooltip label={webhook.events.join(', ')} multiline w={260} withArrow>
                <Text size="sm" tabIndex={0} style={{ whiteSpace: 'nowrap' }}>
                  {eventCount(webhook.events.length)}
                </Text>
              </Tooltip>
            </Table.Td>
            <Table.Td>
              <WebhookState webhook={webhook} />
            </Table.Td>
            <Table.Td>
              {webhook.lastDeliveryStatus && webhook.lastDeliveryAt ? (
                <Stack gap={2} align="flex-start">
                  <DeliveryStatusBadge status={webhook.lastDeliveryStatus} />
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatTableDate(new Date(webhook.lastDeliveryAt))}
                  </Text>
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  None yet
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <WebhookActions
                webhook={webhook}
                onDeliveries={() => onDeliveries(webhook)}
                onEdit={() => onEdit(webhook)}
                onSecret={onSecret}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  </Table.ScrollContainer>
);

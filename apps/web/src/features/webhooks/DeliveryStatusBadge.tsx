import { Badge } from '@mantine/core';
import type { WebhookDeliveryStatus } from '@media/contract';

const STATUS: Record<WebhookDeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  retrying: { label: 'Retrying', color: 'yellow' },
  delivered: { label: 'Delivered', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  refused: { label: 'Refused', color: 'grape' },
};

/** A delivery's status in a word: refused is one the outbound guard would not send (a loopback address…). */
export const DeliveryStatusBadge = ({ status }: { status: WebhookDeliveryStatus }) => (
  <Badge color={STATUS[status].color} variant="light" data-status={status}>
    {STATUS[status].label}
  </Badge>
);

export const DELIVERY_STATUS_OPTIONS = (Object.keys(STATUS) as WebhookDeliveryStatus[]).map((status) => ({
  value: status,
  label: STATUS[status].label,
}));

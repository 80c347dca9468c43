import { Button, Group, Menu, Switch } from '@mantine/core';
import type { Webhook } from '@media/contract';
import {
  useRotateWebhookSecret,
  useTestWebhook,
  useTrashWebhook,
  useUpdateWebhook,
  type WebhookWithSecret,
} from '../../api/webhooks.ts';
import { showAlert } from '../../ui/alerts.tsx';
import { confirmDialog } from '../../ui/dialogs.tsx';
import { notify } from '../../ui/notify.tsx';
import { RowDangerButton } from '../../ui/RowDangerButton.tsx';

const failed = (error: unknown) =>
  showAlert({
    type: 'danger',
    text: error instanceof Error ? error.message : String(error),
    source: 'webhooks',
  });

/** A webhook's on/off switch: enabling one disabled after failures counts its failures from nothing. */
export const WebhookEnabledSwitch = ({ webhook }: { webhook: Webhook }) => {
  const update = useUpdateWebhook();
  const toggle = (enabled: boolean) =>
    update.mutate(
      { id: webhook.id, change: { enabled } },
      {
        onSuccess: () =>
          notify({ type: 'success', text: `Webhook to ${webhook.url} ${enabled ? 'enabled' : 'disabled'}` }),
        onError: failed,
      },
    );
  return (
    <Switch
      size="sm"
      label={webhook.enabled ? 'Enabled' : 'Disabled'}
      aria-label={`Enabled: ${webhook.url}`}
      checked={webhook.enabled}
      disabled={update.isPending}
      onChange={(event) => toggle(event.currentTarget.checked)}
    />
  );
};

/**
 * A webhook's actions: its deliveries, Send test (a ping, enabled webhooks only), Edit and Rotate secret in a
 * menu, and Remove; rotating and removing ask first.
 */
export const WebhookActions = ({
  webhook,
  onDeliveries,
  onEdit,
  onSecret,
}: {
  webhook: Webhook;
  onDeliveries: () => void;
  onEdit: () => void;
  /** The webhook with its new secret, to be shown this once. */
  onSecret: (rotated: WebhookWithSecret) => void;
}) => {
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const trash = useTrashWebhook();

  const sendTest = () =>
    test.mutate(webhook.id, {
      onSuccess: () => {
        notify({ type: 'success', text: `Test delivery sent to ${webhook.url}` });
        onDeliveries();
      },
      onError: failed,
    });

  const askRotate = async () => {
    const confirmed = await confirmDialog({
      title: 'Rotate secret',
      subtitle: `Give the webhook to ${webhook.url} a new secret?`,
      message:
        'The old secret stops at once: deliveries are signed with the new one, which the receiver must be given before it can check them.',
      confirmLabel: 'Rotate secret',
      danger: true,
    });
    if (confirmed) rotate.mutate(webhook.id, { onSuccess: onSecret, onError: failed });
  };

  const askRemove = async () => {
    const confirmed = await confirmDialog({
      title: 'Remove webhook',
      subtitle: `Remove the webhook to ${webhook.url}?`,
      message: 'Its deliveries are removed with it, and those waiting are not sent. This cannot be undone.',
      confirmLabel: 'Remove',
      danger: true,
    });
    if (confirmed)
      trash.mutate(webhook.id, {
        onSuccess: () => notify({ type: 'success', text: `Webhook to ${webhook.url} removed` }),
        onError: failed,
      });
  };

  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Deliveries of ${webhook.url}`}
        onClick={onDeliveries}
      >
        Deliveries
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        aria-label={`Send test to ${webhook.url}`}
        title={webhook.enabled ? undefined : 'Enable the webhook to send a test'}
        disabled={!webhook.enabled}
        loading={test.isPending}
        onClick={sendTest}
      >
        Send test
      </Button>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            size="compact-sm"
            variant="subtle"
            aria-label={`More actions for ${webhook.url}`}
            loading={rotate.isPending}
          >
            More…
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={onEdit}>Edit</Menu.Item>
          <Menu.Item onClick={() => void askRotate()}>Rotate secret</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <RowDangerButton
        label="Remove"
        ariaLabel={`Remove the webhook to ${webhook.url}`}
        busy={trash.isPending}
        onClick={() => void askRemove()}
      />
    </Group>
  );
};

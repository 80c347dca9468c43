import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type AlertType, notificationLifetime } from '@media/contract';
import { ALERT_COLORS } from './alerts.tsx';

export type NotifyOptions = {
  text: string;
  type: AlertType;
  /** With an undo id the notification stays until used or closed, and offers Undo. */
  undoId?: string;
  onUndo?: (undoId: string) => void;
  neverRemove?: boolean;
};

let sequence = 0;

/** A notification in the notification area: gone after 15 s unless it carries an undo id or neverRemove. */
export const notify = (options: NotifyOptions) => {
  const id = `notification-${++sequence}`;
  notifications.show({
    id,
    color: ALERT_COLORS[options.type],
    autoClose: notificationLifetime(options),
    message:
      options.undoId && options.onUndo ? (
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{options.text}</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              options.onUndo?.(options.undoId as string);
              notifications.hide(id);
            }}
          >
            Undo
          </Button>
        </Group>
      ) : (
        options.text
      ),
  });
  return id;
};

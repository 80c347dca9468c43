import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import {
  NOTIFICATION_TABS,
  naturalDate,
  renderNotificationText,
  type UserNotification,
} from '@media/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { useLiveRefresh } from '../../api/live.ts';
import { notificationsKey, useAcknowledgeNotification, useNotifications } from '../../api/notifications.ts';

const NotificationItem = ({
  notification,
  onAcknowledge,
  onOpen,
}: {
  notification: UserNotification;
  onAcknowledge: () => void;
  /** Following the notification's link closes the list. */
  onOpen: () => void;
}) => (
  <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="notification-item">
    <Stack gap={2}>
      <Text size="sm">{renderNotificationText(notification.message)}</Text>
      <Group gap="xs">
        <Text size="xs" c="dimmed">
          {naturalDate(new Date(notification.created))}
        </Text>
        {notification.link && (
          <Anchor component={Link} to={notification.link} size="xs" onClick={onOpen}>
            Open
          </Anchor>
        )}
      </Group>
    </Stack>
    <ActionIcon variant="subtle" size="sm" aria-label="Acknowledge" onClick={onAcknowledge}>
      ✓
    </ActionIcon>
  </Group>
);

/** spec1 §2: tabs Notifications, Problems, Warning, Done, Info with a count badge each; kept fresh live. */
export const NotificationsPopover = ({ userId }: { userId: number }) => {
  const notifications = useNotifications(userId);
  const acknowledge = useAcknowledgeNotification(userId);
  useLiveRefresh(notifications.data?.channel, notificationsKey(userId));
  const items = notifications.data?.results ?? [];
  const [opened, setOpened] = useState(false);

  return (
    <Popover width={460} position="bottom-end" shadow="md" withinPortal opened={opened} onChange={setOpened}>
      <Popover.Target>
        <Indicator
          label={items.length}
          size={16}
          disabled={items.length === 0}
          data-testid="notifications-count"
        >
          <Button
            variant="subtle"
            size="xs"
            aria-label={`Notifications (${items.length})`}
            onClick={() => setOpened((open) => !open)}
          >
            Notifications
          </Button>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        {notifications.isError && (
          <Text c="red">An error occurred while fetching the data: {notifications.error.message}</Text>
        )}
        <Tabs defaultValue="Notifications">
          <Tabs.List>
            {NOTIFICATION_TABS.map((tab) => {
              const count = items.filter((n) => !tab.type || n.type === tab.type).length;
              return (
                <Tabs.Tab
                  key={tab.label}
                  value={tab.label}
                  rightSection={
                    <Badge size="xs" variant="light" data-testid={`tab-count-${tab.label}`}>
                      {count}
                    </Badge>
                  }
                >
                  {tab.label}
                </Tabs.Tab>
              );
            })}
          </Tabs.List>
          {NOTIFICATION_TABS.map((tab) => {
            const shown = items.filter((n) => !tab.type || n.type === tab.type);
            return (
              <Tabs.Panel key={tab.label} value={tab.label} pt="xs">
                <ScrollArea.Autosize mah={360}>
                  <Stack gap="sm">
                    {notifications.isPending && <Text c="dimmed">Loading…</Text>}
                    {!notifications.isPending && shown.length === 0 && (
                      <Text c="dimmed" size="sm">
                        Nothing here
                      </Text>
                    )}
                    {shown.map((n) => (
                      <NotificationItem
                        key={n.id}
                        notification={n}
                        onAcknowledge={() => acknowledge.mutate(n.id)}
                        onOpen={() => setOpened(false)}
                      />
                    ))}
                  </Stack>
                </ScrollArea.Autosize>
              </Tabs.Panel>
            );
          })}
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
};

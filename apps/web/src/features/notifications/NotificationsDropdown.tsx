import { ActionIcon, Anchor, Badge, Group, Popover, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import {
  NOTIFICATION_TABS,
  naturalDate,
  renderNotificationText,
  type UserNotification,
} from '@media/contract';
import type { ReactElement } from 'react';
import { Link } from 'react-router';

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

export type NotificationsDropdownProps = {
  /** The header's button, which the popover opens from. */
  trigger: ReactElement;
  opened: boolean;
  onChange: (opened: boolean) => void;
  items: readonly UserNotification[];
  pending: boolean;
  error: Error | null;
  onAcknowledge: (id: number) => void;
};

/** spec1 §2: tabs Notifications, Problems, Warning, Done, Info with a count badge each. */
export const NotificationsDropdown = ({
  trigger,
  opened,
  onChange,
  items,
  pending,
  error,
  onAcknowledge,
}: NotificationsDropdownProps) => (
  <Popover width={460} position="bottom-end" shadow="md" withinPortal opened={opened} onChange={onChange}>
    <Popover.Target>{trigger}</Popover.Target>
    <Popover.Dropdown>
      {error && <Text c="red">An error occurred while fetching the data: {error.message}</Text>}
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
                  {pending && <Text c="dimmed">Loading…</Text>}
                  {!pending && shown.length === 0 && (
                    <Text c="dimmed" size="sm">
                      Nothing here
                    </Text>
                  )}
                  {shown.map((n) => (
                    <NotificationItem
                      key={n.id}
                      notification={n}
                      onAcknowledge={() => onAcknowledge(n.id)}
                      onOpen={() => onChange(false)}
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

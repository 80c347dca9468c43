import { Button, Indicator } from '@mantine/core';
import { useState } from 'react';
import { useLiveRefresh } from '../../api/live.ts';
import { notificationsKey, useAcknowledgeNotification, useNotifications } from '../../api/notifications.ts';
import { Deferred, lazyNamed } from '../../ui/deferred.tsx';

// The list (popover, tabs, scroll area) loads after the shell; until then the same button stands alone.
const NotificationsDropdown = lazyNamed(
  async () => (await import('./NotificationsDropdown.tsx')).NotificationsDropdown,
);

/** The header's notifications button with its count, and their list (spec1 §2), kept fresh live. */
export const NotificationsPopover = ({ userId }: { userId: number }) => {
  const notifications = useNotifications(userId);
  const acknowledge = useAcknowledgeNotification(userId);
  useLiveRefresh(notifications.data?.channel, notificationsKey(userId));
  const items = notifications.data?.results ?? [];
  const [opened, setOpened] = useState(false);

  const trigger = (
    <Button
      variant="subtle"
      size="xs"
      aria-label={`Notifications (${items.length})`}
      onClick={() => setOpened((open) => !open)}
    >
      Notifications
    </Button>
  );

  // The count is drawn around the popover's target: the button carries the popup's ARIA, not the drawing.
  return (
    <Indicator label={items.length} size={16} disabled={items.length === 0} data-testid="notifications-count">
      <Deferred fallback={trigger}>
        <NotificationsDropdown
          trigger={trigger}
          opened={opened}
          onChange={setOpened}
          items={items}
          pending={notifications.isPending}
          error={notifications.isError ? notifications.error : null}
          onAcknowledge={(id) => acknowledge.mutate(id)}
        />
      </Deferred>
    </Indicator>
  );
};

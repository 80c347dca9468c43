import { Checkbox, Loader, Text } from '@mantine/core';
import { MSG_NOTIFICATION_SETTINGS_UPDATED } from '@media/contract';
import { useState } from 'react';
import { useNotificationSettings, useUpdateNotificationSettings } from '../../api/notifications.ts';
import { showAlert } from '../../ui/alerts.tsx';

/** spec1 §2: one checkbox; a failed toggle goes back to what it was. */
export const EmailNotificationSettings = ({ userId }: { userId: number }) => {
  const settings = useNotificationSettings(userId);
  const update = useUpdateNotificationSettings(userId);
  const [pending, setPending] = useState<boolean>();
  if (settings.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (settings.isError)
    return <Text c="red">An error occurred while fetching the data: {settings.error.message}</Text>;
  const saved = settings.data.some((s) => s.type === 'email');
  return (
    <Checkbox
      label="Enable Email Notifications"
      checked={pending ?? saved}
      disabled={update.isPending}
      onChange={(e) => {
        const next = e.currentTarget.checked;
        setPending(next);
        update.mutate(next, {
          onSuccess: () =>
            showAlert({
              type: 'success',
              text: MSG_NOTIFICATION_SETTINGS_UPDATED,
              source: 'notificationSettings',
            }),
          onError: (error) =>
            showAlert({ type: 'danger', text: `Unable to update notification settings - ${error.message}` }),
          onSettled: () => setPending(undefined),
        });
      }}
    />
  );
};

import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';
import { idTextSchema } from '../http/input.ts';

export const NOTIFICATION_TYPES = ['problem', 'warning', 'done', 'info'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** spec1 §2: the popover's tabs; Notifications shows every type. */
export const NOTIFICATION_TABS: { label: string; type?: NotificationType }[] = [
  { label: 'Notifications' },
  { label: 'Problems', type: 'problem' },
  { label: 'Warning', type: 'warning' },
  { label: 'Done', type: 'done' },
  { label: 'Info', type: 'info' },
];

export const userNotificationSchema = z.object({
  id: z.number().int(),
  created: z.string().describe('ISO time'),
  status: z.enum(['new', 'acknowledged']),
  type: z.enum(NOTIFICATION_TYPES),
  message: z.string(),
  link: z.string().nullable(),
});
export type UserNotification = z.infer<typeof userNotificationSchema>;

export const notificationParamsSchema = z.object({
  id: idTextSchema,
  notificationId: idTextSchema,
});
export const acknowledgeRequestSchema = z.strictObject({ status: z.literal('acknowledged') });
export const acknowledgeResponseSchema = resultsOf(userNotificationSchema);

/** spec2 §8: placeholders the server may put in a notification's text. */
export const NOTIFICATION_PLACEHOLDERS: Record<string, string> = {
  pbnotconn1: 'Edge server',
  pbnotconn2: 'not connected',
  mediaexpired: 'Media has expired',
};

/** The text shown for a notification: placeholders replaced by their words. */
export const renderNotificationText = (message: string) =>
  message.replace(
    /\b(pbnotconn1|pbnotconn2|mediaexpired)\b/g,
    (token) => NOTIFICATION_PLACEHOLDERS[token] ?? token,
  );

export const NOTIFICATION_SETTING_TYPES = ['email'] as const;
export const notificationSettingSchema = z.object({ type: z.enum(NOTIFICATION_SETTING_TYPES) });
export const notificationSettingsResponseSchema = resultsOf(z.array(notificationSettingSchema));
export const notificationSettingsUpdateSchema = z.union([
  z.strictObject({ add: z.array(notificationSettingSchema).min(1) }),
  z.strictObject({ remove: z.array(notificationSettingSchema).min(1) }),
]);

export const MSG_NOTIFICATION_SETTINGS_UPDATED =
  'Your email notification settings have successfully been updated';

import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

export const userNotifications = pgTable(
  'user_notifications',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    status: text({ enum: ['new', 'acknowledged'] })
      .notNull()
      .default('new'),
    type: text({ enum: ['problem', 'warning', 'done', 'info'] }).notNull(),
    message: text().notNull(),
    link: text(),
  },
  (t) => [index().on(t.userId, t.status, t.createdAt)],
);

export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text({ enum: ['email'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

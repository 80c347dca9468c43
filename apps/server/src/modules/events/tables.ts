import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

/** A browser page's update channel: any instance can serve its long-polls. */
export const liveEvents = pgTable(
  'live_events',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The last change this event id has been given. */
    cursor: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.lastSeenAt)],
);

export const liveSubscriptions = pgTable(
  'live_subscriptions',
  {
    eventId: text()
      .notNull()
      .references(() => liveEvents.id, { onDelete: 'cascade' }),
    channel: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.channel] })],
);

/** Every published change, kept a short while so that a long-poll on any instance can pick it up. */
export const liveChanges = pgTable(
  'live_changes',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text().notNull(),
    modified: jsonb().$type<(string | number)[]>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.channel, t.id), index().on(t.createdAt)],
);

import type { WebhookDeliveryStatus, WebhookEvent } from '@media/contract';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** Outgoing webhooks (issue 33): an account's (accountId) or the cloud's (null). */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial().primaryKey(),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    description: text().notNull().default(''),
    events: jsonb().$type<WebhookEvent[]>().notNull(),
    /**
     * The signing secret (`whsec_` + base64 key). Kept as it is, since each delivery is signed with it; never
     * answered after its creation or rotation, never logged.
     */
    secret: text().notNull(),
    enabled: boolean().notNull().default(true),
    /** `failures`: disabled by the server after WEBHOOK_FAILURES_TO_DISABLE failed attempts in a row. */
    disabledReason: text({ enum: ['failures'] }),
    consecutiveFailures: integer().notNull().default(0),
    /** Who made it: told when it is disabled for failures. */
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.accountId)],
);

/**
 * One event for one webhook (the outbox): written in the transaction of its change, sent by a job, each
 * attempt's outcome kept here. The body is kept whole (the same on every attempt, and signed as it is).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    webhookId: integer()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    /** The webhook-id header (`msg_…`): the same on every attempt, so the receiver can drop repeats. */
    messageId: text().notNull(),
    type: text().notNull(),
    body: text().notNull(),
    status: text().$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    responseStatus: integer(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    /** The first WEBHOOK_KEPT_BYTES of the receiver's last answer. */
    responseBody: text(),
    error: text(),
    durationMs: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    nextAttemptAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.webhookId, t.id)],
);

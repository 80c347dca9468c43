import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

export const passwordRules = pgTable('password_rules', {
  rule: text().primaryKey(),
  enabled: boolean().notNull(),
  value: integer().notNull().default(0),
});

export const passwordTokens = pgTable(
  'password_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    resetType: text({ enum: ['just_reset', 'registration'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.userId)],
);

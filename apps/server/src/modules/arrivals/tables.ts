import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../organisation/tables.ts';

/** An account's arrivals folder, which receives ingested media (spec2 §3). */
export const arrivalsFolders = pgTable(
  'arrivals_folders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    typeId: text().notNull(),
    name: text().notNull(),
    priority: integer().notNull().default(0),
    options: jsonb().$type<Record<string, string | number | boolean>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.accountId)],
);

import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** Files people uploaded into an account: media and documents (web upload), metadata mappings (CSV). */
export const uploads = pgTable(
  'uploads',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text({ enum: ['media', 'document', 'metadataMapping'] }).notNull(),
    name: text().notNull(),
    fileName: text().notNull(),
    location: text().notNull().default(''),
    format: text(),
    aspect: text(),
    size: bigint({ mode: 'number' }).notNull(),
    contentType: text().notNull(),
    /** Relative to DATA_DIR; the file is there before the row is written. */
    storagePath: text().notNull(),
    status: text({ enum: ['received'] })
      .notNull()
      .default('received'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_account_created_idx').on(t.accountId, t.kind, t.createdAt)],
);

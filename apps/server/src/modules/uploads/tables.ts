import { type AnyPgColumn, bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { nodes } from '../nodes/tables.ts';
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
    /** received: stored; processing: its node exists and a cloud job makes the proxy; ready; failed (error). */
    status: text({ enum: ['received', 'processing', 'ready', 'failed'] })
      .notNull()
      .default('received'),
    error: text(),
    /** Percent done of the proxy job while `processing`; null otherwise. */
    progress: integer(),
    /** The media tree node the upload became. */
    nodeId: integer().references((): AnyPgColumn => nodes.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('uploads_account_created_idx').on(t.accountId, t.kind, t.createdAt)],
);

import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

/** API tokens (issue 32): a script's way to act as its user. Only the token's hash is kept. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is shown once, at creation. */
    tokenHash: text().notNull().unique(),
    /** The token's first characters, for lists: not enough to use it. */
    prefix: text().notNull(),
    name: text().notNull(),
    scope: text({ enum: ['read', 'write'] }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    /** Written at most once a minute per token, so reads do not turn into writes. */
    lastUsedAt: timestamp({ withTimezone: true }),
    /** Revoked: refused from the next request on; kept so the list can say so until it is gone. */
    trashedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.userId)],
);

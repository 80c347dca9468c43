import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    username: text().notNull(),
    fullname: text().notNull().default(''),
    email: text().notNull().default(''),
    company: text().notNull().default(''),
    emailverified: boolean().notNull().default(false),
    /** argon2id; null until the user has set a password (registration). */
    passwordHash: text(),
    passwordChangedAt: timestamp({ withTimezone: true }),
    disabled: boolean().notNull().default(false),
    /** Base32 TOTP secret once enrolment is confirmed. */
    mfaSecret: text(),
    /** Secret offered at enrolment, waiting for the first code. */
    mfaPendingSecret: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`).where(sql`${t.email} <> ''`),
  ],
);

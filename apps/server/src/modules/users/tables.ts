import { type SQL, sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
    /** The TOTP time step of the last accepted code; a code of that step or earlier is refused (no replay). */
    mfaLastTimeStep: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The site whose page created the user (CSV import); makes them a user of that site. */
    homeSiteId: integer(),
    /** What user search matches, kept by the database so a search scans one plain column. */
    searchText: text().generatedAlwaysAs(
      (): SQL => sql`lower(${users.username} || ' ' || ${users.fullname} || ' ' || ${users.email})`,
    ),
  },
  (t) => [
    index('users_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index().on(t.homeSiteId),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`).where(sql`${t.email} <> ''`),
  ],
);

import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the session id; the id itself is only ever in the cookie. */
    idHash: text().primaryKey(),
    /** Short public handle for lists and disconnection; not a secret. */
    publicId: text().notNull().unique(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When its user last proved who they are in it: the sign-in, or the password entered again (ASVS 7.5.1). */
    authenticatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** How it was signed in: `password` (with the product's second factor) or `oidc` (the provider's). */
    signedInWith: text({ enum: ['password', 'oidc'] })
      .notNull()
      .default('password'),
    ip: text().notNull().default(''),
    userAgent: text().notNull().default(''),
    /** Set when ended by someone else; the next call answers 401 with this text. */
    endedAt: timestamp({ withTimezone: true }),
    disconnectMessage: text(),
    /** The account the session has entered (launched), and the role it acts as there. */
    accountId: integer(),
    actingRoleId: integer(),
  },
  (t) => [index().on(t.userId), index().on(t.accountId)],
);

/** Failed sign-ins per key ('user:<name>' or 'ip:<address>') within the failure window. */
export const loginFailures = pgTable(
  'login_failures',
  {
    key: text().notNull(),
    kind: text({ enum: ['user', 'ip'] }).notNull(),
    failures: integer().notNull().default(0),
    firstFailureAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

/**
 * One row whose value grows with every change to what signing in and rights are read from (sessions ended or
 * switched to another role, users renamed, disabled or deleted, manager grants, account access, managing
 * roles): statement triggers bump it in the changing transaction (migration 0024), so an instance's cached
 * sessions and rights are good while the value it read stands still.
 */
export const authEpoch = pgTable('auth_epoch', {
  id: integer().primaryKey(),
  value: bigint({ mode: 'number' }).notNull(),
});

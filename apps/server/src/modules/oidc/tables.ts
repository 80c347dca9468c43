import { index, integer, pgTable, serial, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from '../users/tables.ts';

/**
 * A person of the identity provider linked to a user: by (issuer, subject) only. The e-mail is what the
 * provider said when it was linked, shown in lists, never used to link.
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    email: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique().on(t.issuer, t.subject), index().on(t.userId)],
);

/**
 * A sign-in under way at the provider (any instance may get its callback): the state's hash, the nonce and
 * PKCE verifier it must come back with, and what it is for. Used once, forgotten after OIDC_LOGIN_TTL_MINUTES.
 */
export const oidcLogins = pgTable('oidc_logins', {
  stateHash: text().primaryKey(),
  nonce: text().notNull(),
  codeVerifier: text().notNull(),
  returnTo: text().notNull().default('/'),
  /** Linking from a signed-in user's settings: that user. */
  linkUserId: integer().references(() => users.id, { onDelete: 'cascade' }),
  /** Accepting an invitation through the provider: the invitation's token. */
  inviteToken: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

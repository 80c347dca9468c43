import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts, sites } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** Roles of account users; `siteId` null = a cloud-wide role offered on every site. */
export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    isManager: boolean().notNull().default(false),
    siteId: integer().references(() => sites.id),
    permissions: text().array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [uniqueIndex('roles_site_name_idx').on(sql`coalesce(${t.siteId}, 0)`, sql`lower(${t.name})`)],
);

/** A user's access to an account, with their role there. */
export const accountAccess = pgTable(
  'account_access',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
    version: text(),
    skin: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index().on(t.userId)],
);

export const MANAGER_SCOPES = ['admin', 'reseller', 'sitegroup', 'site'] as const;

/** Manager rights above account level: administrators (scope admin, no scope id), resellers, site groups, sites. */
export const managerGrants = pgTable(
  'manager_grants',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text({ enum: MANAGER_SCOPES }).notNull(),
    scopeId: integer(),
    roleId: integer().references(() => roles.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('manager_grants_unique_idx').on(t.userId, t.scope, sql`coalesce(${t.scopeId}, 0)`),
    index().on(t.scope, t.scopeId),
  ],
);

/** An invitation to an account, sent by mail; the token is stored only as a hash. */
export const invites = pgTable(
  'invites',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    username: text(),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
    tokenHash: text().notNull().unique(),
    invitedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('invites_account_email_idx').on(t.accountId, sql`lower(${t.email})`)],
);

import { type SQL, sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const resellers = pgTable('resellers', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull().unique(),
  disabled: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const siteGroups = pgTable(
  'site_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    resellerId: integer()
      .notNull()
      .references(() => resellers.id),
    disabled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.resellerId)],
);

export const sites = pgTable(
  'sites',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    siteGroupId: integer()
      .notNull()
      .references(() => siteGroups.id),
    disabled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.siteGroupId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    siteId: integer()
      .notNull()
      .references(() => sites.id),
    disabled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The reseller that bills the account (Billing Group); null = the site's reseller. */
    billingGroupId: integer().references(() => resellers.id),
    productionName: text().notNull().default(''),
    department: text().notNull().default(''),
    billingId: text().notNull().default(''),
    editLimit: integer(),
    welcomeMessage: text().notNull().default(''),
    notes: text().notNull().default(''),
    version: text().notNull().default('stable'),
    launchMode: text().notNull().default('Same tab'),
    skin: text().notNull().default('By Site'),
    defaultEditMode: text().notNull().default('inherit'),
    contactName: text().notNull().default(''),
    contactEmail: text().notNull().default(''),
    contactCompany: text().notNull().default(''),
    contactPhone: text().notNull().default(''),
    /** null: no limit; 0: access locked. */
    concurrentUserLimit: integer(),
    maxVideo: text().notNull().default('640x360'),
    ingestFormats: text().array().notNull().default(sql`'{}'::text[]`),
    /** What account search matches, kept by the database so a search scans one plain column. */
    searchText: text().generatedAlwaysAs(
      (): SQL => sql`lower(${accounts.name} || ' ' || ${accounts.productionName})`,
    ),
  },
  (t) => [
    uniqueIndex('accounts_name_lower_idx').on(sql`lower(${t.name})`),
    index('accounts_site_name_idx').on(t.siteId, sql`lower(${t.name})`),
    index('accounts_created_idx').on(t.createdAt),
    index('accounts_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** A name held for a clone in progress, so nobody else takes it meanwhile. */
export const accountNameReservations = pgTable('account_name_reservations', {
  nameLower: text().primaryKey(),
  name: text().notNull(),
  cloneFrom: integer()
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  userId: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Ingest workflows of an account; the edge area defines what they do. */
export const workflows = pgTable(
  'workflows',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    definition: text().notNull().default('{}'),
  },
  (t) => [index().on(t.accountId)],
);

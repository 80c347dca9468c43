import type { KeyboardExpansion } from '@media/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts, sites } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

export type StoredColumn = {
  displayName: string;
  internalName: string;
  hidden: boolean;
  searchable?: boolean;
  editable?: boolean;
  title?: boolean;
  media?: boolean;
  presets?: string[];
};

/** Metadata column sets: the cloud defaults, and per site or account when not inherited. */
export const columnSets = pgTable(
  'column_sets',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    scope: text({ enum: ['cloud', 'site', 'account'] }).notNull(),
    scopeId: integer(),
    kind: text({ enum: ['file', 'logging'] }).notNull(),
    columns: jsonb().$type<StoredColumn[]>().notNull(),
    autoInherit: boolean().notNull().default(true),
  },
  (t) => [uniqueIndex('column_sets_scope_idx').on(t.scope, sql`coalesce(${t.scopeId}, 0)`, t.kind)],
);

/** Small key/value facts about the installation, such as the anti-forgery HMAC key. */
export const installation = pgTable('installation', {
  key: text().primaryKey(),
  value: text().notNull(),
});

/** Extra key/value data of an account, site or user (spec1 §3); keys carry their prefix. */
export const extraData = pgTable(
  'extra_data',
  {
    scope: text({ enum: ['account', 'site', 'user'] }).notNull(),
    scopeId: integer().notNull(),
    key: text().notNull(),
    value: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.scopeId, t.key] })],
);

/** An account's ingest formats in their stored string form, in the order people put them. */
export const ingestFormats = pgTable(
  'ingest_formats',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    format: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.position] })],
);

/** Keyboard expansion maps, made in the editor; an account's maps can be exported to another account. */
export const keyboardExpansionMaps = pgTable(
  'keyboard_expansion_maps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    expansions: jsonb().$type<KeyboardExpansion[]>().notNull().default([]),
  },
  (t) => [uniqueIndex('keyboard_expansion_maps_name_idx').on(t.accountId, sql`lower(${t.name})`)],
);

/**
 * Key shortcut sets at user, account, site or cloud level; the bindings themselves are edited in the
 * editor and kept here as it sends them.
 */
export const keyShortcutSets = pgTable(
  'key_shortcut_sets',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    parentId: integer().references((): AnyPgColumn => keyShortcutSets.id, { onDelete: 'set null' }),
    visible: boolean().notNull().default(true),
    level: text({ enum: ['user', 'account', 'site', 'cloud'] }).notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    bindings: jsonb().$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [
    index('key_shortcut_sets_user_idx').on(t.userId),
    index('key_shortcut_sets_account_idx').on(t.accountId),
    index('key_shortcut_sets_site_idx').on(t.siteId),
  ],
);

/** The default key shortcut set of an account, a site or the cloud (scope id 0). */
export const keyShortcutDefaults = pgTable(
  'key_shortcut_defaults',
  {
    scope: text({ enum: ['account', 'site', 'cloud'] }).notNull(),
    scopeId: integer().notNull(),
    keyShortcutSetId: integer()
      .notNull()
      .references(() => keyShortcutSets.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.scope, t.scopeId] })],
);

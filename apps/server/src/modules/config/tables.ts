import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';

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

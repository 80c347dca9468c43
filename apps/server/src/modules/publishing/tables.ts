import {
  type Phase,
  PUBLISH_STATUSES,
  type PublishLocationRef,
  type PublishOutput,
  type RoleRestriction,
} from '@media/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { edgeServers } from '../edge/tables.ts';
import { nodes } from '../nodes/tables.ts';
import { accounts, sites } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** An icon of an account's or a site's publishing buttons (exactly one of the two owns it). */
export const publishIcons = pgTable(
  'publish_icons',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Relative to DATA_DIR; always a PNG the server made, so no uploaded script is ever served. */
    storagePath: text().notNull(),
    contentType: text().notNull().default('image/png'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('publish_icons_one_owner', sql`(${t.accountId} is null) <> (${t.siteId} is null)`),
    index('publish_icons_account_idx').on(t.accountId, t.id),
    index('publish_icons_site_idx').on(t.siteId, t.id),
  ],
);

/** A publishing button (spec3 §3) of an account or of a site: exactly one of the two owns it. */
export const publishButtons = pgTable(
  'publish_buttons',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    /** Seconds published items are kept; null = Ever (spec3 §5 keep-for choices). */
    keepFor: integer(),
    enabled: boolean().notNull().default(true),
    iconId: integer().references((): AnyPgColumn => publishIcons.id, { onDelete: 'set null' }),
    phases: jsonb().$type<Phase[]>().notNull(),
    /** Only what the managers restricted; a role not listed is allowed (a new button allows every role). */
    restrictions: jsonb().$type<RoleRestriction[]>().notNull().default([]),
    location: jsonb().$type<PublishLocationRef>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Trashed: kept for the Recycle Bin, never listed. */
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('publish_buttons_one_owner', sql`(${t.accountId} is null) <> (${t.siteId} is null)`),
    index('publish_buttons_account_name_idx').on(t.accountId, sql`lower(${t.name})`),
    index('publish_buttons_site_name_idx').on(t.siteId, sql`lower(${t.name})`),
    index('publish_buttons_icon_idx').on(t.iconId),
  ],
);

/** A published item: one run of a button on a node of an account. */
export const publishes = pgTable(
  'publishes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    buttonId: integer()
      .notNull()
      .references(() => publishButtons.id, { onDelete: 'cascade' }),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    nodeId: integer().references((): AnyPgColumn => nodes.id, { onDelete: 'set null' }),
    /** Who published (notified when it ends). */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    status: text({ enum: PUBLISH_STATUSES }).notNull().default('queued'),
    progress: integer(),
    /** What the run did, a line per step, for the published item's log. */
    log: jsonb().$type<string[]>().notNull().default([]),
    outputs: jsonb().$type<PublishOutput[]>().notNull().default([]),
    error: text(),
    options: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    /** In the Recycle Bin since then (a trashed button sends its items there). */
    deletedAt: timestamp({ withTimezone: true }),
    /** The edge server whose agent carries it out, once the run job handed it over (an edge location). */
    edgeServerId: integer().references(() => edgeServers.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('publishes_button_idx').on(t.buttonId, t.deletedAt),
    index('publishes_edge_idx').on(t.edgeServerId, t.status),
    index('publishes_account_idx').on(t.accountId, t.createdAt),
    index('publishes_node_idx').on(t.nodeId),
  ],
);

/**
 * An account's link to a channel of a publishing service (YouTube): the OAuth refresh token its publishes
 * upload with. Never sent to a browser nor logged; one per account and service.
 */
export const publishConnections = pgTable(
  'publish_connections',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    service: text({ enum: ['youtube'] }).notNull(),
    refreshToken: text().notNull(),
    /** The channel's name as the service tells it, to show who publishes go to. */
    channelTitle: text(),
    connectedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    connectedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('publish_connections_account_service_idx').on(t.accountId, t.service)],
);

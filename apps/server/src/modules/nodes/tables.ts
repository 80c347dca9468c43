import type { Edl, FolderPermission, SubtitleFormat, SubtitleLanguage } from '@media/contract';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

/** A piece of media of an account: a file (ingested or made) or an edl that plays parts of others. */
export const media = pgTable(
  'media',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** `lifestream`: a stream being recorded, played from its live segments until its recording lands. */
    type: text({ enum: ['media', 'edl', 'still', 'lifestream'] }).notNull(),
    /** Relative to DATA_DIR; the file is in place before the row is written. Null for an edl. */
    storagePath: text(),
    contentType: text(),
    duration: doublePrecision(),
    width: integer(),
    height: integer(),
    fps: doublePrecision(),
    size: bigint({ mode: 'number' }),
    edl: jsonb().$type<Edl>(),
    /**
     * Whether the proxy can be played: `processing` while a cloud job makes it (web uploads), `failed` when
     * that job gave up (`error` says why); ingested media arrive `ready`.
     */
    status: text({ enum: ['ready', 'processing', 'failed'] })
      .notNull()
      .default('ready'),
    error: text(),
    /** Storage key of the original file, when it is kept in the cloud (arrivals folder type, web uploads). */
    sourcePath: text(),
    /** Storage key of the filmstrip JPEG (frames side by side) used for scrubbing. */
    filmstripPath: text(),
    /** SHA-256 of the source file's content (hex): the same content ingested twice into a folder is `duplicated`. */
    contentHash: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('media_account_idx').on(t.accountId, t.id),
    index('media_content_hash_idx').on(t.accountId, t.contentHash),
  ],
);

/**
 * The live rendition of a stream being recorded (issue 16): the MPEG-TS segments its agent uploads as they
 * are written, in order; a discontinuity where a new ffmpeg run began (a gap). Gone once the recording lands.
 */
export const liveSegments = pgTable(
  'live_segments',
  {
    mediaId: integer()
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    sequence: integer().notNull(),
    duration: doublePrecision().notNull(),
    discontinuity: boolean().notNull().default(false),
    storagePath: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.sequence] })],
);

/** The edls of a clip or sequence that later saves replaced (GET /api/edls/{id}/previousVersions). */
export const edlVersions = pgTable(
  'edl_versions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    mediaId: integer()
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    edl: jsonb().$type<Edl>().notNull(),
    duration: doublePrecision(),
    replacedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    replacedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('edl_versions_media_idx').on(t.mediaId, t.id)],
);

/** Thumbnails served at /api/thumbs/{thumbId}/image.jpg (spec3 §3). */
export const thumbs = pgTable(
  'thumbs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Relative to DATA_DIR; a JPEG. */
    storagePath: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('thumbs_account_idx').on(t.accountId)],
);

/**
 * One item of an account's media tree (spec3 §3 Node). `path` is inside the account: '/' is the root,
 * '/News/Clip' a node two levels down; the API prefixes the account's name.
 */
export const nodes = pgTable(
  'nodes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    parentId: integer().references((): AnyPgColumn => nodes.id, { onDelete: 'cascade' }),
    path: text().notNull(),
    name: text().notNull(),
    type: text({ enum: ['folder', 'source', 'sequence', 'media', 'edl'] }).notNull(),
    mediaId: integer().references(() => media.id, { onDelete: 'set null' }),
    thumbId: integer().references(() => thumbs.id, { onDelete: 'set null' }),
    metadata: jsonb().$type<Record<string, string>>().notNull().default({}),
    artefacts: jsonb().$type<{ url: string }[]>().notNull().default([]),
    /** A folder's own permission entries; its descendants inherit them. */
    permissions: jsonb().$type<FolderPermission[]>().notNull().default([]),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the node arrived in its current folder (a move sets it). */
    hereAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    /**
     * How many nodes have this one as parent, kept by the database (migration 0030's statement triggers on
     * insert, delete and move), so a folder of 100,000 tells its size without counting them on every page.
     */
    childCount: integer().notNull().default(0),
    /**
     * What search matches: the name and the metadata values, lower-cased, kept by the database. Sampled at a
     * thousand values for the planner (migration 0031), so a rare term is seldom taken for a common one.
     */
    searchText: text().generatedAlwaysAs(
      (): SQL => sql`lower(${nodes.name} || ' ' || jsonb_path_query_array(${nodes.metadata}, '$.*')::text)`,
    ),
  },
  (t) => [
    uniqueIndex('nodes_account_path_idx').on(t.accountId, t.path),
    index('nodes_path_prefix_idx').on(t.accountId, sql`${t.path} text_pattern_ops`),
    index('nodes_parent_time_idx').on(t.parentId, t.createdAt, t.id),
    index('nodes_parent_name_idx').on(t.parentId, sql`lower(${t.name})`, t.id),
    // A broad search (one node in eight matching) reads the account's newest nodes until its page is full,
    // instead of fetching and sorting every match the trigram index finds.
    index('nodes_account_time_idx').on(t.accountId, t.createdAt, t.id),
    index('nodes_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('nodes_media_idx').on(t.mediaId),
    // A thumbnail is served to those who see a node that shows it: its nodes are found at once.
    index('nodes_thumb_idx').on(t.thumbId),
    // Every tree request reads the account's folders that have permission entries: few rows, found at once.
    index('nodes_with_permissions_idx').on(t.accountId).where(sql`${t.permissions} <> '[]'::jsonb`),
    // Counting a large folder's children of some types reads the index alone.
    index('nodes_parent_type_idx').on(t.parentId, t.type),
  ],
);

/** The subtitles of a media, one file per language (PUT /api/media/{id}/subtitles/{language}). */
export const mediaSubtitles = pgTable(
  'media_subtitles',
  {
    mediaId: integer()
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    language: text().$type<SubtitleLanguage>().notNull(),
    format: text().$type<SubtitleFormat>().notNull(),
    /** Storage key of the file (SubRip or WebVTT, UTF-8), in place before the row is written. */
    storagePath: text().notNull(),
    size: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.mediaId, t.language] })],
);

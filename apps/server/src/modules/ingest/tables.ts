import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { arrivalsFolders } from '../arrivals/tables.ts';
import { edgeServers, endpoints } from '../edge/tables.ts';
import { nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';

/** Every write to a queue item takes the next value, so `sinceVersion` finds what changed. */
export const ingestQueueVersion = pgSequence('ingest_queue_version');

/** One file or stream in an edge server's ingest queue (spec2 §3). */
export const ingestQueueItems = pgTable(
  'ingest_queue_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    edgeServerId: integer()
      .notNull()
      .references(() => edgeServers.id, { onDelete: 'cascade' }),
    endpointId: integer().references(() => endpoints.id, { onDelete: 'set null' }),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
    arrivalsFolderId: integer().references(() => arrivalsFolders.id, { onDelete: 'set null' }),
    /** The agent's own id of the item, unique per endpoint. */
    queueId: text().notNull(),
    status: text().notNull().default('queued'),
    isStream: boolean().notNull().default(false),
    isSchedule: boolean().notNull().default(false),
    sourceName: text().notNull().default(''),
    reelName: text().notNull().default(''),
    diskLabel: text().notNull().default(''),
    clipName: text().notNull().default(''),
    scheduledStartTime: timestamp({ withTimezone: true }),
    priority: integer().notNull().default(0),
    /** The operator's order (ingestQueueItemRanks), from 1; new items go last. */
    rank: integer().notNull(),
    whenQueued: timestamp({ withTimezone: true }).notNull().defaultNow(),
    whenStarted: timestamp({ withTimezone: true }),
    whenFinished: timestamp({ withTimezone: true }),
    duration: doublePrecision(),
    proxyWidth: integer(),
    proxyHeight: integer(),
    /** Bytes of the ingested file, as the agent found it. */
    fileSize: bigint({ mode: 'number' }),
    error: text(),
    forced: boolean().notNull().default(false),
    log: text().notNull().default(''),
    /** Relative path of the thumbnail under the storage root, once the agent uploaded one. */
    thumbnailPath: text(),
    /** Percent done (0-100) while `ingesting`; null otherwise. */
    progress: integer(),
    /** SHA-256 (hex) of the file's content, as the agent computed it. */
    contentHash: text(),
    /** A person asked a recording stream to stop; the agent ends it, finishes the file and ingests it. */
    stopRequestedAt: timestamp({ withTimezone: true }),
    /** The node a stream being recorded plays live from; its recording lands on it. */
    liveNodeId: integer().references(() => nodes.id, { onDelete: 'set null' }),
    version: bigint({ mode: 'number' }).notNull().default(sql`nextval('ingest_queue_version')`),
  },
  (t) => [
    uniqueIndex('ingest_queue_items_endpoint_queue_idx').on(t.edgeServerId, t.endpointId, t.queueId),
    index('ingest_queue_items_edge_rank_idx').on(t.edgeServerId, t.rank, t.id),
    index('ingest_queue_items_folder_rank_idx').on(t.arrivalsFolderId, t.rank, t.id),
    index('ingest_queue_items_account_rank_idx').on(t.accountId, t.rank, t.id),
    index('ingest_queue_items_endpoint_idx').on(t.endpointId, t.id),
    // A node's delete clears the reference through it.
    index('ingest_queue_items_live_node_idx').on(t.liveNodeId).where(sql`${t.liveNodeId} is not null`),
    index('ingest_queue_items_status_idx').on(t.edgeServerId, t.status),
    index('ingest_queue_items_version_idx').on(t.version),
  ],
);

/** Files an endpoint saw but could not queue (spec2 §3: status missingFiles), until forced or rescanned. */
export const unprocessedFiles = pgTable(
  'unprocessed_files',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer()
      .notNull()
      .references(() => endpoints.id, { onDelete: 'cascade' }),
    path: text().notNull(),
    status: text().notNull().default('missingFiles'),
    forced: boolean().notNull().default(false),
    firstSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.endpointId, t.path)],
);

/**
 * Files an agent uploaded (tus) for a queue item: the proxy, poster, filmstrip and, when the arrivals folder
 * keeps sources in the cloud, the source. Each is in storage before its row is written; the media row takes
 * them over when the item is ingested.
 */
export const ingestItemFiles = pgTable(
  'ingest_item_files',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    queueItemId: integer()
      .notNull()
      .references(() => ingestQueueItems.id, { onDelete: 'cascade' }),
    rendition: text({ enum: ['proxy', 'source', 'poster', 'filmstrip'] }).notNull(),
    /** Storage key. */
    storagePath: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ingest_item_files_item_rendition_idx').on(t.queueItemId, t.rendition)],
);

import { and, asc, eq, gt, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { nodes } from '../nodes/tables.ts';

/** A list as one parameter (a JSON text) read back as a text array: thousands of bind parameters cost more than the query. */
const textArray = (values: string[]) =>
  sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

const rowColumns = {
  id: nodes.id,
  path: nodes.path,
  name: nodes.name,
  type: nodes.type,
  metadata: nodes.metadata,
};
export type MetadataRow = {
  id: number;
  path: string;
  name: string;
  type: string;
  metadata: Record<string, string>;
};

/** The media nodes (everything but folders) of an account after `afterPath`, in path order: keyset pages. */
export const findMediaNodesAfter = (db: DbOrTx, accountId: number, afterPath: string | null, limit: number) =>
  db
    .select(rowColumns)
    .from(nodes)
    .where(
      and(
        eq(nodes.accountId, accountId),
        ne(nodes.type, 'folder'),
        afterPath === null ? undefined : gt(nodes.path, afterPath),
      ),
    )
    .orderBy(asc(nodes.path))
    .limit(limit);

/** The media nodes of an account that `match` picks. */
const findMediaNodesAmong = (db: DbOrTx, accountId: number, match: SQL) =>
  db
    .select(rowColumns)
    .from(nodes)
    .where(and(eq(nodes.accountId, accountId), ne(nodes.type, 'folder'), match));

export const findMediaNodesByIds = (db: DbOrTx, accountId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : findMediaNodesAmong(db, accountId, sql`${nodes.id} = any(${textArray(ids.map(String))}::int[])`);

export const findMediaNodesByPaths = (db: DbOrTx, accountId: number, paths: string[]) =>
  paths.length === 0
    ? Promise.resolve([])
    : findMediaNodesAmong(db, accountId, sql`${nodes.path} = any(${textArray(paths)})`);

export type MetadataWrite = { id: number; set: Record<string, string>; remove: string[] };

/** Writes many nodes' metadata in one statement: the values to set, the keys to remove. */
export const writeMetadata = async (db: DbOrTx, accountId: number, writes: MetadataWrite[]) => {
  if (writes.length === 0) return;
  // The search index takes the new values into its pending list instead of at each row; a 64 MB list
  // filled up and was merged in the middle of a 100k-row import (5.8 s of 9.7 s). The list is merged after
  // the commit (mergeSearchIndexPendingList), searches read it meanwhile.
  await db.execute(sql`set local gin_pending_list_limit = '1GB'`);
  await db.execute(sql`
    update ${nodes} as n
    set metadata = (n.metadata - c.remove) || c.set
    from jsonb_to_recordset(${JSON.stringify(writes)}::jsonb) as c(id int, set jsonb, remove text[])
    where n.id = c.id and n.account_id = ${accountId}`);
};

/** Moves the search index's pending entries into the index proper (after a large import, off its path). */
export const mergeSearchIndexPendingList = (db: DbOrTx) =>
  db.execute(sql`select gin_clean_pending_list('nodes_search_trgm_idx'::regclass)`);

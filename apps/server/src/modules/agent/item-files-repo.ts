import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ingestQueueItems } from '../ingest/tables.ts';

/** What a queue item points at beside its row: its thumbnail file and the node a recording plays live from. */

/** Points the item at its new thumbnail and answers the one it had, so the caller can remove that file. */
export const setThumbnail = async (db: DbOrTx, id: number, thumbnailPath: string) => {
  const [before] = await db
    .select({ thumbnailPath: ingestQueueItems.thumbnailPath })
    .from(ingestQueueItems)
    .where(eq(ingestQueueItems.id, id));
  await db
    .update(ingestQueueItems)
    .set({ thumbnailPath, version: sql`nextval('ingest_queue_version')` })
    .where(eq(ingestQueueItems.id, id));
  return before?.thumbnailPath ?? null;
};

/** Points a recording stream's item at the node it plays live from. */
export const setLiveNode = (db: DbOrTx, id: number, liveNodeId: number) =>
  db
    .update(ingestQueueItems)
    .set({ liveNodeId, version: sql`nextval('ingest_queue_version')` })
    .where(eq(ingestQueueItems.id, id));

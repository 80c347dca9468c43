import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ingestItemFiles } from '../ingest/tables.ts';

export const ITEM_FILE_RENDITIONS = ['proxy', 'source', 'poster', 'filmstrip'] as const;
export type ItemFileRendition = (typeof ITEM_FILE_RENDITIONS)[number];

/**
 * Records a file an agent uploaded for a queue item (already in storage). A file of the same rendition
 * uploaded before is replaced: its storage key is answered so the caller removes it after commit.
 */
export const recordItemFile = async (
  db: DbOrTx,
  file: { queueItemId: number; rendition: ItemFileRendition; storagePath: string; size: number },
): Promise<{ replaced: string | undefined }> => {
  const [previous] = await db
    .select({ storagePath: ingestItemFiles.storagePath })
    .from(ingestItemFiles)
    .where(
      and(eq(ingestItemFiles.queueItemId, file.queueItemId), eq(ingestItemFiles.rendition, file.rendition)),
    );
  await db
    .insert(ingestItemFiles)
    .values(file)
    .onConflictDoUpdate({
      target: [ingestItemFiles.queueItemId, ingestItemFiles.rendition],
      set: { storagePath: file.storagePath, size: file.size, createdAt: new Date() },
    });
  return { replaced: previous?.storagePath };
};

/** The files uploaded for a queue item. */
export const listItemFiles = (db: DbOrTx, queueItemId: number) =>
  db
    .select({
      rendition: ingestItemFiles.rendition,
      storagePath: ingestItemFiles.storagePath,
      size: ingestItemFiles.size,
    })
    .from(ingestItemFiles)
    .where(eq(ingestItemFiles.queueItemId, queueItemId));

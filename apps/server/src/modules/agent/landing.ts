import type { agentQueueItemProgressSchema } from '@media/contract';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { addIngestedMedia } from '../nodes/service.ts';
import { listItemFiles } from './item-files.ts';
import * as repo from './repo.ts';

export type AgentProgress = z.infer<typeof agentQueueItemProgressSchema>;

/** The media row and node of an ingested item, from the files its agent uploaded. */
export const landIngestedItem = async (ctx: AppContext, tx: DbOrTx, id: number, change: AgentProgress) => {
  const ingested = await repo.findIngestedItem(tx, id);
  if (!ingested || ingested.accountId == null) return undefined;
  const files = new Map((await listItemFiles(tx, id)).map((file) => [file.rendition, file]));
  const proxy = files.get('proxy');
  const targetFolder = ingested.folderOptions?.targetFolder;
  return addIngestedMedia(tx, {
    accountId: ingested.accountId,
    ingestQueueItemId: ingested.id,
    targetFolder: typeof targetFolder === 'string' ? targetFolder : null,
    folderName: ingested.folderName,
    name: ingested.clipName || ingested.sourceName,
    sourcePath: ingested.sourceName,
    duration: ingested.duration,
    // The node's size is its proxy's; without a proxy it claims none.
    width: proxy ? ingested.proxyWidth : null,
    height: proxy ? ingested.proxyHeight : null,
    fps: change.fps ?? null,
    size: ingested.fileSize,
    sourceWidth: change.sourceWidth ?? null,
    sourceHeight: change.sourceHeight ?? null,
    contentHash: ingested.contentHash,
    proxyPath: proxy?.storagePath ?? null,
    sourceFilePath: files.get('source')?.storagePath ?? null,
    filmstripPath: files.get('filmstrip')?.storagePath ?? null,
    posterPath: files.get('poster')?.storagePath ?? null,
    // Without a poster, a copy of the item's thumbnail (the item may drop its own).
    files: { storage: ctx.storage, dataDir: ctx.config.dataDir },
    thumbnailPath: ingested.thumbnailPath,
  });
};

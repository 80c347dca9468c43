import path from 'node:path';
import { Readable } from 'node:stream';
import { cleanName, freeName, joinPath, NODE_NAME_MAX, pathSegments } from '@media/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type FileStore, readStored, storeStream } from '../../platform/storage.ts';
import { ensureAccountRoot, type NodeRow } from './repo.ts';
import { media, nodes, thumbs } from './tables.ts';

/** The folder at the account's root under which every arrivals folder gets a folder of its own. */
export const ARRIVALS_ROOT_FOLDER = 'Arrivals';
/** The node metadata key that ties a node to the queue item it came from, so a second finish adds nothing. */
export const INGEST_QUEUE_ITEM_KEY = 'ingestQueueItemId';

export type IngestedMedia = {
  /** Where stored files live, to copy a queue item's own thumbnail. */
  files?: FileStore;
  accountId: number;
  /** The queue item the file came through. */
  ingestQueueItemId: number;
  /** The arrivals folder's targetFolder option: the folder at the account's root ('Arrivals' when unset). */
  targetFolder?: string | null;
  /** The arrivals folder's name; 'Arrivals' when the item has none. */
  folderName: string | null;
  /** The clip name, or the source file's name. */
  name: string;
  /** Where the file lies on the edge server (the item's source name). */
  sourcePath: string;
  duration?: number | null;
  width?: number | null;
  height?: number | null;
  size?: number | null;
  /** The item's thumbnail, relative to DATA_DIR; copied, since the queue item may drop its own. */
  thumbnailPath?: string | null;
  /** Storage keys of the renditions the agent uploaded: the proxy, the source, the filmstrip and the poster. */
  proxyPath?: string | null;
  sourceFilePath?: string | null;
  filmstripPath?: string | null;
  posterPath?: string | null;
  fps?: number | null;
  /** The source's own picture size, kept as metadata (the node's width and height are the proxy's). */
  sourceWidth?: number | null;
  sourceHeight?: number | null;
  contentHash?: string | null;
};

/** A node name from free text: cleaned (cleanName), no slash, trimmed, within the length limit. */
export const nodeName = (text: string, fallback: string) =>
  cleanName(text).replace(/\//g, '-').trim().slice(0, NODE_NAME_MAX).trim() || fallback;

/** The two folder names under the account's root where an arrivals folder's files land: target, then folder. */
const arrivalsFolderNames = (targetFolder: string | null | undefined, folderName: string | null) => [
  nodeName(targetFolder ?? ARRIVALS_ROOT_FOLDER, ARRIVALS_ROOT_FOLDER),
  nodeName(folderName ?? ARRIVALS_ROOT_FOLDER, ARRIVALS_ROOT_FOLDER),
];

/** The path inside the account of the folder an arrivals folder's files land in: `/{targetFolder}/{folder name}`. */
export const arrivalsFolderPath = (targetFolder: string | null | undefined, folderName: string | null) =>
  joinPath(arrivalsFolderNames(targetFolder, folderName));

/** Lower-cased names of a folder's children that begin with `name` (the candidates freeName must avoid). */
export const takenNames = async (db: DbOrTx, parentId: number, name: string) => {
  const rows = await db
    .select({ name: nodes.name })
    .from(nodes)
    .where(and(eq(nodes.parentId, parentId), sql`starts_with(lower(${nodes.name}), ${name.toLowerCase()})`));
  return new Set(rows.map((row) => row.name.toLowerCase()));
};

/** The folder named `name` in `parent` (any casing), made when missing; a non-folder there keeps its name. */
export const ensureFolder = async (db: DbOrTx, parent: NodeRow, name: string): Promise<NodeRow> => {
  const [existing] = await db
    .select()
    .from(nodes)
    .where(
      and(
        eq(nodes.parentId, parent.id),
        eq(nodes.type, 'folder'),
        sql`lower(${nodes.name}) = ${name.toLowerCase()}`,
      ),
    )
    .limit(1);
  if (existing) return existing;
  const free = freeName(name, await takenNames(db, parent.id, name));
  const [made] = await db
    .insert(nodes)
    .values({
      accountId: parent.accountId,
      parentId: parent.id,
      name: free,
      path: joinPath([...pathSegments(parent.path), free]),
      type: 'folder',
    })
    .returning();
  if (!made) throw new Error(`folder ${free} not created`);
  return made;
};

/** Copies a stored thumbnail to a file of the media tree's own; null when the file is gone. */
const copyThumbnail = async (files: FileStore, accountId: number, key: string) => {
  const image = await readStored(files.storage, key);
  if (!image) return null;
  const stored = await storeStream({
    ...files,
    folder: `thumbs/${accountId}`,
    fileName: key.split('/').pop() ?? 'thumb.jpg',
    contentType: 'image/jpeg',
    stream: Readable.from([image]),
  });
  return stored.relativePath;
};

/** The arrivals folder node of an item, made when missing, and the node the item already made there. */
const placeOf = async (
  db: DbOrTx,
  input: Pick<IngestedMedia, 'accountId' | 'ingestQueueItemId' | 'targetFolder' | 'folderName'>,
) => {
  const root = await ensureAccountRoot(db, input.accountId);
  const [targetName, folderName] = arrivalsFolderNames(input.targetFolder, input.folderName) as [
    string,
    string,
  ];
  const folder = await ensureFolder(db, await ensureFolder(db, root, targetName), folderName);
  const itemKey = String(input.ingestQueueItemId);
  const [already] = await db
    .select({ id: nodes.id, mediaId: nodes.mediaId, mediaType: media.type })
    .from(nodes)
    .leftJoin(media, eq(media.id, nodes.mediaId))
    .where(
      and(eq(nodes.parentId, folder.id), sql`${nodes.metadata} ->> ${INGEST_QUEUE_ITEM_KEY} = ${itemKey}`),
    )
    .limit(1);
  return { folder, itemKey, already };
};

/** Inserts the node of an item's media into its arrivals folder, under a free name. */
const insertItemNode = async (
  db: DbOrTx,
  folder: NodeRow,
  node: {
    accountId: number;
    name: string;
    mediaId: number;
    thumbId: number | null;
    metadata: Record<string, string>;
  },
) => {
  const free = freeName(node.name, await takenNames(db, folder.id, node.name));
  const [made] = await db
    .insert(nodes)
    .values({
      accountId: node.accountId,
      parentId: folder.id,
      name: free,
      path: joinPath([...pathSegments(folder.path), free]),
      type: 'source',
      mediaId: node.mediaId,
      thumbId: node.thumbId,
      metadata: node.metadata,
    })
    .returning({ id: nodes.id });
  if (!made) throw new Error('node not created');
  return made.id;
};

/**
 * The node a stream being recorded plays from (issue 16): made in its arrivals folder with a `lifestream`
 * media at its first live segment, in the caller's transaction; the recording lands on the same node.
 */
export const addLiveMedia = async (
  db: DbOrTx,
  input: Pick<
    IngestedMedia,
    'accountId' | 'ingestQueueItemId' | 'targetFolder' | 'folderName' | 'name' | 'sourcePath'
  >,
): Promise<{ nodeId: number; mediaId: number; created: boolean } | undefined> => {
  const { folder, itemKey, already } = await placeOf(db, input);
  if (already) {
    // The recording has landed: there is nothing live to add to.
    if (already.mediaType !== 'lifestream' || already.mediaId == null) return undefined;
    return { nodeId: already.id, mediaId: already.mediaId, created: false };
  }
  const name = nodeName(input.name, 'Live recording');
  const [row] = await db
    .insert(media)
    .values({
      accountId: input.accountId,
      name,
      type: 'lifestream',
      contentType: 'application/vnd.apple.mpegurl',
    })
    .returning({ id: media.id });
  if (!row) throw new Error('media not created');
  const nodeId = await insertItemNode(db, folder, {
    accountId: input.accountId,
    name,
    mediaId: row.id,
    thumbId: null,
    metadata: { sourcelocator: input.sourcePath, [INGEST_QUEUE_ITEM_KEY]: itemKey },
  });
  return { nodeId, mediaId: row.id, created: true };
};

/**
 * Puts an ingested file into the account's media tree, in the caller's transaction: a source node in
 * `/Arrivals/{folderName}` (both folders made when missing) with its media row, its thumbnail and the
 * metadata filename, filesize and sourcelocator. Answers the node's id; the caller publishes
 * CHANNELS.nodes(accountId) after commit. The same queue item finished again answers the node it made; a
 * recorded stream lands on the node it played live from (`liveMediaId`: its live segments are to be dropped).
 */
export const addIngestedMedia = async (
  db: DbOrTx,
  input: IngestedMedia,
): Promise<{ nodeId: number; created: boolean; liveMediaId?: number }> => {
  const { folder, itemKey, already } = await placeOf(db, input);
  if (already && already.mediaType !== 'lifestream') return { nodeId: already.id, created: false };

  const fileName = path.posix.basename(input.sourcePath.replace(/\\/g, '/'));
  const name = nodeName(input.name, nodeName(fileName, 'Ingested file'));
  const values = {
    accountId: input.accountId,
    name,
    type: 'media' as const,
    storagePath: input.proxyPath ?? null,
    contentType: input.proxyPath ? 'video/mp4' : null,
    sourcePath: input.sourceFilePath ?? null,
    filmstripPath: input.filmstripPath ?? null,
    contentHash: input.contentHash ?? null,
    duration: input.duration ?? null,
    width: input.width ?? null,
    height: input.height ?? null,
    fps: input.fps ?? null,
    size: input.size ?? null,
  };
  const [row] =
    already?.mediaId != null
      ? await db.update(media).set(values).where(eq(media.id, already.mediaId)).returning({ id: media.id })
      : await db.insert(media).values(values).returning({ id: media.id });
  if (!row) throw new Error('media not created');
  const thumbPath =
    input.posterPath ??
    (input.thumbnailPath && input.files
      ? await copyThumbnail(input.files, input.accountId, input.thumbnailPath)
      : null);
  const [thumb] = thumbPath
    ? await db
        .insert(thumbs)
        .values({ accountId: input.accountId, storagePath: thumbPath })
        .returning({ id: thumbs.id })
    : [];
  const metadata: Record<string, string> = {
    filename: fileName,
    sourcelocator: input.sourcePath,
    [INGEST_QUEUE_ITEM_KEY]: itemKey,
  };
  if (input.size != null) metadata.filesize = String(input.size);
  if (input.sourceWidth != null && input.sourceHeight != null) {
    metadata.sourcewidth = String(input.sourceWidth);
    metadata.sourceheight = String(input.sourceHeight);
  }
  if (already) {
    await db
      .update(nodes)
      .set({ thumbId: thumb?.id ?? null, metadata })
      .where(eq(nodes.id, already.id));
    return { nodeId: already.id, created: false, liveMediaId: row.id };
  }
  const nodeId = await insertItemNode(db, folder, {
    accountId: input.accountId,
    name,
    mediaId: row.id,
    thumbId: thumb?.id ?? null,
    metadata,
  });
  return { nodeId, created: true };
};

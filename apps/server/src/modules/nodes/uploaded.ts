import { freeName, joinPath, pathSegments } from '@media/contract';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ensureFolder, nodeName, takenNames } from './ingested.ts';
import { ensureAccountRoot } from './repo.ts';
import { media, nodes, thumbs } from './tables.ts';

/**
 * Puts a web upload into the account's media tree, in the caller's transaction (spec1 upload options): the
 * folders of `location` (`File Uploads/2026-11-24`; made when missing, any casing matches), and in the
 * last one a source node named after the upload, with a media row that is `processing` until the cloud job
 * makes its proxy. Answers the node, its media row and the folder path; the caller publishes after commit.
 */
export const addUploadedMedia = async (
  db: DbOrTx,
  input: {
    accountId: number;
    location: string;
    name: string;
    sourceKey: string;
    size: number;
    fileName: string;
  },
) => {
  let folder = await ensureAccountRoot(db, input.accountId);
  for (const segment of input.location.split('/')) {
    const name = segment.trim();
    if (name) folder = await ensureFolder(db, folder, nodeName(name, 'File Uploads'));
  }
  const [row] = await db
    .insert(media)
    .values({
      accountId: input.accountId,
      name: input.name,
      type: 'media',
      status: 'processing',
      sourcePath: input.sourceKey,
      size: input.size,
    })
    .returning({ id: media.id });
  if (!row) throw new Error('media not created');
  const wanted = nodeName(input.name, 'Upload');
  const name = freeName(wanted, await takenNames(db, folder.id, wanted));
  const [node] = await db
    .insert(nodes)
    .values({
      accountId: input.accountId,
      parentId: folder.id,
      name,
      path: joinPath([...pathSegments(folder.path), name]),
      type: 'source',
      mediaId: row.id,
      metadata: { filename: input.fileName, filesize: String(input.size) },
    })
    .returning({ id: nodes.id, path: nodes.path });
  if (!node) throw new Error('node not created');
  return { nodeId: node.id, nodePath: node.path, mediaId: row.id };
};

/** What the proxy job made of an upload: the playable media, its poster as the node's thumbnail. */
export const finishUploadedMedia = async (
  db: DbOrTx,
  input: {
    nodeId: number;
    mediaId: number;
    accountId: number;
    type: 'media' | 'still';
    proxyKey: string;
    contentType: string;
    posterKey: string | null;
    filmstripKey: string | null;
    duration: number | null;
    width: number | null;
    height: number | null;
    fps: number | null;
    source: { width: number | null; height: number | null };
  },
) => {
  await db
    .update(media)
    .set({
      type: input.type,
      status: 'ready',
      error: null,
      storagePath: input.proxyKey,
      contentType: input.contentType,
      filmstripPath: input.filmstripKey,
      duration: input.duration,
      width: input.width,
      height: input.height,
      fps: input.fps,
    })
    .where(eq(media.id, input.mediaId));
  const [thumb] = input.posterKey
    ? await db
        .insert(thumbs)
        .values({ accountId: input.accountId, storagePath: input.posterKey })
        .returning({ id: thumbs.id })
    : [];
  const [node] = await db.select({ metadata: nodes.metadata }).from(nodes).where(eq(nodes.id, input.nodeId));
  const metadata = { ...(node?.metadata ?? {}) };
  if (input.source.width != null && input.source.height != null) {
    metadata.sourcewidth = String(input.source.width);
    metadata.sourceheight = String(input.source.height);
  }
  await db
    .update(nodes)
    .set({ thumbId: thumb?.id ?? null, metadata })
    .where(eq(nodes.id, input.nodeId));
};

/** The proxy job gave up: the media says why, and is not offered for playing. */
export const failUploadedMedia = async (db: DbOrTx, mediaId: number, error: string) => {
  await db.update(media).set({ status: 'failed', error }).where(eq(media.id, mediaId));
};

import { Readable } from 'node:stream';
import {
  accountPath,
  accumulatedMetadata,
  CHANNELS,
  type Edl,
  ERROR_CODES,
  joinPath,
  NODE_MESSAGES,
  pathSegments,
} from '@media/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { translateUniqueViolation } from '../../platform/db/errors.ts';
import { AppError, badRequest, conflict, forbidden } from '../../platform/errors.ts';
import { sharp } from '../../platform/sharp.ts';
import { storeStream } from '../../platform/storage.ts';
import { emitNodeEvent } from '../webhooks/payloads.ts';
import { hiddenPaths, notHidden, requireNodeAt, type TreeAccess } from './access.ts';
import { clipRenderQueue } from './clip-render.ts';
import { visibleMediaIds } from './media.ts';
import { presentNode } from './presenter.ts';
import * as repo from './repo.ts';
import { media, nodes, thumbs } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;
export type NodeCreate = {
  parentPath: string;
  type: 'folder' | 'edl' | 'sequence';
  name: string;
  thumb?: { type: 'jpeg'; data: string };
  /** Where in the clip the thumbnail was taken; the thumbnail itself is what is kept. */
  thumbPoint?: number;
  edl?: Edl;
};

export const EDL_REQUIRED = 'An edl is required for a clip or a sequence';
export const EDL_FOREIGN_MEDIA = 'Every piece of the edl must be media of this account';
export const THUMB_UNREADABLE = 'The thumbnail is not a readable image';
/** Thumbnails are kept no larger than this, whatever the client sends. */
const THUMB_MAX_SIDE = 640;

/** Decodes, checks and re-encodes the thumbnail, so what is stored is a JPEG we made. */
const readThumb = async (data: string) => {
  try {
    return await (await sharp(Buffer.from(data, 'base64')))
      .rotate()
      .resize(THUMB_MAX_SIDE, THUMB_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch {
    throw new AppError(ERROR_CODES.unsupportedMediaType, THUMB_UNREADABLE, {
      fields: { thumb: THUMB_UNREADABLE },
    });
  }
};

/**
 * Every piece of the edl is media of the account that the caller sees (400 otherwise): a media only hidden
 * folders show is refused like one of another account, so a clip does not make it playable.
 */
export const requireAccountMedia = async (ctx: AppContext, access: TreeAccess, edl: Edl) => {
  const ids = [...new Set(edl.events.map((event) => event.mediaId))];
  const [found, visible] = await Promise.all([
    ctx.db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.accountId, access.account.id), inArray(media.id, ids))),
    visibleMediaIds(ctx, access, ids),
  ]);
  if (found.length !== ids.length || found.some((row) => !visible.has(row.id)))
    throw badRequest(EDL_FOREIGN_MEDIA, { edl: EDL_FOREIGN_MEDIA });
};

export const edlDuration = (edl: Edl) =>
  edl.events.reduce((total, event) => total + (event.outFrame - event.inFrame) / edl.fps, 0);

/** What a clip or a sequence gathers from the nodes of its pieces of media (spec3 §9 accumulate keys). */
const sourcesMetadata = async (ctx: AppContext, access: TreeAccess, edl: Edl) => {
  const byMedia = await repo.findMetadataOfMedia(
    ctx.db,
    access.account.id,
    [...new Set(edl.events.map((event) => event.mediaId))],
    notHidden(access),
  );
  return accumulatedMetadata(edl.events.map((event) => byMedia.get(event.mediaId) ?? {}));
};

/**
 * Creates a folder, a clip (edl) or a sequence below a folder (editors there; spec3 §3 Clip save). The
 * thumbnail file is in place before its row is written, and all rows are written in one transaction.
 */
export const createNode = async ({ ctx, actor, create }: Call<{ create: NodeCreate }>) => {
  const { access, node: parent, rights } = await requireNodeAt(ctx.db, actor, create.parentPath);
  const accountId = access.account.id;
  if (!rights.canEdit) throw forbidden();
  const parentApiPath = accountPath(access.account.name, parent.path);
  if (parent.type !== 'folder')
    throw badRequest(NODE_MESSAGES.notAFolder(parentApiPath), {
      parentPath: NODE_MESSAGES.notAFolder(parentApiPath),
    });
  const taken = () =>
    conflict(NODE_MESSAGES.nameTaken(create.name, parentApiPath), {
      name: NODE_MESSAGES.nameTaken(create.name, parentApiPath),
    });
  if ((await repo.childNames(ctx.db, parent.id)).has(create.name.toLowerCase())) throw taken();
  const edl = create.type === 'folder' ? undefined : create.edl;
  if (create.type !== 'folder') {
    if (!edl) throw badRequest(EDL_REQUIRED, { edl: EDL_REQUIRED });
    await requireAccountMedia(ctx, access, edl);
  }
  const metadata = edl ? await sourcesMetadata(ctx, access, edl) : {};
  const image = create.thumb ? await readThumb(create.thumb.data) : undefined;
  const stored = image
    ? await storeStream({
        storage: ctx.storage,
        dataDir: ctx.config.dataDir,
        contentType: 'image/jpeg',
        folder: joinPath(['thumbs', String(accountId)]).slice(1),
        fileName: 'thumb.jpg',
        stream: Readable.from([image]),
      })
    : undefined;
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const [thumb] = stored
        ? await tx
            .insert(thumbs)
            .values({ accountId, storagePath: stored.relativePath })
            .returning({ id: thumbs.id })
        : [];
      const [edlMedia] = edl
        ? await tx
            .insert(media)
            .values({
              accountId,
              name: create.name,
              type: 'edl',
              edl,
              fps: edl.fps,
              duration: edlDuration(edl),
              // Playable once its file is rendered (clipRenderQueue, sent below in this transaction).
              status: 'processing',
            })
            .returning({ id: media.id })
        : [];
      if (edlMedia) await ctx.jobs.send(tx, clipRenderQueue, [{ mediaId: edlMedia.id }]);
      const [row] = await tx
        .insert(nodes)
        .values({
          accountId,
          parentId: parent.id,
          path: joinPath([...pathSegments(parent.path), create.name]),
          name: create.name,
          type: create.type,
          mediaId: edlMedia?.id ?? null,
          thumbId: thumb?.id ?? null,
          metadata,
          createdBy: actor.userId,
        })
        .returning({ id: nodes.id });
      if (!row) throw new Error('The node was not stored');
      await emitNodeEvent(ctx, tx, 'node.created', { id: row.id, accountId });
      return row.id;
    });
  } catch (error) {
    await stored?.remove();
    throw translateUniqueViolation(error, taken);
  }
  await ctx.publish(CHANNELS.nodes(accountId), [id, parent.id]);
  const [row] = await repo.findPresentable(ctx.db, eq(nodes.id, id), hiddenPaths(access));
  if (!row) throw new Error('node vanished');
  return presentNode(row, access);
};

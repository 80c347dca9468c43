import {
  CHANNELS,
  type ClipRenderState,
  type ClipRenderStatus,
  clipRenderChannel,
  type Edl,
  type EdlSource,
  type EdlVersion,
  type MediaNode,
} from '@media/contract';
import { desc, eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { users } from '../users/tables.ts';
import { hiddenPaths, requireNodeAt } from './access.ts';
import { clipRenderQueue, requestClipRender } from './clip-render.ts';
import { edlDuration, requireAccountMedia } from './creation.ts';
import { mediaFile, requireMedia, visibleMediaIds } from './media.ts';
import { presentNode } from './presenter.ts';
import * as repo from './repo.ts';
import { edlVersions, media, nodes } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** An edl media the caller may view, of the account named when one is (404 otherwise). */
const requireEdl = async (ctx: AppContext, actor: Actor, id: number, accountId?: number) => {
  const found = await requireMedia(ctx, actor, id);
  if (!found.row.edl || (accountId !== undefined && accountId !== found.row.accountId)) throw notFound('Edl');
  return { ...found, edl: found.row.edl };
};

/** The clip or sequence at a path and its edl media, when the media is `id` (404 otherwise). */
const requireEdlAt = async (ctx: AppContext, actor: Actor, id: number, path: string) => {
  const at = await requireNodeAt(ctx.db, actor, path);
  const row = at.node.mediaId === id ? await repo.findMedia(ctx.db, id) : undefined;
  if (!row?.edl) throw notFound('Edl');
  return { ...at, row, edl: row.edl };
};

/** GET /api/edls/{id}/sources: the media its pieces play parts of, in the order they first play. */
export const edlSources = async ({
  ctx,
  actor,
  id,
  accountId,
}: Call<{ id: number; accountId?: number }>): Promise<EdlSource[]> => {
  const { edl, row, access } = await requireEdl(ctx, actor, id, accountId);
  const ids = [...new Set(edl.events.map((event) => event.mediaId))];
  // A piece only hidden folders show is left out, as one no longer there is.
  const [files, visible] = await Promise.all([
    repo.findMediaFiles(ctx.db, row.accountId, ids),
    visibleMediaIds(ctx, access, ids),
  ]);
  const found = new Map(files.filter((file) => visible.has(file.id)).map((file) => [file.id, file]));
  return ids.flatMap((mediaId) => {
    const file = found.get(mediaId);
    return file
      ? [
          {
            mediaId,
            name: file.name,
            duration: file.duration,
            fps: file.fps,
            width: file.width,
            height: file.height,
          },
        ]
      : [];
  });
};

/** GET /api/edls/{id}/content: the clip's rendered file, with byte ranges (404 until it is rendered). */
export const edlFile = async (call: Parameters<typeof mediaFile>[0]) => {
  await requireEdl(call.ctx, call.actor, call.id, call.accountId);
  return mediaFile(call);
};

/** GET /api/edls/{id}/previousVersions?path=: the edls later saves replaced, newest first. */
export const edlPreviousVersions = async ({
  ctx,
  actor,
  id,
  path,
}: Call<{ id: number; path: string }>): Promise<EdlVersion[]> => {
  await requireEdlAt(ctx, actor, id, path);
  const rows = await ctx.db
    .select({
      id: edlVersions.id,
      edl: edlVersions.edl,
      duration: edlVersions.duration,
      replacedAt: edlVersions.replacedAt,
      replacedBy: users.username,
    })
    .from(edlVersions)
    .leftJoin(users, eq(users.id, edlVersions.replacedBy))
    .where(eq(edlVersions.mediaId, id))
    .orderBy(desc(edlVersions.id));
  return rows.map((version, index) => ({
    version: rows.length - index,
    edl: { ...version.edl, id },
    duration: version.duration,
    replacedTime: version.replacedAt.toISOString(),
    replacedBy: version.replacedBy,
  }));
};

/**
 * POST /api/media/{id}/data?path=: saves a new edl for the clip or sequence at the path (editors there). The
 * edl it replaces is kept as a previous version, and the clip is rendered again; all in one transaction.
 */
export const saveEdlData = async ({
  ctx,
  actor,
  id,
  path,
  accountId,
  edl,
}: Call<{ id: number; path: string; accountId?: number; edl: Edl }>): Promise<MediaNode> => {
  const { access, node, rights, row } = await requireEdlAt(ctx, actor, id, path);
  if (accountId !== undefined && accountId !== row.accountId) throw notFound('Edl');
  if (!rights.canEdit) throw forbidden();
  const { id: _sentId, ...saved } = edl;
  await requireAccountMedia(ctx, access, saved);
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(edlVersions)
      .values({ mediaId: id, edl: row.edl as Edl, duration: row.duration, replacedBy: actor.userId });
    await tx
      .update(media)
      .set({ edl: saved, fps: saved.fps, duration: edlDuration(saved), status: 'processing', error: null })
      .where(eq(media.id, id));
    await ctx.jobs.send(tx, clipRenderQueue, [{ mediaId: id }]);
  });
  await ctx.publish(CHANNELS.nodes(row.accountId), [node.id]);
  const [presentable] = await repo.findPresentable(ctx.db, eq(nodes.id, node.id), hiddenPaths(access));
  if (!presentable) throw notFound('Node');
  return presentNode(presentable, access, rights);
};

type MediaRow = NonNullable<Awaited<ReturnType<typeof repo.findMedia>>>;

const renderStatusOf = (row: MediaRow): ClipRenderStatus => {
  if (row.status === 'processing' || row.status === 'failed') return row.status;
  return row.storagePath ? 'ready' : 'unrendered';
};

const renderStateOf = (row: MediaRow): ClipRenderState => {
  const status = renderStatusOf(row);
  return {
    mediaId: row.id,
    status,
    error: status === 'failed' ? row.error : null,
    channel: clipRenderChannel(row.accountId),
  };
};

/** GET /api/edls/{id}/render: whether the clip's file is being rendered, rendered, or could not be (viewers). */
export const clipRenderState = async ({
  ctx,
  actor,
  id,
  accountId,
}: Call<{ id: number; accountId?: number }>): Promise<ClipRenderState> => {
  const { row } = await requireEdl(ctx, actor, id, accountId);
  return renderStateOf(row);
};

/**
 * POST /api/edls/{id}/render (spec3 §2 the floating player's export button): renders the clip or sequence
 * into a playable file when it has none, or renders again one that could not be (editors of its account);
 * a clip being rendered or rendered already is left as it is. Answers its render state.
 */
export const renderClipFile = async ({
  ctx,
  actor,
  id,
  accountId,
}: Call<{ id: number; accountId?: number }>): Promise<ClipRenderState> => {
  const { row, access } = await requireEdl(ctx, actor, id, accountId);
  if (!access.permissions.has('canEdit')) throw forbidden();
  if (renderStatusOf(row) === 'unrendered' || (row.status === 'failed' && !row.storagePath)) {
    await requestClipRender(ctx, id);
    await ctx.publish(CHANNELS.nodes(row.accountId), await repo.findNodeIdsOfMedia(ctx.db, id));
  }
  const now = await repo.findMedia(ctx.db, id);
  return renderStateOf(now ?? row);
};

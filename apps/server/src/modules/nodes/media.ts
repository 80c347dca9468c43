import { createHash } from 'node:crypto';
import type { PlayerMediaInfo } from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { storedContent } from '../../platform/http/stored-content.ts';
import { isSafeKey } from '../../platform/storage/index.ts';
import { readStored } from '../../platform/storage.ts';
import { hiddenPaths, seesShownAt, type TreeAccess, treeAccess } from './access.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** The caller's tree access in an account when it may view there; anything else is not found. */
const viewerAccess = async (ctx: AppContext, actor: Actor, accountId: number, thing: string) => {
  try {
    const access = await treeAccess(ctx.db, actor, { id: accountId });
    if (access.permissions.has('canView')) return access;
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
  }
  throw notFound(thing);
};

/**
 * A media the caller sees: a viewer of its account, unless folders hide from the caller's role every node
 * that shows it (the tree's rule; such a media is not found, like one that does not exist). Its nodes are
 * read while the access is, through the media index, so a player's byte-range requests wait no longer.
 */
export const requireMedia = async (ctx: AppContext, actor: Actor, id: number) => {
  const row = await repo.findMedia(ctx.db, id);
  if (!row) throw notFound('Media');
  const [access, paths] = await Promise.all([
    viewerAccess(ctx, actor, row.accountId, 'Media'),
    repo.findPathsOfMedia(ctx.db, row.accountId, [id]),
  ]);
  if (!seesShownAt(access, paths.get(id) ?? [])) throw notFound('Media');
  return { row, access };
};

/** Of these media of the account, those the caller sees (by the tree's rule, as requireMedia). */
export const visibleMediaIds = async (ctx: AppContext, access: TreeAccess, ids: readonly number[]) => {
  if (hiddenPaths(access).length === 0) return new Set(ids);
  const paths = await repo.findPathsOfMedia(ctx.db, access.account.id, ids);
  return new Set(ids.filter((id) => seesShownAt(access, paths.get(id) ?? [])));
};

/** GET /api/media/{id}: what the player needs (spec3 §3 Player media info). */
export const mediaInfo = async ({ ctx, actor, id }: Call<{ id: number }>): Promise<PlayerMediaInfo> => {
  const { row, access } = await requireMedia(ctx, actor, id);
  return {
    name: row.name,
    mediaId: row.id,
    edl: row.edl ? { ...row.edl, id: row.id } : null,
    type: row.type,
    duration: row.duration,
    proxyWidth: row.width,
    proxyHeight: row.height,
    accountName: access.account.name,
    accountId: row.accountId,
    exportEnabled: access.permissions.has('canEdit'),
  };
};

const RANGE_SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * The Range header to answer, as RFC 9110 §14.1-14.2 reads it: a valid `bytes=` set with each suffix longer
 * than the file taken as the whole file (206, not 416); anything that is not a valid bytes range set
 * (`bytes=-1e3`, `bytes=5-2`, another unit) is ignored, so the answer is the whole file (200). An
 * unsatisfiable but valid set (`bytes=9000-` past the end, `bytes=-0`) is kept for the 416.
 */
export const usableRange = (header: string | undefined, size: number): string | undefined => {
  const match = header ? /^\s*bytes\s*=\s*(.*)$/i.exec(header) : null;
  if (!match) return undefined;
  const specs: string[] = [];
  for (const part of (match[1] as string).split(',')) {
    const spec = part.trim();
    if (spec === '') continue; // empty list elements are allowed (RFC 9110 §5.6.1)
    const [, first, last, suffix] = RANGE_SPEC.exec(spec) ?? [];
    if (suffix !== undefined) {
      specs.push(Number(suffix) >= size && size > 0 ? `0-${size - 1}` : spec);
    } else if (first !== undefined) {
      if (last !== '' && Number(last) < Number(first)) return undefined;
      specs.push(spec);
    } else {
      return undefined;
    }
  }
  return specs.length > 0 ? `bytes=${specs.join(',')}` : undefined;
};

/** GET /api/media/{id}/content: the media's proxy from the storage, with byte ranges. */
export const mediaFile = async ({
  ctx,
  actor,
  id,
  accountId,
  request,
}: Call<{
  id: number;
  accountId?: number;
  request: { range?: string; ifRange?: string; ifNoneMatch?: string };
}>) => {
  const { row } = await requireMedia(ctx, actor, id);
  if (accountId !== undefined && accountId !== row.accountId) throw notFound('Media');
  const key = row.storagePath;
  const stat = key && isSafeKey(key) ? await ctx.storage.stat(key).catch(() => undefined) : undefined;
  const answer =
    key && stat
      ? await storedContent(ctx.storage, key, {
          ...request,
          range: usableRange(request.range, stat.size),
          contentType: row.contentType,
        })
      : undefined;
  if (!answer) throw notFound('Media file');
  return answer;
};

/**
 * GET /api/thumbs/{thumbId}/image.jpg: the stored JPEG and its ETag (the file never changes, so its path
 * names it); image is null when the client's copy is current.
 */
export const thumbImage = async ({
  ctx,
  actor,
  id,
  ifNoneMatch,
}: Call<{ id: number; ifNoneMatch?: string }>) => {
  const thumb = await repo.findThumb(ctx.db, id);
  if (!thumb) throw notFound('Thumbnail');
  // Hidden, as a media is, when folders hide every node that shows it (its nodes read along with the access).
  const [access, paths] = await Promise.all([
    viewerAccess(ctx, actor, thumb.accountId, 'Thumbnail'),
    repo.findPathsOfThumb(ctx.db, thumb.accountId, id),
  ]);
  if (!seesShownAt(access, paths)) throw notFound('Thumbnail');
  const etag = `"${createHash('sha256').update(`${thumb.id}|${thumb.storagePath}`).digest('base64url').slice(0, 27)}"`;
  if (ifNoneMatch === etag) return { etag, image: null };
  const image = await readStored(ctx.storage, thumb.storagePath);
  if (!image) throw notFound('Thumbnail');
  return { etag, image };
};

import type { Readable } from 'node:stream';
import { and, asc, eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { storedContent } from '../../platform/http/stored-content.ts';
import { storeStream } from '../../platform/storage.ts';
import { requireMedia } from './media.ts';
import { liveSegments } from './tables.ts';

/**
 * The live rendition of a stream being recorded (issue 16): the agent's MPEG-TS segments, stored as they come,
 * and an HLS playlist of them (an EVENT playlist: it grows until the recording lands on the node, which then
 * plays the recording instead).
 */

/** Stores one live segment of a lifestream media; the same sequence sent again replaces it. */
export const addLiveSegment = async (
  ctx: AppContext,
  segment: {
    mediaId: number;
    accountId: number;
    sequence: number;
    duration: number;
    discontinuity: boolean;
    stream: Readable;
  },
) => {
  const stored = await storeStream({
    storage: ctx.storage,
    dataDir: ctx.config.dataDir,
    folder: `live/${segment.accountId}/${segment.mediaId}`,
    fileName: `${segment.sequence}.ts`,
    contentType: 'video/mp2t',
    stream: segment.stream,
  });
  const values = {
    duration: segment.duration,
    discontinuity: segment.discontinuity,
    storagePath: stored.relativePath,
  };
  const [before] = await ctx.db
    .select({ storagePath: liveSegments.storagePath })
    .from(liveSegments)
    .where(and(eq(liveSegments.mediaId, segment.mediaId), eq(liveSegments.sequence, segment.sequence)));
  await ctx.db
    .insert(liveSegments)
    .values({ mediaId: segment.mediaId, sequence: segment.sequence, ...values })
    .onConflictDoUpdate({ target: [liveSegments.mediaId, liveSegments.sequence], set: values });
  if (before) await ctx.storage.remove(before.storagePath).catch(() => undefined);
  return { size: stored.size };
};

/** The live segments of a media, in order. */
const segmentsOf = (db: DbOrTx, mediaId: number) =>
  db.select().from(liveSegments).where(eq(liveSegments.mediaId, mediaId)).orderBy(asc(liveSegments.sequence));

/** An HLS playlist of a lifestream's segments so far: each addressed as `live/{sequence}.ts` beside it. */
export const livePlaylistText = (
  segments: { sequence: number; duration: number; discontinuity: boolean }[],
  ended: boolean,
) => {
  // RFC 8216: each duration rounded to the nearest second fits the target (a ceiling would add a second to
  // every player's hold-back, three target durations behind the live edge).
  const target = Math.max(1, ...segments.map((segment) => Math.round(segment.duration)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-MEDIA-SEQUENCE:${segments[0]?.sequence ?? 0}`,
    '#EXT-X-PLAYLIST-TYPE:EVENT',
  ];
  for (const [index, segment] of segments.entries()) {
    if (segment.discontinuity && index > 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, `live/${segment.sequence}.ts`);
  }
  if (ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
};

/** A lifestream media the caller may view; a media that is not (or no longer) live is not found. */
const requireLive = async (ctx: AppContext, actor: Actor, id: number) => {
  const found = await requireMedia(ctx, actor, id);
  if (found.row.type !== 'lifestream') throw notFound('Live stream');
  return found;
};

/** GET /api/media/{id}/live.m3u8: the playlist of a stream being recorded (viewers of its account). */
export const livePlaylist = async ({ ctx, actor, id }: { ctx: AppContext; actor: Actor; id: number }) => {
  await requireLive(ctx, actor, id);
  return livePlaylistText(await segmentsOf(ctx.db, id), false);
};

/** GET /api/media/{id}/live/{sequence}.ts: one segment of a stream being recorded. */
export const liveSegmentFile = async ({
  ctx,
  actor,
  id,
  sequence,
  request,
}: {
  ctx: AppContext;
  actor: Actor;
  id: number;
  sequence: number;
  request: { range?: string; ifRange?: string; ifNoneMatch?: string };
}) => {
  await requireLive(ctx, actor, id);
  const [segment] = (await segmentsOf(ctx.db, id)).filter((row) => row.sequence === sequence);
  const answer = segment
    ? await storedContent(ctx.storage, segment.storagePath, { ...request, contentType: 'video/mp2t' })
    : undefined;
  if (!answer) throw notFound('Live segment');
  return answer;
};

/** Drops a media's live segments once its recording has landed (their files too, as far as storage lets). */
export const dropLiveSegments = async (ctx: AppContext, mediaId: number) => {
  const rows = await ctx.db
    .delete(liveSegments)
    .where(eq(liveSegments.mediaId, mediaId))
    .returning({ storagePath: liveSegments.storagePath });
  for (const row of rows) await ctx.storage.remove(row.storagePath).catch(() => undefined);
};

import { Readable } from 'node:stream';
import {
  CHANNELS,
  ERROR_CODES,
  SUBTITLE_MAX_BYTES,
  SUBTITLE_MESSAGES,
  type Subtitle,
  type SubtitleLanguage,
  subtitleFormatOf,
} from '@media/contract';
import { and, eq } from 'drizzle-orm';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { storeStream } from '../../platform/storage.ts';
import { rightsAt } from './access.ts';
import { requireMedia } from './media.ts';
import * as repo from './repo.ts';
import { mediaSubtitles, nodes } from './tables.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;
type SubtitleRow = typeof mediaSubtitles.$inferSelect;

const present = (row: SubtitleRow): Subtitle => ({
  language: row.language,
  format: row.format,
  size: row.size,
  updatedTime: row.updatedAt.toISOString(),
});

const findSubtitles = (db: DbOrTx, mediaId: number) =>
  db
    .select()
    .from(mediaSubtitles)
    .where(eq(mediaSubtitles.mediaId, mediaId))
    .orderBy(mediaSubtitles.language);

/** The subtitles of a media in one language, for a publish that burns them in (no rights: the run's own). */
export const findSubtitle = async (db: DbOrTx, mediaId: number, language: SubtitleLanguage) => {
  const [row] = await db
    .select()
    .from(mediaSubtitles)
    .where(and(eq(mediaSubtitles.mediaId, mediaId), eq(mediaSubtitles.language, language)));
  return row;
};

/**
 * A media whose subtitles the caller may change: like a metadata field (spec3 §2), the right to log at a
 * node that shows it. Viewers of the account get 403, anyone else 404.
 */
const requireWriter = async (ctx: AppContext, actor: Actor, id: number) => {
  const { row, access } = await requireMedia(ctx, actor, id);
  const paths = await ctx.db
    .select({ path: nodes.path })
    .from(nodes)
    .where(and(eq(nodes.accountId, row.accountId), eq(nodes.mediaId, id)));
  if (!paths.some(({ path }) => rightsAt(access, path).canLog)) throw forbidden();
  return row;
};

/** The nodes that show the media hear of the change on the account's node channel. */
const announce = async (ctx: AppContext, accountId: number, mediaId: number) =>
  ctx.publish(CHANNELS.nodes(accountId), await repo.findNodeIdsOfMedia(ctx.db, mediaId));

/** GET /api/media/{id}/subtitles: the languages the media has subtitles in (viewers of its account). */
export const listSubtitles = async ({ ctx, actor, id }: Call<{ id: number }>) => {
  const { row } = await requireMedia(ctx, actor, id);
  return { rows: (await findSubtitles(ctx.db, id)).map(present), accountId: row.accountId };
};

/**
 * PUT /api/media/{id}/subtitles/{language}: the body is the file, SubRip or WebVTT by its content, at most
 * 1 MB. Stored (outside the web root) before its row is written; a replaced file is removed afterwards.
 */
export const putSubtitles = async ({
  ctx,
  actor,
  id,
  language,
  content,
}: Call<{ id: number; language: SubtitleLanguage; content: Buffer | undefined }>) => {
  const media = await requireWriter(ctx, actor, id);
  if (content && content.length > SUBTITLE_MAX_BYTES)
    throw new AppError(ERROR_CODES.tooLarge, SUBTITLE_MESSAGES.tooLarge);
  const format = content ? subtitleFormatOf(content) : null;
  if (!content || !format) throw badRequest(SUBTITLE_MESSAGES.notSubtitles);
  const stored = await storeStream({
    storage: ctx.storage,
    dataDir: ctx.config.dataDir,
    folder: `subtitles/accounts/${media.accountId}/media/${id}`,
    fileName: `${language}.${format}`,
    contentType: format === 'vtt' ? 'text/vtt' : 'application/x-subrip',
    stream: Readable.from([content]),
  });
  const values = { format, storagePath: stored.relativePath, size: stored.size, updatedBy: actor.userId };
  let replaced: string | undefined;
  let row: SubtitleRow | undefined;
  try {
    row = await ctx.db.transaction(async (tx) => {
      replaced = (await findSubtitle(tx, id, language))?.storagePath;
      const [saved] = await tx
        .insert(mediaSubtitles)
        .values({ mediaId: id, language, ...values })
        .onConflictDoUpdate({
          target: [mediaSubtitles.mediaId, mediaSubtitles.language],
          set: { ...values, updatedAt: new Date() },
        })
        .returning();
      return saved;
    });
  } catch (error) {
    await stored.remove();
    throw error;
  }
  if (replaced) await ctx.storage.remove(replaced).catch(() => undefined);
  await announce(ctx, media.accountId, id);
  return present(row as SubtitleRow);
};

/** DELETE /api/media/{id}/subtitles/{language}: the row, then its file. */
export const deleteSubtitles = async ({
  ctx,
  actor,
  id,
  language,
}: Call<{ id: number; language: SubtitleLanguage }>) => {
  const media = await requireWriter(ctx, actor, id);
  const [removed] = await ctx.db
    .delete(mediaSubtitles)
    .where(and(eq(mediaSubtitles.mediaId, id), eq(mediaSubtitles.language, language)))
    .returning();
  if (!removed) throw notFound('Subtitles');
  await ctx.storage.remove(removed.storagePath).catch(() => undefined);
  await announce(ctx, media.accountId, id);
  return { ok: true as const };
};

import { type DOWNLOAD_LINK_FILES, ERROR_CODES, MSG_DOWNLOAD_LINK_INVALID } from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import { hmac, safeEqual } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { storedContent } from '../../platform/http/stored-content.ts';
import { isSafeKey } from '../../platform/storage/media-storage.ts';
import { usableRange } from './media.ts';
import * as repo from './repo.ts';

type DownloadFile = (typeof DOWNLOAD_LINK_FILES)[number];

const claim = (mediaId: number, file: DownloadFile, expires: number) =>
  `media-download.${mediaId}.${file}.${expires}`;

/**
 * A download link another system can use without a session (a webhook's receiver, a publishing webhook):
 * one media's proxy or original, until it expires (WEBHOOK_LINK_HOURS), signed with the server's secret key.
 */
export const signedDownloadUrl = (
  ctx: Pick<AppContext, 'config' | 'secretKey'>,
  mediaId: number,
  file: DownloadFile,
  expiresAt: Date,
) => {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const signature = hmac(ctx.secretKey, claim(mediaId, file, expires));
  return `${ctx.config.publicUrl}/api/media/${mediaId}/download?file=${file}&expires=${expires}&signature=${signature}`;
};

/** When links made now expire. */
export const downloadLinksExpireAt = (ctx: Pick<AppContext, 'config'>) =>
  new Date(Date.now() + ctx.config.webhookLinkHours * 3600_000);

const invalid = () => new AppError(ERROR_CODES.forbidden, MSG_DOWNLOAD_LINK_INVALID, { status: 403 });

/** GET /api/media/{id}/download: the file a valid, unexpired link names, with byte ranges; else 403. */
export const signedDownload = async (
  ctx: AppContext,
  input: {
    mediaId: number;
    file: DownloadFile;
    expires: number;
    signature: string;
    request: { range?: string; ifRange?: string; ifNoneMatch?: string };
  },
) => {
  const expected = hmac(ctx.secretKey, claim(input.mediaId, input.file, input.expires));
  if (!safeEqual(expected, input.signature) || input.expires * 1000 < Date.now()) throw invalid();
  const row = await repo.findMediaDownload(ctx.db, input.mediaId);
  const key = input.file === 'proxy' ? row?.storagePath : row?.sourcePath;
  if (!row || !key || !isSafeKey(key)) throw new AppError(ERROR_CODES.notFound, 'Media file not found');
  const stat = await ctx.storage.stat(key).catch(() => undefined);
  const answer = stat
    ? await storedContent(ctx.storage, key, {
        ...input.request,
        range: usableRange(input.request.range, stat.size),
        contentType: input.file === 'proxy' ? row.contentType : null,
      })
    : undefined;
  if (!answer) throw new AppError(ERROR_CODES.notFound, 'Media file not found');
  return answer;
};

import type { Readable } from 'node:stream';
import {
  type Ancestry,
  CHANNELS,
  cleanName,
  defaultUploadLocation,
  ERROR_CODES,
  fileExtension,
  hasRight,
  ingestFormatsProblem,
  isCsvFileName,
  MSG_UPLOAD_NO_FILE,
  MSG_UPLOAD_TOO_LARGE,
  MSG_UPLOAD_TYPE_REFUSED,
  UPLOAD_KINDS,
  type UploadKind,
  type UploadQuery,
  webUploadKindOf,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { storedContent } from '../../platform/http/stored-content.ts';
import { storeStream } from '../../platform/storage.ts';
import { accountPermissions, requireRight } from '../access/service.ts';
import { usableRange } from '../nodes/media.ts';
import { addUploadedMedia } from '../nodes/uploaded.ts';
import { emitNodeEvent, emitUploadCompleted } from '../webhooks/payloads.ts';
import { uploadProxyQueue } from './processing.ts';
import * as repo from './repo.ts';

/** What a route hands over: the file part of the request, read only after the rights are checked. */
export type IncomingFile = {
  fileName: string;
  contentType: string;
  stream: Readable & { truncated?: boolean };
};

const toUpload = (row: NonNullable<Awaited<ReturnType<typeof repo.findUpload>>>) => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
});

/** Web upload: the account's managers, and users whose role may upload (canUpload). */
const mayWebUpload = async (ctx: AppContext, actor: Actor, ancestry: Ancestry, accountId: number) =>
  hasRight(await actor.rights(), 'account.manage', ancestry) ||
  (await accountPermissions(ctx.db, actor, accountId)).has('canUpload');

const requireWebUploadRight = async (ctx: AppContext, actor: Actor, accountId: number) => {
  const ancestry = await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  if (!(await mayWebUpload(ctx, actor, ancestry, accountId))) throw forbidden();
};

const tooLarge = (maxBytes: number) => new AppError(ERROR_CODES.tooLarge, MSG_UPLOAD_TOO_LARGE(maxBytes));

/**
 * Stores one uploaded file of an account and records it. The rights are checked before the file is
 * read; a refused type is refused before a byte is stored; a file over the limit is discarded.
 */
export const receiveUpload = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  target: 'web' | 'metadataMapping';
  query: UploadQuery;
  readFile: () => Promise<IncomingFile | undefined>;
}) => {
  const { ctx, actor, accountId, target, query } = options;
  if (target === 'web') await requireWebUploadRight(ctx, actor, accountId);
  else await requireRight(ctx.db, actor, 'account.manage', { kind: 'account', id: accountId });
  if (query.format && ingestFormatsProblem([query.format]))
    throw badRequest(ingestFormatsProblem([query.format]) as string);
  const read = await options.readFile();
  if (!read) throw badRequest(MSG_UPLOAD_NO_FILE);
  // The file's name is kept and shown (the upload, the node's filename, the download): cleaned like a name.
  const file = { ...read, fileName: cleanName(read.fileName).trim() };
  const kind: UploadKind | undefined =
    target === 'web'
      ? webUploadKindOf(file.fileName)
      : isCsvFileName(file.fileName)
        ? 'metadataMapping'
        : undefined;
  if (!kind) {
    file.stream.resume();
    throw new AppError(
      ERROR_CODES.unsupportedMediaType,
      MSG_UPLOAD_TYPE_REFUSED(`.${fileExtension(file.fileName)}`),
    );
  }
  let stored: Awaited<ReturnType<typeof storeStream>>;
  try {
    stored = await storeStream({
      storage: ctx.storage,
      dataDir: ctx.config.dataDir,
      contentType: file.contentType,
      folder: `media/accounts/${accountId}/${kind === 'metadataMapping' ? 'metadata-mappings' : 'uploads'}`,
      fileName: file.fileName,
      stream: file.stream,
      check: () => {
        if (file.stream.truncated) throw tooLarge(ctx.config.uploadMaxBytes);
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(ctx.config.uploadMaxBytes);
    throw error;
  }
  const location = query.location?.trim() || defaultUploadLocation(new Date());
  let id: number;
  let nodeId: number | undefined;
  try {
    // The upload, its node and its proxy job are one change: all of them, or none (and no file).
    ({ id, nodeId } = await ctx.db.transaction(async (tx) => {
      const uploadId = await repo.insertUpload(tx, {
        accountId,
        userId: actor.userId,
        kind,
        name: query.uploadname,
        fileName: file.fileName,
        location: kind === 'metadataMapping' ? (query.location ?? '') : location,
        format: query.format ?? null,
        aspect: query.aspect ?? null,
        size: stored.size,
        contentType: file.contentType,
        storagePath: stored.relativePath,
        status: kind === 'document' ? 'ready' : 'received',
      });
      if (kind !== 'media') {
        // A document or a mapping is complete once stored; media once its proxy is made (processing.ts).
        await emitUploadCompleted(ctx, tx, uploadId);
        return { id: uploadId, nodeId: undefined };
      }
      const landed = await addUploadedMedia(tx, {
        accountId,
        location,
        name: query.uploadname,
        sourceKey: stored.relativePath,
        size: stored.size,
        fileName: file.fileName,
      });
      await repo.setUploadState(tx, uploadId, { status: 'processing', progress: 0, nodeId: landed.nodeId });
      await emitNodeEvent(ctx, tx, 'node.created', { id: landed.nodeId, accountId });
      await ctx.jobs.send(tx, uploadProxyQueue, [{ uploadId }]);
      return { id: uploadId, nodeId: landed.nodeId };
    }));
  } catch (error) {
    await stored.remove();
    throw error;
  }
  await ctx.publish(CHANNELS.uploads(accountId), [id]);
  if (nodeId !== undefined) await ctx.publish(CHANNELS.nodes(accountId), [nodeId]);
  const row = await repo.findUpload(ctx.db, id);
  if (!row) throw notFound('Upload');
  return toUpload(row);
};

/**
 * GET /api/accounts/{id}/uploads/{uploadId}/file: the upload's stored file, whole or by range, for the
 * users who may list it (metadata mappings: the account's managers); anything else is not found.
 */
export const uploadFile = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  uploadId: number;
  request: { range?: string; ifRange?: string; ifNoneMatch?: string };
}) => {
  const { ctx, actor, accountId } = options;
  const ancestry = await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  const row = await repo.findUploadFile(ctx.db, options.uploadId);
  if (!row || row.accountId !== accountId) throw notFound('Upload');
  if (row.kind === 'metadataMapping' && !hasRight(await actor.rights(), 'account.manage', ancestry))
    throw forbidden();
  const stat = await ctx.storage.stat(row.storagePath).catch(() => undefined);
  const answer = stat
    ? await storedContent(ctx.storage, row.storagePath, {
        ...options.request,
        range: usableRange(options.request.range, stat.size),
        contentType: row.contentType,
      })
    : undefined;
  if (!answer) throw notFound('Upload file');
  return { answer, fileName: row.fileName };
};

export const listUploads = async (options: {
  ctx: AppContext;
  actor: Actor;
  accountId: number;
  kind?: UploadKind;
  offset: number;
  limit: number;
}) => {
  const { ctx, actor, accountId } = options;
  const ancestry = await requireRight(ctx.db, actor, 'account.use', { kind: 'account', id: accountId });
  // Metadata mappings are the managers' (spec1 §1: managers import metadata); the rest any account user's.
  const manager = hasRight(await actor.rights(), 'account.manage', ancestry);
  if (options.kind === 'metadataMapping' && !manager) throw forbidden();
  const kinds = options.kind ? [options.kind] : manager ? UPLOAD_KINDS : (['media', 'document'] as const);
  const page = await repo.findUploadsPage(ctx.db, { ...options, kinds });
  // The upload page asks this before a byte is sent: metadata mappings are the managers'.
  const mayUpload =
    options.kind === 'metadataMapping' ? manager : await mayWebUpload(ctx, actor, ancestry, accountId);
  return { rows: page.rows.map(toUpload), total: page.total, mayUpload };
};

import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { AppContext } from '../../platform/context.ts';
import { randomToken } from '../../platform/crypto.ts';
import { StorageFault } from '../../platform/storage/faults.ts';
import { ITEM_FILE_RENDITIONS, type ItemFileRendition, recordItemFile } from './item-files.ts';
import * as repo from './repo.ts';
import type { AgentEdge } from './service.ts';

/** Where agents' uploads go while they are under way: kept across restarts, so an upload resumes. */
export const tusDirOf = (dataDir: string) => path.join(dataDir, 'tus');
/** Uploads nobody continued for this long are removed at start. */
const ABANDONED_AFTER_MS = 24 * 60 * 60_000;

const EXTENSIONS: Record<ItemFileRendition, string> = {
  proxy: 'mp4',
  poster: 'jpg',
  filmstrip: 'jpg',
  source: 'bin',
};

/** A refusal tus answers with the status and the text as body (the agent reads it as the error). */
const refuse = (status: number, message: string) => ({ status_code: status, body: message });

const edges = new WeakMap<IncomingMessage, AgentEdge>();
/** The edge the agent routes authenticated for this request (set before tus handles it). */
export const rememberEdge = (request: IncomingMessage, edge: AgentEdge) => edges.set(request, edge);
const edgeOf = (req: Request) => {
  const node = (req as Request & { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
  const edge = node ? edges.get(node) : undefined;
  if (!edge) throw refuse(401, 'A valid edge server token is required');
  return edge;
};

/** The queue item and rendition an upload is for, when this edge may upload it now. */
const targetOf = async (
  ctx: AppContext,
  edge: AgentEdge,
  metadata: Record<string, string | null> | undefined,
) => {
  const id = Number(metadata?.queueItemId);
  const rendition = metadata?.rendition as ItemFileRendition | undefined;
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw refuse(400, 'queueItemId is required');
  if (!rendition || !ITEM_FILE_RENDITIONS.includes(rendition))
    throw refuse(400, `rendition must be one of ${ITEM_FILE_RENDITIONS.join(', ')}`);
  const item = await repo.findAgentItem(ctx.db, edge.id, id);
  if (!item) throw refuse(404, 'Queue item not found');
  if (item.status !== 'ingesting') throw refuse(403, `The item is ${item.status}; it takes no files`);
  return { item, rendition };
};

/** Whether a finished file looks like what its rendition says (an MP4 proxy, JPEG thumbnails). */
const looksRight = async (file: string, rendition: ItemFileRendition) => {
  if (rendition === 'source') return true;
  const head = Buffer.alloc(12);
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.read(head, 0, 12, 0);
  } finally {
    await handle.close();
  }
  if (rendition === 'proxy') return head.toString('latin1', 4, 8) === 'ftyp';
  return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
};

/**
 * The tus 1.0 server of the agents' uploads (DESIGN "Media": proxies, thumbnails and sources go up
 * resumably): files grow under DATA_DIR/tus, and a finished one moves into storage and is recorded for its
 * queue item. A cut connection or a restart of either side resumes at the offset the server holds.
 */
export const createAgentTusServer = (ctx: AppContext, options: { path: string }) => {
  const directory = tusDirOf(ctx.config.dataDir);
  fs.mkdirSync(directory, { recursive: true });
  const server = new Server({
    path: options.path,
    datastore: new FileStore({ directory, expirationPeriodInMilliseconds: ABANDONED_AFTER_MS }),
    maxSize: ctx.config.uploadMaxBytes,
    relativeLocation: true,
    respectForwardedHeaders: ctx.config.trustProxy,
    namingFunction: () => randomToken(18),
    onIncomingRequest: async (req, uploadId) => {
      const edge = edgeOf(req);
      if (req.method === 'POST' || !uploadId) return;
      // Only the edge that created an upload may continue or end it.
      const info = await server.datastore.getUpload(uploadId).catch(() => undefined);
      if (info && Number(info.metadata?.edgeServerId) !== edge.id) throw refuse(404, 'Upload not found');
    },
    onUploadCreate: async (req, upload) => {
      const edge = edgeOf(req);
      await targetOf(ctx, edge, upload.metadata);
      return { metadata: { ...upload.metadata, edgeServerId: String(edge.id) } };
    },
    onUploadFinish: async (req, upload) => {
      await finish(ctx, edgeOf(req), upload, directory);
      return {};
    },
    onResponseError: async (_req, error) => {
      // A full or unwritable DATA_DIR/tus or storage: 507 or 503 in words the agent shows (storage/faults.ts).
      const fault = ctx.storage.failedWrite(error);
      if (fault instanceof StorageFault) return { status_code: fault.status, body: fault.message };
      const status = (error as { status_code?: number }).status_code;
      if (status && status < 500) return undefined;
      ctx.log.warn({ err: error }, 'an agent upload failed');
      return undefined;
    },
  });
  return server;
};

const finish = async (ctx: AppContext, edge: AgentEdge, upload: Upload, directory: string) => {
  const file = path.join(directory, upload.id);
  const remove = () =>
    Promise.all([fs.promises.rm(file, { force: true }), fs.promises.rm(`${file}.json`, { force: true })]);
  try {
    const { item, rendition } = await targetOf(ctx, edge, upload.metadata);
    if (!(await looksRight(file, rendition)))
      throw refuse(
        415,
        rendition === 'proxy' ? 'A proxy must be an MP4 file' : 'A thumbnail must be a JPEG image',
      );
    const owner = item.accountId != null ? `accounts/${item.accountId}` : `edges/${edge.id}`;
    const key = `media/${owner}/items/${item.id}/${rendition}-${randomToken(6)}.${EXTENSIONS[rendition]}`;
    const { size } = await ctx.storage.putFile(key, file);
    let replaced: string | undefined;
    try {
      ({ replaced } = await recordItemFile(ctx.db, {
        queueItemId: item.id,
        rendition,
        storagePath: key,
        size,
      }));
    } catch (error) {
      await ctx.storage.remove(key);
      throw error;
    }
    if (replaced && replaced !== key) await ctx.storage.remove(replaced).catch(() => undefined);
  } finally {
    await remove();
  }
};

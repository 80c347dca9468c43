import { accountPath, type WebhookEvent } from '@media/contract';
import { eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { ingestQueueItems } from '../ingest/tables.ts';
import { downloadLinksExpireAt, signedDownloadUrl } from '../nodes/download-links.ts';
import { media, nodes } from '../nodes/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { publishButtons, publishes } from '../publishing/tables.ts';
import { uploads } from '../uploads/tables.ts';
import { users } from '../users/tables.ts';
import { emitWebhookEvent, type WebhookEventData } from './outbox.ts';

type Ctx = Pick<AppContext, 'jobs' | 'config' | 'secretKey'>;

/**
 * What a webhook is told of a node: its ids, name, type, path in the account (as the API writes it), a link
 * to it in the web app, its account, and for media the file's facts and download links the receiver can use
 * without a session (signed, WEBHOOK_LINK_HOURS): the proxy, and the original when the cloud keeps it.
 */
export const nodeEventData = async (ctx: Ctx, db: DbOrTx, nodeId: number): Promise<WebhookEventData> => {
  const [row] = await db
    .select({ node: nodes, accountName: accounts.name, media })
    .from(nodes)
    .innerJoin(accounts, eq(accounts.id, nodes.accountId))
    .leftJoin(media, eq(media.id, nodes.mediaId))
    .where(eq(nodes.id, nodeId));
  if (!row) return { node: { id: nodeId } };
  const { node, accountName } = row;
  const path = accountPath(accountName, node.path);
  const folder = accountPath(accountName, node.path.split('/').slice(0, -1).join('/') || '/');
  const expiresAt = downloadLinksExpireAt(ctx);
  const file = row.media;
  return {
    node: {
      id: node.id,
      name: node.name,
      type: node.type,
      path,
      parentId: node.parentId,
      metadata: node.metadata,
      // The media manager opens a folder: the node itself, or the folder it is in.
      link: `${ctx.config.publicUrl}/accounts/${encodeURIComponent(accountName)}/media?path=${encodeURIComponent(node.type === 'folder' ? path : folder)}`,
    },
    account: { id: node.accountId, name: accountName },
    ...(file
      ? {
          media: {
            id: file.id,
            type: file.type,
            status: file.status,
            contentType: file.contentType,
            duration: file.duration,
            width: file.width,
            height: file.height,
            size: file.size,
            downloadUrl: file.storagePath ? signedDownloadUrl(ctx, file.id, 'proxy', expiresAt) : null,
            originalUrl: file.sourcePath ? signedDownloadUrl(ctx, file.id, 'original', expiresAt) : null,
            linksExpireAt: expiresAt.toISOString(),
          },
        }
      : {}),
  };
};

/** A node's event, in the caller's transaction (the node as it is in it). */
export const emitNodeEvent = (
  ctx: Ctx,
  tx: DbOrTx,
  type: Extract<WebhookEvent, `node.${string}` | 'upload.completed'>,
  node: { id: number; accountId: number },
  extra: WebhookEventData = {},
) =>
  emitWebhookEvent(ctx, tx, {
    type,
    accountId: node.accountId,
    data: async () => ({ ...(await nodeEventData(ctx, tx, node.id)), ...extra }),
  });

/**
 * An ingest queue item's event (a stream's too: it is an item), in the caller's transaction: the item (ids, names, status, error), its
 * account and edge server, and the node it made when there is one. An item of no account is heard by the
 * cloud's webhooks only.
 */
export const emitIngestEvent = async (
  ctx: Ctx,
  tx: DbOrTx,
  type: Extract<WebhookEvent, `ingest.${string}` | `stream.${string}`>,
  itemIds: number[],
  nodeId?: number,
) => {
  if (!itemIds.length) return;
  const items = await tx
    .select({
      id: ingestQueueItems.id,
      accountId: ingestQueueItems.accountId,
      accountName: accounts.name,
      edgeServerId: ingestQueueItems.edgeServerId,
      sourceName: ingestQueueItems.sourceName,
      clipName: ingestQueueItems.clipName,
      isStream: ingestQueueItems.isStream,
      status: ingestQueueItems.status,
      error: ingestQueueItems.error,
    })
    .from(ingestQueueItems)
    .leftJoin(accounts, eq(accounts.id, ingestQueueItems.accountId))
    .where(inArray(ingestQueueItems.id, itemIds));
  for (const item of items)
    await emitWebhookEvent(ctx, tx, {
      type,
      accountId: item.accountId,
      data: async () => ({
        ingestQueueItem: {
          id: item.id,
          sourceName: item.sourceName,
          clipName: item.clipName,
          isStream: item.isStream,
          status: item.status,
          error: item.error,
        },
        edgeServer: { id: item.edgeServerId },
        account: item.accountId === null ? null : { id: item.accountId, name: item.accountName },
        ...(nodeId === undefined ? {} : await nodeEventData(ctx, tx, nodeId)),
      }),
    });
};

/**
 * `upload.completed`, in the caller's transaction: a web upload finished (a document or mapping once stored,
 * media once its proxy is made), with the upload and, for media, its node and download links.
 */
export const emitUploadCompleted = async (ctx: Ctx, tx: DbOrTx, uploadId: number) => {
  const [upload] = await tx
    .select({
      id: uploads.id,
      accountId: uploads.accountId,
      kind: uploads.kind,
      name: uploads.name,
      fileName: uploads.fileName,
      size: uploads.size,
      userId: uploads.userId,
      nodeId: uploads.nodeId,
    })
    .from(uploads)
    .where(eq(uploads.id, uploadId));
  if (!upload) return;
  const { nodeId, ...described } = upload;
  await emitWebhookEvent(ctx, tx, {
    type: 'upload.completed',
    accountId: upload.accountId,
    data: async () => ({
      upload: described,
      ...(nodeId === null ? { account: { id: upload.accountId } } : await nodeEventData(ctx, tx, nodeId)),
    }),
  });
};

/**
 * A publish's event, in the caller's transaction (the publish as it is in it): its id, status, button,
 * outputs or error, who published, and the node published with its download links.
 */
export const emitPublishEvent = async (
  ctx: Ctx,
  tx: DbOrTx,
  type: Extract<WebhookEvent, `publish.${string}`>,
  publishId: number,
) => {
  const [row] = await tx
    .select({ publish: publishes, buttonName: publishButtons.name })
    .from(publishes)
    .innerJoin(publishButtons, eq(publishButtons.id, publishes.buttonId))
    .where(eq(publishes.id, publishId));
  if (!row) return;
  const { publish } = row;
  await emitWebhookEvent(ctx, tx, {
    type,
    accountId: publish.accountId,
    data: async () => ({
      publish: {
        id: publish.id,
        status: publish.status,
        button: { id: publish.buttonId, name: row.buttonName },
        userId: publish.userId,
        outputs: publish.outputs,
        error: publish.error,
        startedAt: publish.startedAt?.toISOString() ?? null,
        finishedAt: publish.finishedAt?.toISOString() ?? null,
      },
      ...(publish.nodeId === null
        ? { account: { id: publish.accountId } }
        : await nodeEventData(ctx, tx, publish.nodeId)),
    }),
  });
};

/**
 * A user's event, in the caller's transaction: the user's id, names, e-mail and whether disabled. A user made
 * by accepting an account's invitation is that account's event; any other user event is the cloud's.
 */
export const emitUserEvent = async (
  ctx: Ctx,
  tx: DbOrTx,
  type: Extract<WebhookEvent, `user.${string}`>,
  userIds: number[],
  accountId: number | null = null,
) => {
  if (!userIds.length) return;
  const rows = await tx
    .select({
      id: users.id,
      username: users.username,
      fullname: users.fullname,
      email: users.email,
      disabled: users.disabled,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  for (const user of rows)
    await emitWebhookEvent(ctx, tx, { type, accountId, data: () => ({ user, accountId }) });
};

import {
  CHANNELS,
  ERROR_CODES,
  MSG_OUTBOUND_BAD_URL,
  MSG_WEBHOOK_DELIVERY_NOT_FOUND,
  MSG_WEBHOOK_DISABLED,
  MSG_WEBHOOK_NOT_FOUND,
  MSG_WEBHOOK_RETRY_DELIVERED,
  msgOutboundScheme,
  OUTBOUND_URL_SCHEMES,
  WEBHOOK_KEPT_BYTES,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
  type WebhookUpdate,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { outboundGuard } from '../../platform/outbound.ts';
import { requireRight } from '../access/rights.ts';
import { requireAccountManagement } from '../access/service.ts';
import { queueAttempts } from './delivery.ts';
import * as repo from './repo.ts';
import { newMessageId, newWebhookSecret, secretPrefixOf } from './signing.ts';

type Listed = NonNullable<Awaited<ReturnType<typeof repo.find>>>;

const presented = ({ webhook, lastDeliveryAt, lastDeliveryStatus }: Listed): Webhook => ({
  id: webhook.id,
  accountId: webhook.accountId,
  url: webhook.url,
  description: webhook.description,
  events: webhook.events,
  enabled: webhook.enabled,
  disabledReason: webhook.disabledReason ?? null,
  consecutiveFailures: webhook.consecutiveFailures,
  secretPrefix: secretPrefixOf(webhook.secret),
  createdAt: webhook.createdAt.toISOString(),
  lastDeliveryAt: lastDeliveryAt?.toISOString() ?? null,
  lastDeliveryStatus: lastDeliveryStatus ?? null,
});

export const presentedDelivery = (row: repo.DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  messageId: row.messageId,
  type: row.type,
  status: row.status,
  attempts: row.attempts,
  responseStatus: row.responseStatus,
  error: row.error,
  durationMs: row.durationMs,
  createdAt: row.createdAt.toISOString(),
  lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
  nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
});

const webhookNotFound = () => new AppError(ERROR_CODES.notFound, MSG_WEBHOOK_NOT_FOUND);
const deliveryNotFound = () => new AppError(ERROR_CODES.notFound, MSG_WEBHOOK_DELIVERY_NOT_FOUND);

/** An account's webhooks are its managers' and above; the cloud's (null) the administrators'. */
const requireOwnerRight = async (ctx: AppContext, actor: Actor, accountId: number | null) => {
  if (accountId === null) await requireRight(ctx.db, actor, 'cloud.admin');
  else await requireAccountManagement(ctx, actor, accountId);
};

const requireWebhook = async (ctx: AppContext, actor: Actor, id: number) => {
  const found = await repo.find(ctx.db, id);
  if (!found) throw webhookNotFound();
  await requireOwnerRight(ctx, actor, found.webhook.accountId);
  return found;
};

/**
 * An http or https address whose host is not refused by itself (a literal loopback or link-local address, a
 * cloud metadata name): the guard checks names again on every delivery, on the address they resolve to.
 */
const checkedUrl = async (ctx: AppContext, value: string) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(MSG_OUTBOUND_BAD_URL, { url: MSG_OUTBOUND_BAD_URL });
  }
  if (!(OUTBOUND_URL_SCHEMES as readonly string[]).includes(url.protocol)) {
    const message = msgOutboundScheme(url.protocol);
    throw badRequest(message, { url: message });
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const refused = await outboundGuard(ctx.config, 'webhooks').typedRefusal(url.hostname, port);
  if (refused) throw badRequest(refused.message, { url: refused.message });
  return url.toString();
};

const announce = (ctx: AppContext, accountId: number | null, webhookId: number) =>
  ctx.publish(CHANNELS.webhooks(accountId), [webhookId]);

const withSecret = async (ctx: AppContext, id: number, secret: string) => {
  const found = await repo.find(ctx.db, id);
  if (!found) throw webhookNotFound();
  return { ...presented(found), secret };
};

/** GET /api/accounts/{id}/webhooks and GET /api/webhooks (accountId null). */
export const list = async (
  ctx: AppContext,
  actor: Actor,
  accountId: number | null,
  page: { offset: number; limit: number },
) => {
  await requireOwnerRight(ctx, actor, accountId);
  const { rows, total } = await repo.listOf(ctx.db, accountId, page);
  return { results: rows.map(presented), total, channel: CHANNELS.webhooks(accountId) };
};

/** POST /api/accounts/{id}/webhooks and POST /api/webhooks: answered with the secret, this once. */
export const create = async (
  ctx: AppContext,
  actor: Actor,
  accountId: number | null,
  input: { url: string; events: Webhook['events']; description: string; enabled: boolean },
) => {
  await requireOwnerRight(ctx, actor, accountId);
  const url = await checkedUrl(ctx, input.url);
  const secret = newWebhookSecret();
  const id = await repo.insert(ctx.db, {
    accountId,
    url,
    events: input.events,
    description: input.description,
    enabled: input.enabled,
    secret,
    createdBy: actor.userId,
  });
  await announce(ctx, accountId, id);
  return withSecret(ctx, id, secret);
};
/** GET /api/webhooks/{id}. */
export const get = async (ctx: AppContext, actor: Actor, id: number) =>
  presented(await requireWebhook(ctx, actor, id));

/** POST /api/webhooks/{id}: change the address, events, description; enable or disable. */
export const update = async (ctx: AppContext, actor: Actor, id: number, input: WebhookUpdate) => {
  const { webhook } = await requireWebhook(ctx, actor, id);
  const url = input.url === undefined ? undefined : await checkedUrl(ctx, input.url);
  const enabling = input.enabled === true && !webhook.enabled;
  await repo.update(ctx.db, id, {
    ...(url === undefined ? {} : { url }),
    ...(input.events === undefined ? {} : { events: input.events as Webhook['events'] }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    // Enabled again: its failures are counted from nothing, and the reason it was disabled is gone.
    ...(enabling ? { consecutiveFailures: 0, disabledReason: null } : {}),
    ...(input.enabled === false ? { disabledReason: null } : {}),
  });
  await announce(ctx, webhook.accountId, id);
  return get(ctx, actor, id);
};

/** POST /api/webhooks/{id}/trash: the webhook and its deliveries are removed; waiting ones are not sent. */
export const trash = async (ctx: AppContext, actor: Actor, id: number) => {
  const { webhook } = await requireWebhook(ctx, actor, id);
  await repo.remove(ctx.db, id);
  await announce(ctx, webhook.accountId, id);
};

/** POST /api/webhooks/{id}/rotateSecret: a new secret, answered this once; the old one stops at once. */
export const rotateSecret = async (ctx: AppContext, actor: Actor, id: number) => {
  const { webhook } = await requireWebhook(ctx, actor, id);
  const secret = newWebhookSecret();
  await repo.update(ctx.db, id, { secret });
  await announce(ctx, webhook.accountId, id);
  return withSecret(ctx, id, secret);
};

/** POST /api/webhooks/{id}/test: a `ping` delivery, sent at once. */
export const test = async (ctx: AppContext, actor: Actor, id: number) => {
  const { webhook } = await requireWebhook(ctx, actor, id);
  if (!webhook.enabled) throw badRequest(MSG_WEBHOOK_DISABLED);
  const body = JSON.stringify({
    type: 'ping',
    timestamp: new Date().toISOString(),
    data: { webhookId: webhook.id, accountId: webhook.accountId },
  });
  const deliveryId = await ctx.db.transaction(async (tx) => {
    const [inserted] = await repo.insertDeliveries(tx, [
      { webhookId: webhook.id, messageId: newMessageId(), type: 'ping', body },
    ]);
    if (inserted === undefined) throw new Error('The test delivery was not stored');
    await queueAttempts(ctx, tx, [inserted]);
    return inserted;
  });
  await announce(ctx, webhook.accountId, id);
  const row = await repo.findDelivery(ctx.db, deliveryId);
  if (!row) throw deliveryNotFound();
  return presentedDelivery(row);
};

/** GET /api/webhooks/{id}/deliveries: newest first, paged. */
export const deliveries = async (
  ctx: AppContext,
  actor: Actor,
  id: number,
  query: { offset: number; limit: number; status?: WebhookDeliveryStatus },
) => {
  const { webhook } = await requireWebhook(ctx, actor, id);
  const { rows, total } = await repo.deliveriesOf(ctx.db, id, query);
  return { results: rows.map(presentedDelivery), total, channel: CHANNELS.webhooks(webhook.accountId) };
};

const requireDelivery = async (ctx: AppContext, actor: Actor, id: number) => {
  const row = await repo.findDelivery(ctx.db, id);
  if (!row) throw deliveryNotFound();
  const found = await requireWebhook(ctx, actor, row.webhookId);
  return { row, webhook: found.webhook };
};

/** GET /api/webhookDeliveries/{id}: what was sent and what came back (each cut at WEBHOOK_KEPT_BYTES). */
export const delivery = async (ctx: AppContext, actor: Actor, id: number): Promise<WebhookDeliveryDetail> => {
  const { row } = await requireDelivery(ctx, actor, id);
  return {
    ...presentedDelivery(row),
    requestHeaders: {
      'content-type': 'application/json',
      'webhook-id': row.messageId,
      ...(row.lastAttemptAt
        ? { 'webhook-timestamp': String(Math.floor(row.lastAttemptAt.getTime() / 1000)) }
        : {}),
    },
    requestBody: Buffer.from(row.body).subarray(0, WEBHOOK_KEPT_BYTES).toString('utf8'),
    responseHeaders: row.responseHeaders ?? null,
    responseBody: row.responseBody ?? null,
  };
};

/** POST /api/webhookDeliveries/{id}/retry: one more attempt now (not for a delivered one). */
export const retry = async (ctx: AppContext, actor: Actor, id: number) => {
  const { row, webhook } = await requireDelivery(ctx, actor, id);
  if (row.status === 'delivered') throw badRequest(MSG_WEBHOOK_RETRY_DELIVERED);
  if (!webhook.enabled) throw badRequest(MSG_WEBHOOK_DISABLED);
  await ctx.db.transaction(async (tx) => {
    await repo.updateDelivery(tx, id, { status: 'pending', nextAttemptAt: new Date(), error: null });
    await queueAttempts(ctx, tx, [id]);
  });
  await announce(ctx, webhook.accountId, webhook.id);
  const updated = await repo.findDelivery(ctx.db, id);
  if (!updated) throw deliveryNotFound();
  return presentedDelivery(updated);
};

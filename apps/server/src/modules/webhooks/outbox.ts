import type { WebhookEvent } from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queueAttempts } from './delivery.ts';
import * as repo from './repo.ts';
import { newMessageId } from './signing.ts';

export type WebhookEventData = Record<string, unknown>;

/**
 * Tells the webhooks that want it of an event (the outbox, DESIGN "Identity, tokens and the way out"): one
 * delivery per webhook and its first attempt's job, written in the caller's transaction, so a change that
 * rolls back sends nothing and one that commits is delivered even across a crash. The account's webhooks
 * and the cloud's hear an account's event; only the cloud's hear one of no account (null). `data` is made
 * only when some webhook listens.
 */
export const emitWebhookEvent = async (
  ctx: Pick<AppContext, 'jobs'>,
  tx: DbOrTx,
  event: {
    type: WebhookEvent;
    accountId: number | null;
    data: () => Promise<WebhookEventData> | WebhookEventData;
  },
) => {
  const listeners = await repo.listeners(tx, event.type, event.accountId);
  if (!listeners.length) return;
  const body = JSON.stringify({
    type: event.type,
    timestamp: new Date().toISOString(),
    data: await event.data(),
  });
  const ids = await repo.insertDeliveries(
    tx,
    listeners.map((webhook) => ({
      webhookId: webhook.id,
      messageId: newMessageId(),
      type: event.type,
      body,
    })),
  );
  await queueAttempts(ctx, tx, ids);
};

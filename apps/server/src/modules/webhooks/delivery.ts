import http from 'node:http';
import https from 'node:https';
import {
  CHANNELS,
  MSG_WEBHOOK_DISABLED_DELIVERY,
  msgWebhookDisabledAfterFailures,
  WEBHOOK_DELIVERY_KEEP_DAYS,
  WEBHOOK_FAILURES_TO_DISABLE,
  WEBHOOK_KEPT_BYTES,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_SECONDS,
  WEBHOOK_TIMEOUT_SECONDS,
  webhooksPageLink,
} from '@media/contract';
import type { AppContext } from '../../platform/context.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { defineQueue, type Job } from '../../platform/jobs/queues.ts';
import { outboundGuard, outboundRefusalIn } from '../../platform/outbound.ts';
import { notifyAdministrators, notifyUser } from '../notifications/service.ts';
import { deliveryFailure } from '../publishing/destinations/failures.ts';
import * as repo from './repo.ts';
import { signedHeaders } from './signing.ts';

/**
 * One attempt of one delivery per job (the outbox's sender). The waits between attempts are the
 * delivery's (WEBHOOK_RETRY_SECONDS, the next attempt sent as a job due then, in the transaction that
 * records this one); pg-boss's own retries only cover an attempt cut off by a crash or a stop.
 */
export const webhookDeliveryQueue = defineQueue<{ deliveryId: number }>('webhook-delivery', {
  retryLimit: 5,
  retryDelaySeconds: 5,
  retryBackoff: true,
  timeLimitSeconds: WEBHOOK_TIMEOUT_SECONDS + 20,
});

/** Deliveries sent at once on each instance: each waits on another system for up to 10 s. */
const CONCURRENCY = 10;
export const WEBHOOK_USER_AGENT = 'MediaCloud-Webhooks/1.0';

/** Runs the delivery jobs on this instance (whatever WORKERS says: this is not media work). */
export const startWebhookDeliveries = (ctx: AppContext) =>
  ctx.jobs.work(webhookDeliveryQueue, (job) => attempt(ctx, job), { concurrency: CONCURRENCY });

/** Sends an attempt of each delivery as a job in the caller's transaction (now, or when due). */
export const queueAttempts = (ctx: Pick<AppContext, 'jobs'>, tx: DbOrTx, deliveryIds: number[], at?: Date) =>
  ctx.jobs.send(
    tx,
    webhookDeliveryQueue,
    deliveryIds.map((deliveryId) => ({ deliveryId })),
    at ? { startAfter: at } : {},
  );

type Answer = { status: number; headers: Record<string, string>; body: string };

/** One POST through the guard's agents: the answer's status, headers and first WEBHOOK_KEPT_BYTES. */
const post = (
  ctx: AppContext,
  url: URL,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
) => {
  const agents = outboundGuard(ctx.config, 'webhooks').agents();
  return new Promise<Answer>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        signal,
      },
      (response) => {
        const kept: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < WEBHOOK_KEPT_BYTES) kept.push(chunk.subarray(0, WEBHOOK_KEPT_BYTES - size));
          size += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(response.headers).map(([name, value]) => [
                name,
                Array.isArray(value) ? value.join(', ') : String(value ?? ''),
              ]),
            ),
            body: Buffer.concat(kept).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  }).finally(() => {
    agents.http.destroy();
    agents.https.destroy();
  });
};

/** When the attempt after `attempts` is due, or undefined when there is none. */
const nextAttemptAt = (ctx: AppContext, attempts: number, from: Date) => {
  const wait = WEBHOOK_RETRY_SECONDS[attempts - 1];
  return attempts < WEBHOOK_MAX_ATTEMPTS && wait !== undefined
    ? new Date(from.getTime() + wait * ctx.config.webhookRetryUnitMs)
    : undefined;
};

type Outcome = { ok: true; answer: Answer } | { ok: false; refused: boolean; error: string; answer?: Answer };

/** Sends the delivery once; never throws for the receiver's failure (the outcome says it). */
const send = async (
  ctx: AppContext,
  target: { url: string; secret: string },
  delivery: { messageId: string; body: string },
  startedAt: Date,
  signal: AbortSignal,
): Promise<Outcome> => {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return { ok: false, refused: true, error: `${target.url} is not an http or https address` };
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    ...signedHeaders(target.secret, delivery.messageId, delivery.body, startedAt),
  };
  try {
    const answer = await post(
      ctx,
      url,
      headers,
      delivery.body,
      AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_SECONDS * 1000)]),
    );
    if (answer.status >= 200 && answer.status < 300) return { ok: true, answer };
    return { ok: false, refused: false, error: `${url.origin} answered ${answer.status}`, answer };
  } catch (error) {
    // A stop of this instance is not the receiver's failure: the job runs again.
    if (signal.aborted) throw error;
    const refusal = outboundRefusalIn(error);
    if (refusal) return { ok: false, refused: true, error: refusal.message };
    return { ok: false, refused: false, error: deliveryFailure(error, url.origin).message };
  }
};

/**
 * One attempt of a delivery: sent, then its outcome recorded in one transaction with the webhook's count of
 * failures in a row, the next attempt's job when one is due, and the webhook disabled at
 * WEBHOOK_FAILURES_TO_DISABLE (its owner told after the commit). A delivery already delivered, or whose
 * webhook is gone, is left alone; one whose webhook is disabled is not sent.
 */
const attempt = async (ctx: AppContext, job: Job<{ deliveryId: number }>) => {
  const { deliveryId } = job.data;
  const found = await repo.findForAttempt(ctx.db, deliveryId);
  if (!found || found.delivery.status === 'delivered') return;
  const { webhook } = found;
  if (!webhook.enabled) {
    await repo.updateDelivery(ctx.db, deliveryId, {
      status: 'failed',
      error: MSG_WEBHOOK_DISABLED_DELIVERY,
      nextAttemptAt: null,
    });
    await ctx.publish(CHANNELS.webhooks(webhook.accountId), [webhook.id]);
    return;
  }
  const startedAt = new Date();
  const outcome = await send(ctx, webhook, found.delivery, startedAt, job.signal);
  const durationMs = Date.now() - startedAt.getTime();
  const disabled = await ctx.db.transaction(async (tx) => {
    const current = await repo.lockForAttempt(tx, deliveryId);
    // Removed (with its webhook) while it was sent: nothing to record.
    if (!current) return false;
    const attempts = current.delivery.attempts + 1;
    const next = outcome.ok || outcome.refused ? undefined : nextAttemptAt(ctx, attempts, new Date());
    await repo.updateDelivery(tx, deliveryId, {
      status: outcome.ok ? 'delivered' : outcome.refused ? 'refused' : next ? 'retrying' : 'failed',
      attempts,
      lastAttemptAt: startedAt,
      nextAttemptAt: next ?? null,
      durationMs,
      error: outcome.ok ? null : outcome.error,
      responseStatus: outcome.answer?.status ?? null,
      responseHeaders: outcome.answer?.headers ?? null,
      responseBody: outcome.answer?.body ?? null,
    });
    if (next) await queueAttempts(ctx, tx, [deliveryId], next);
    const failures = outcome.ok ? 0 : current.webhook.consecutiveFailures + 1;
    const disabling = failures >= WEBHOOK_FAILURES_TO_DISABLE && current.webhook.enabled;
    await repo.update(tx, current.webhook.id, {
      consecutiveFailures: failures,
      ...(disabling ? { enabled: false, disabledReason: 'failures' as const } : {}),
    });
    if (disabling) await repo.failWaiting(tx, current.webhook.id, MSG_WEBHOOK_DISABLED_DELIVERY);
    return disabling;
  });
  await ctx.publish(CHANNELS.webhooks(webhook.accountId), [webhook.id]);
  if (disabled) await tellOwner(ctx, webhook);
  pruneNowAndThen(ctx);
};

/** Ended deliveries older than WEBHOOK_DELIVERY_KEEP_DAYS go, looked for at most once an hour per instance. */
const PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 10_000;
const lastPruned = new WeakMap<AppContext['db'], number>();
const pruneNowAndThen = (ctx: AppContext) => {
  const now = Date.now();
  if (now - (lastPruned.get(ctx.db) ?? 0) < PRUNE_EVERY_MS) return;
  lastPruned.set(ctx.db, now);
  repo
    .pruneEnded(ctx.db, new Date(now - WEBHOOK_DELIVERY_KEEP_DAYS * 86_400_000), PRUNE_BATCH)
    .catch((error: unknown) => ctx.log.warn({ err: error }, 'removing old webhook deliveries failed'));
};

/** The one who made a webhook disabled for failures is told; a cloud webhook's administrators when they are gone. */
const tellOwner = async (ctx: AppContext, webhook: repo.WebhookRow) => {
  const notification = {
    type: 'problem' as const,
    message: msgWebhookDisabledAfterFailures(webhook.url),
    link: webhooksPageLink(
      webhook.accountId === null ? null : ((await repo.accountName(ctx.db, webhook.accountId)) ?? ''),
    ),
  };
  if (webhook.createdBy !== null) await notifyUser(ctx, webhook.createdBy, notification);
  else await notifyAdministrators(ctx, notification);
};

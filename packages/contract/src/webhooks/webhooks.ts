import { z } from 'zod';
import { collectionOf, pageQuerySchema, resultsOf } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

/**
 * Outgoing webhooks (issue 33, DESIGN.md "Identity, tokens and the way out"): an account's (its managers and
 * above) or the cloud's (administrators) webhook is told of events as Standard Webhooks 1.0 deliveries.
 */

/** The events a webhook may want, grouped as its form shows them. */
export const WEBHOOK_EVENT_GROUPS = {
  Media: ['node.created', 'node.updated', 'node.moved', 'node.deleted'],
  Ingest: ['ingest.queued', 'ingest.ingested', 'ingest.failed', 'upload.completed'],
  Publishing: ['publish.started', 'publish.done', 'publish.failed'],
  Streams: ['stream.started', 'stream.stopped'],
  Users: ['user.created', 'user.disabled'],
} as const;
export type WebhookEventGroup = keyof typeof WEBHOOK_EVENT_GROUPS;
export const WEBHOOK_EVENTS = Object.values(WEBHOOK_EVENT_GROUPS).flat() as WebhookEvent[];
export type WebhookEvent = (typeof WEBHOOK_EVENT_GROUPS)[WebhookEventGroup][number];
/** What a delivery may carry: an event, or the `ping` of POST /api/webhooks/{id}/test. */
export type WebhookDeliveryType = WebhookEvent | 'ping';

/** What each event means, under its checkbox. */
export const WEBHOOK_EVENT_TEXT: Record<WebhookEvent, string> = {
  'node.created': 'A folder, asset or media item was created',
  'node.updated': 'A node was renamed or its metadata changed',
  'node.moved': 'A node was moved to another folder',
  'node.deleted': 'A node was removed (the media tree cannot remove nodes yet: none is sent today)',
  'ingest.queued': 'A file was put in the ingest queue',
  'ingest.ingested': 'An ingest queue item was ingested',
  'ingest.failed': 'An ingest queue item failed',
  'upload.completed': 'A web upload was completed',
  'publish.started': 'A publish started',
  'publish.done': 'A publish was delivered',
  'publish.failed': 'A publish failed',
  'stream.started': 'A live stream started arriving',
  'stream.stopped': 'A live stream stopped',
  'user.created': 'A user was created',
  'user.disabled': 'A user was disabled',
};

/** The secret's prefix (Standard Webhooks): the rest is the base64 of the 32-byte signing key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 500;
/** One attempt's time limit. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/** A webhook whose deliveries failed this many times in a row is disabled and its owner told. */
export const WEBHOOK_FAILURES_TO_DISABLE = 50;
/** How long a download link in a delivery works, by default (WEBHOOK_LINK_HOURS). */
export const WEBHOOK_LINK_HOURS_DEFAULT = 24;
/** How much of a delivery's request and of the receiver's answer is kept to be looked at. */
export const WEBHOOK_KEPT_BYTES = 2048;
/** Ended deliveries (delivered, failed, refused) are kept this long to be looked at, then removed. */
export const WEBHOOK_DELIVERY_KEEP_DAYS = 30;
/**
 * The waits between a delivery's attempts (seconds): growing, then every 4 hours; 18 attempts over 27 hours
 * (at least 24 hours of trying, issue 33).
 */
export const WEBHOOK_RETRY_SECONDS = [
  10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 3600, 7200, 7200, 14_400, 14_400, 14_400, 14_400, 14_400,
] as const;
/** Attempts in all: the first and one after each wait. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SECONDS.length + 1;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'refused'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const MSG_WEBHOOK_NOT_FOUND = 'No such webhook';
export const MSG_WEBHOOK_DELIVERY_NOT_FOUND = 'No such webhook delivery';
export const MSG_WEBHOOK_EVENTS_REQUIRED = 'Choose at least one event';
export const MSG_WEBHOOK_URL_REQUIRED = 'An address is required';
export const MSG_WEBHOOK_SECRET_SHOWN_ONCE =
  'Copy the secret now: it is shown this once. The receiver checks each delivery with it.';
export const MSG_WEBHOOK_DISABLED = 'The webhook is disabled: enable it first';
export const MSG_WEBHOOK_DISABLED_DELIVERY = 'Not sent: the webhook is disabled';
export const MSG_DOWNLOAD_LINK_INVALID = 'This download link has expired or is not valid';
export const MSG_WEBHOOK_RETRY_DELIVERED = 'This delivery was delivered: there is nothing to retry';
export const msgWebhookDisabledAfterFailures = (url: string) =>
  `The webhook to ${url} was disabled: its last ${WEBHOOK_FAILURES_TO_DISABLE} deliveries failed`;

/** The web app's page of an account's webhooks (its Integrations), or the cloud's (null). */
export const webhooksPageLink = (accountName: string | null) =>
  accountName === null ? '/admin/webhooks' : `/accounts/${encodeURIComponent(accountName)}/integrations`;

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS as [WebhookEvent, ...WebhookEvent[]]);

const urlSchema = z
  .string()
  .trim()
  .min(1, MSG_WEBHOOK_URL_REQUIRED)
  .max(WEBHOOK_URL_MAX)
  .describe('Where deliveries are POSTed: an http or https address');
const eventsSchema = z
  .array(webhookEventSchema)
  .min(1, MSG_WEBHOOK_EVENTS_REQUIRED)
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)]);
const descriptionSchema = z.string().trim().max(WEBHOOK_DESCRIPTION_MAX);

export const webhookSchema = z.object({
  id: z.number().int(),
  accountId: z.number().int().nullable().describe("The account whose events it hears; null: the cloud's"),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventSchema),
  enabled: z.boolean(),
  disabledReason: z
    .enum(['failures'])
    .nullable()
    .describe('failures: disabled by the server after its deliveries kept failing'),
  consecutiveFailures: z.number().int(),
  secretPrefix: z.string().describe('The first characters of the secret, to tell it apart'),
  createdAt: z.string(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryStatus: z.enum(WEBHOOK_DELIVERY_STATUSES).nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = collectionOf(webhookSchema);
export const webhookAnswerSchema = resultsOf(webhookSchema);

export const webhookCreateSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.default(''),
  enabled: z.boolean().default(true),
});
export type WebhookCreate = z.input<typeof webhookCreateSchema>;

export const webhookUpdateSchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.optional(),
  enabled: z.boolean().optional().describe('Enabling a webhook disabled for failures starts its count again'),
});
export type WebhookUpdate = z.input<typeof webhookUpdateSchema>;

/** The answer of a creation and of a rotation: the webhook with its whole secret, this once. */
export const webhookWithSecretSchema = resultsOf(
  webhookSchema.extend({ secret: z.string().describe('whsec_…: shown this once') }),
);

export const webhookParamsSchema = z.object({ id: idTextSchema });
export const accountWebhooksQuerySchema = pageQuerySchema;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  messageId: z.string().describe('The webhook-id header: the same on every attempt of this delivery'),
  type: z.string().describe('The event, or ping'),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable().describe("The receiver's last HTTP status"),
  error: z.string().nullable().describe('Why the last attempt failed, when it did not answer'),
  durationMs: z.number().int().nullable().describe('How long the last attempt took'),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = collectionOf(webhookDeliverySchema);
export const webhookDeliveriesQuerySchema = pageQuerySchema.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

/** One delivery with what was sent and what came back (each cut at WEBHOOK_KEPT_BYTES). */
export const webhookDeliveryDetailSchema = resultsOf(
  webhookDeliverySchema.extend({
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.string(),
    responseHeaders: z.record(z.string(), z.string()).nullable(),
    responseBody: z.string().nullable(),
  }),
);
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>['results'];
export const webhookDeliveryAnswerSchema = resultsOf(webhookDeliverySchema);
export const webhookDeliveryParamsSchema = z.object({ id: idSchema });

/** Which file of a media a signed download link gives: its proxy, or its original when the cloud keeps it. */
export const DOWNLOAD_LINK_FILES = ['proxy', 'original'] as const;
export const signedDownloadQuerySchema = z.object({
  file: z.enum(DOWNLOAD_LINK_FILES).default('proxy'),
  expires: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 40)
    .describe('Unix time (s) after which the link stops'),
  signature: z.string().max(200),
});

import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@media/contract';
import { randomToken } from '../../platform/crypto.ts';

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks 1.0). */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/** How much of a secret lists show: the prefix and a few characters. */
export const secretPrefixOf = (secret: string) => secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4);

/** A delivery's id (the webhook-id header), the same on every attempt of it. */
export const newMessageId = () => `msg_${randomToken(18)}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` keyed with the secret's decoded bytes.
 */
export const signedHeaders = (secret: string, messageId: string, body: string, at = new Date()) => {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
};

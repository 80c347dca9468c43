import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Destination, PEER_TIMEOUT_MS } from './common.ts';

/** Header of a webhook's signature: `sha256=` and the HMAC-SHA256 of the body with the button's secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-media-cloud-signature';

/**
 * Webhook: tells another system what was published, as JSON (the node, the media's link, the file's size
 * and SHA-256), signed with HMAC-SHA256 of the body when the button has a secret. A refusal or no answer
 * fails the attempt, so the run is tried again with backoff.
 */
export const callWebhook: Destination = async (ctx, destination, file, delivery) => {
  const url = String(destination.options.url ?? '');
  const content = await fs.promises.readFile(file);
  const body = JSON.stringify({
    event: 'published',
    publishId: delivery.publishId,
    button: delivery.button,
    node: { path: delivery.nodePath, name: delivery.nodeName },
    media: { id: delivery.mediaId, link: `${ctx.config.publicUrl}/api/media/${delivery.mediaId}/content` },
    file: {
      name: `${delivery.nodeName}${path.extname(file)}`,
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    },
    time: new Date().toISOString(),
  });
  const secret = String(destination.options.secret ?? '');
  const answer = await fetch(url, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      ...(secret
        ? { [WEBHOOK_SIGNATURE_HEADER]: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }
        : {}),
    },
    signal: AbortSignal.any([delivery.signal, AbortSignal.timeout(PEER_TIMEOUT_MS)]),
  });
  if (!answer.ok) throw new Error(`The webhook ${url} answered ${answer.status}`);
  return url;
};

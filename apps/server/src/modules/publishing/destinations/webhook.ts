import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { DELIVERY_FAILURES, MSG_OUTBOUND_BAD_URL, msgOutboundScheme } from '@media/contract';
import { outboundGuard } from '../../../platform/outbound.ts';
import { downloadLinksExpireAt, signedDownloadUrl } from '../../nodes/download-links.ts';
import { type Destination, PEER_TIMEOUT_MS, PublishRefused } from './common.ts';
import { DeliveryFailed, deliveryFailure } from './failures.ts';

/** Header of a webhook's signature: `sha256=` and the HMAC-SHA256 of the body with the button's secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-media-cloud-signature';

/** Redirects a webhook follows: 307 and 308 (they keep the POST and its body), at most this many. */
const REDIRECT_STATUSES = new Set([307, 308]);
const MAX_REDIRECTS = 3;

/** An http or https address, else why not (refused at once: no retry mends it). */
export const webhookUrl = (value: string): URL => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PublishRefused(MSG_OUTBOUND_BAD_URL);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PublishRefused(msgOutboundScheme(url.protocol));
  return url;
};

/** One POST through the outbound guard's agents; answers the status and where a redirect points. */
const post = (
  url: URL,
  body: string,
  headers: Record<string, string>,
  agents: { http: http.Agent; https: https.Agent },
  signal: AbortSignal,
) =>
  new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        signal,
      },
      (response) => {
        // The receiver's body is not read into the log (issue 30 item 2): only its status counts.
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });

/**
 * Webhook: tells another system what was published, as JSON (the node, the media's link, the file's size
 * and SHA-256), signed with HMAC-SHA256 of the body when the button has a secret. Only http and https
 * addresses; every connection, and each 307/308 redirect, goes through the outbound guard. A refused
 * address fails the publish at once; a refusal or no answer of the receiver fails the attempt, so the run
 * is tried again with backoff.
 */
export const callWebhook: Destination = async (ctx, destination, file, delivery) => {
  const given = String(destination.options.url ?? '');
  let url = webhookUrl(given);
  const content = await fs.promises.readFile(file);
  const body = JSON.stringify({
    event: 'published',
    publishId: delivery.publishId,
    button: delivery.button,
    node: { path: delivery.nodePath, name: delivery.nodeName },
    // A link the receiver can use without a session: signed, for this media's proxy, for WEBHOOK_LINK_HOURS.
    media: {
      id: delivery.mediaId,
      link: signedDownloadUrl(ctx, delivery.mediaId, 'proxy', downloadLinksExpireAt(ctx)),
    },
    file: {
      name: `${delivery.nodeName}${path.extname(file)}`,
      size: content.length,
      sha256: createHash('sha256').update(content).digest('hex'),
    },
    time: new Date().toISOString(),
  });
  const secret = String(destination.options.secret ?? '');
  const headers = {
    'content-type': 'application/json',
    ...(secret
      ? { [WEBHOOK_SIGNATURE_HEADER]: `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }
      : {}),
  };
  const agents = outboundGuard(ctx.config, 'publishing').agents();
  const signal = AbortSignal.any([delivery.signal, AbortSignal.timeout(PEER_TIMEOUT_MS)]);
  try {
    for (let redirects = 0; ; redirects++) {
      const answer = await post(url, body, headers, agents, signal).catch((error: unknown) => {
        throw delivery.signal.aborted ? error : deliveryFailure(error, url.origin);
      });
      if (REDIRECT_STATUSES.has(answer.status) && answer.location && redirects < MAX_REDIRECTS) {
        url = webhookUrl(new URL(answer.location, url).toString());
        continue;
      }
      if (answer.status < 200 || answer.status >= 300)
        throw new DeliveryFailed(DELIVERY_FAILURES.answered(url.origin, answer.status));
      return given;
    }
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
};

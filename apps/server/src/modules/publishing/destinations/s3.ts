import fs from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { safeFolder, safeName } from '@media/media-tools';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { outboundGuard } from '../../../platform/outbound.ts';
import type { Destination } from './common.ts';
import { deliveryFailure } from './failures.ts';
import { webhookUrl } from './webhook.ts';

/**
 * S3 bucket: the file at {prefix}/{node name}.{ext} in the bucket, as one multipart upload that the store
 * shows only when complete (an existing key gets a ' (2)' name, never overwritten).
 */
export const uploadToS3: Destination = async (ctx, destination, file, delivery) => {
  const option = (name: string) => String(destination.options[name] ?? '').trim();
  const endpoint = option('endpoint') || undefined;
  const shown = endpoint ? endpointOf(endpoint).origin : `s3://${option('bucket')}`;
  // Every connection, to AWS or a custom endpoint, goes to an address the outbound guard checked.
  const agents = outboundGuard(ctx.config, 'publishing').agents();
  const client = new S3Client({
    region: option('region') || 'us-east-1',
    endpoint,
    forcePathStyle: endpoint !== undefined,
    credentials: { accessKeyId: option('accessKeyId'), secretAccessKey: option('secretAccessKey') },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    requestHandler: new NodeHttpHandler({ httpAgent: agents.http, httpsAgent: agents.https }),
  });
  try {
    return await put(client, option, file, delivery);
  } catch (error) {
    throw delivery.signal.aborted ? error : deliveryFailure(error, shown);
  } finally {
    client.destroy();
    agents.http.destroy();
    agents.https.destroy();
  }
};

/** The S3 endpoint option as an http or https address (refused at once otherwise). */
export const endpointOf = (endpoint: string) => webhookUrl(endpoint);

/** The file under a free key of the bucket: {prefix}/{name}.{ext}, or '{name} (2).{ext}' … when taken. */
const put = async (
  client: S3Client,
  option: (name: string) => string,
  file: string,
  delivery: Parameters<Destination>[3],
) => {
  const bucket = option('bucket');
  const prefix = safeFolder(option('prefix')).join('/');
  const name = safeName(delivery.nodeName);
  const extension = path.extname(file);
  let key = '';
  for (let attempt = 1; ; attempt++) {
    key = `${prefix ? `${prefix}/` : ''}${name}${attempt === 1 ? '' : ` (${attempt})`}${extension}`;
    const exists = await client
      .send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: delivery.signal })
      .then(
        () => true,
        (error: { $metadata?: { httpStatusCode?: number } }) => {
          if (error.$metadata?.httpStatusCode === 404) return false;
          throw error;
        },
      );
    if (!exists) break;
  }
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: fs.createReadStream(file) },
    abortController: abortControllerOf(delivery.signal),
  });
  await upload.done();
  return `s3://${bucket}/${key}`;
};

/** An AbortController that follows a signal (lib-storage takes a controller, not a signal). */
const abortControllerOf = (signal: AbortSignal) => {
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
};

import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type Phase, PUBLISH_RUN_MESSAGES, type PublishOutput, publishModule } from '@media/contract';
import { Client as FtpClient } from 'basic-ftp';
import type { AppContext } from '../../platform/context.ts';

/** A failure no retry can mend: the run ends failed at once with this reason. */
export class PublishRefused extends Error {}

/** Header of a webhook's signature: `sha256=` and the HMAC-SHA256 of the body with the button's secret. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-media-cloud-signature';
/** A webhook or FTP server that does not answer in this time is tried again later (the job's retries). */
const WEBHOOK_TIMEOUT_MS = 10_000;

type NetworkNode = Phase['phase']['network']['nodes'][number];
type Delivery = {
  accountName: string;
  nodeName: string;
  nodePath: string;
  publishId: number;
  button: { id: number; name: string };
  mediaId: number;
  signal: AbortSignal;
};

/** A file or folder name from what a person typed: no separators, control or reserved characters. */
const RESERVED = '/\\<>:"|?*';
const safeName = (name: string) =>
  [...name]
    .map((character) => (character.charCodeAt(0) < 32 || RESERVED.includes(character) ? '_' : character))
    .join('')
    .trim() || '_';
const safeFolder = (folder: string) =>
  folder
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map(safeName);

/** `name.ext`, or `name (2).ext` … when taken: an export never overwrites an earlier one. */
const freeFile = async (folder: string, name: string, extension: string) => {
  for (let attempt = 1; ; attempt++) {
    const file = path.join(folder, `${name}${attempt === 1 ? '' : ` (${attempt})`}${extension}`);
    if (!(await fs.promises.stat(file).catch(() => undefined))) return file;
  }
};

/** Export to folder: the file under DATA_DIR/exports/{account}/{folder}, complete or not at all. */
const exportToFolder = async (
  ctx: AppContext,
  destination: NetworkNode,
  file: string,
  delivery: Delivery,
) => {
  const folder = path.join(
    ctx.config.dataDir,
    'exports',
    safeName(delivery.accountName),
    ...safeFolder(String(destination.options.folder ?? '')),
  );
  await fs.promises.mkdir(folder, { recursive: true });
  const target = await freeFile(folder, safeName(delivery.nodeName), path.extname(file) || '.mp4');
  // Copied beside, then renamed: the export appears only when complete.
  const partial = `${target}.part`;
  await fs.promises.copyFile(file, partial);
  await fs.promises.rename(partial, target);
  return path.relative(ctx.config.dataDir, target);
};

/**
 * Webhook: tells another system what was published, as JSON (the node, the media's link, the file's size
 * and SHA-256), signed with HMAC-SHA256 of the body when the button has a secret. A refusal or no answer
 * fails the attempt, so the run is tried again with backoff.
 */
const callWebhook = async (ctx: AppContext, destination: NetworkNode, file: string, delivery: Delivery) => {
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
    signal: AbortSignal.any([delivery.signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
  });
  if (!answer.ok) throw new Error(`The webhook ${url} answered ${answer.status}`);
  return url;
};

/** "host" or "host:port" of the FTP module's Host option (21 when none). */
export const ftpAddress = (host: string) => {
  const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(host.trim());
  return { host: match?.[1] ?? host.trim(), port: match?.[2] ? Number(match[2]) : 21 };
};

/**
 * FTP upload: the file into the Directory option on the server (made when missing), under the node's name;
 * written to a temporary name and renamed, so the other side never reads half a file. A failure is retried.
 */
const uploadByFtp = async (_ctx: AppContext, destination: NetworkNode, file: string, delivery: Delivery) => {
  const { host, port } = ftpAddress(String(destination.options.host ?? ''));
  const directory = `/${safeFolder(String(destination.options.directory ?? '/')).join('/')}`;
  const name = `${safeName(delivery.nodeName)}${path.extname(file)}`;
  const client = new FtpClient(WEBHOOK_TIMEOUT_MS);
  const abort = () => client.close();
  delivery.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.access({
      host,
      port,
      user: String(destination.options.username ?? ''),
      password: String(destination.options.password ?? ''),
    });
    await client.ensureDir(directory);
    await client.uploadFrom(file, `${name}.part`);
    await client.rename(`${name}.part`, name);
    return `ftp://${host}:${port}${directory === '/' ? '' : directory}/${name}`;
  } finally {
    delivery.signal.removeEventListener('abort', abort);
    client.close();
  }
};

/**
 * S3 bucket: the file at {prefix}/{node name}.{ext} in the bucket, as one multipart upload that the store
 * shows only when complete (an existing key gets a ' (2)' name, never overwritten).
 */
const uploadToS3 = async (_ctx: AppContext, destination: NetworkNode, file: string, delivery: Delivery) => {
  const option = (name: string) => String(destination.options[name] ?? '').trim();
  const endpoint = option('endpoint') || undefined;
  const client = new S3Client({
    region: option('region') || 'us-east-1',
    endpoint,
    forcePathStyle: endpoint !== undefined,
    credentials: { accessKeyId: option('accessKeyId'), secretAccessKey: option('secretAccessKey') },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  try {
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
  } finally {
    client.destroy();
  }
};

/** An AbortController that follows a signal (lib-storage takes a controller, not a signal). */
const abortControllerOf = (signal: AbortSignal) => {
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
};

const DESTINATIONS: Record<
  string,
  (ctx: AppContext, destination: NetworkNode, file: string, delivery: Delivery) => Promise<string>
> = { 'folder-export': exportToFolder, webhook: callWebhook, ftp: uploadByFtp, s3: uploadToS3 };

/** The destination module puts the file where it says; answers where. */
export const deliver = async (
  ctx: AppContext,
  destination: NetworkNode,
  file: string,
  delivery: Delivery,
): Promise<PublishOutput> => {
  const run = DESTINATIONS[destination.moduleId];
  if (!run)
    throw new PublishRefused(
      PUBLISH_RUN_MESSAGES.cannotRunYet(publishModule(destination.moduleId)?.name ?? destination.moduleId),
    );
  return { moduleId: destination.moduleId, location: await run(ctx, destination, file, delivery) };
};

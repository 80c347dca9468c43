import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { AgentEndpoint } from '@media/contract';
import { downloadTo, folderPrefix, reasonOf, wantedBy } from './remote.ts';
import type { EndpointHealth, FileSource, SourceFile } from './source.ts';

const option = (endpoint: AgentEndpoint, name: string) => {
  const value = endpoint.options[name];
  return typeof value === 'string' ? value.trim() : '';
};

const statusOf = (error: unknown) =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

/**
 * S3Endpoint: the objects of a bucket under a key prefix, in AWS S3 or any S3-compatible store (the endpoint
 * URL option: MinIO, Ceph, s3rver). Files are downloaded for ffmpeg; the keys' folders are the prefix's.
 */
export const openS3Source = (endpoint: AgentEndpoint): FileSource | { error: string } => {
  const bucket = option(endpoint, 'bucket');
  if (!bucket) return { error: 'The bucket is not set' };
  const url = option(endpoint, 'endpoint');
  if (url && !/^https?:\/\/[^/]+/i.test(url))
    return { error: `The endpoint URL ${url} is not an http(s) address` };
  const accessKeyId = option(endpoint, 'accessKeyId');
  const secretAccessKey = option(endpoint, 'secretAccessKey');
  const client = new S3Client({
    region: option(endpoint, 'region') || 'us-east-1',
    endpoint: url || undefined,
    forcePathStyle: url !== '',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
  });
  const prefix = folderPrefix(endpoint.options.prefix);
  const where = `s3://${bucket}/${prefix}`;
  const keyOf = (relativePath: string) => {
    if (relativePath.split('/').some((part) => part === '..' || part === ''))
      throw new Error('Not a file path');
    return `${prefix}${relativePath}`;
  };

  return {
    list: async ({ recursive, mask, limit }) => {
      const wanted = wantedBy(mask);
      const found: SourceFile[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            Delimiter: recursive ? undefined : '/',
            ContinuationToken: token,
          }),
        );
        for (const object of page.Contents ?? []) {
          const relativePath = (object.Key ?? '').slice(prefix.length);
          if (found.length < limit && wanted(relativePath))
            found.push({
              relativePath,
              size: object.Size ?? 0,
              mtimeMs: object.LastModified?.getTime() ?? 0,
            });
        }
        token = page.IsTruncated && found.length < limit ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
    },
    exists: async (relativePath) => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(relativePath) }));
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    },
    fetch: async (relativePath, options) => {
      let body: Readable;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(relativePath) }), {
          abortSignal: options.signal,
        });
        body = answer.Body as Readable;
      } catch (error) {
        if (statusOf(error) === 404) return undefined;
        throw error;
      }
      return downloadTo(body, { ...options, relativePath });
    },
    probeInput: async () => undefined,
    health: async (): Promise<EndpointHealth> => {
      try {
        await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1 }));
        return { online: true, status: 'ok', message: `Reading ${where}` };
      } catch (error) {
        const status = statusOf(error);
        const message =
          status === 404
            ? `Bucket ${bucket} does not exist`
            : status === 403
              ? `Access to ${where} is refused: check the access key and secret`
              : `${where} ${reasonOf(error)}`;
        return { online: false, status: 'error', message };
      }
    },
    close: async () => {
      client.destroy();
    },
  };
};

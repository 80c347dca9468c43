import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config.ts';
import { randomToken } from '../crypto.ts';
import { type ByteRange, isSafeKey, type StorageDriver } from './media-storage.ts';

type S3Settings = Extract<Config['storage'], { driver: 's3' }>;

/** 8 MiB parts, four at a time: S3's 5 MiB minimum with room, and memory bounded to ~32 MiB per upload. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 4;

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404);

/** A missing object rejects like a missing local file, so callers handle both drivers alike. */
const notFoundError = (key: string) =>
  Object.assign(new Error(`No stored object ${JSON.stringify(key)}`), { code: 'ENOENT' });

/** Counts what passes, for the stored size of a stream (S3 answers no size for a multipart upload). */
const counted = (stream: Readable) => {
  let size = 0;
  const counter = new PassThrough();
  counter.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  stream.on('error', (error) => counter.destroy(error));
  stream.pipe(counter);
  return { body: counter, size: () => size };
};

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, Ceph, s3rver) under the configured prefix. Writes are
 * multipart uploads (@aws-sdk/lib-storage) that S3 makes visible only when they complete, and aborts on
 * failure, so a key never names half a file; reads are ranged GETs.
 */
export const createS3Storage = async (
  settings: S3Settings,
  options: { tmpDir: string },
): Promise<StorageDriver> => {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Self-hosted stores (MinIO, s3rver) answer on one host name; AWS itself takes virtual-hosted names.
    forcePathStyle: settings.endpoint !== undefined,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: several S3-compatible stores do not read the trailing ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const keyOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return `${settings.prefix}${key}`;
  };

  // A start against a bucket that is not there or not ours fails now, saying which, not at the first upload.
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    client.destroy();
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    const reason =
      status === 404
        ? 'the bucket does not exist'
        : status === 403
          ? 'access is refused (check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)'
          : `the store is not reachable (${(error as Error).message})`;
    throw new Error(`STORAGE_URL=s3://${Bucket}/${settings.prefix}: ${reason}`);
  }

  const upload = async (key: string, body: Readable, contentType: string | undefined) => {
    const { body: counting, size } = counted(body);
    await new Upload({
      client,
      params: { Bucket, Key: keyOf(key), Body: counting, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    }).done();
    return { size: size() };
  };

  const read = async (key: string, range?: ByteRange) => {
    try {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      throw isMissing(error) ? notFoundError(key) : error;
    }
  };

  return {
    driver: 's3',
    putFile: async (key, localPath, putOptions) => {
      const stored = await upload(key, fs.createReadStream(localPath), putOptions?.contentType);
      await fs.promises.rm(localPath, { force: true });
      return stored;
    },
    putStream: (key, stream, putOptions) => upload(key, stream, putOptions?.contentType),
    stat: async (key) => {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { size: head.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    read,
    localCopy: async (key) => {
      await fs.promises.mkdir(options.tmpDir, { recursive: true });
      const file = path.join(options.tmpDir, `${randomToken(16)}${path.extname(key)}.part`);
      try {
        await pipeline(await read(key), fs.createWriteStream(file, { flags: 'wx' }));
      } catch (error) {
        await fs.promises.rm(file, { force: true });
        throw error;
      }
      return { path: file, release: () => fs.promises.rm(file, { force: true }) };
    },
    remove: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    close: async () => {
      client.destroy();
    },
  };
};

import type { Config } from '../config.ts';
import type { MediaStorage } from './media-storage.ts';

type S3Settings = Extract<Config['storage'], { driver: 's3' }>;

/**
 * Objects in an S3-compatible bucket (multipart uploads through @aws-sdk/lib-storage, ranged GETs): not built
 * yet. A start with STORAGE_URL set stops with this message rather than pretend to store media in a bucket.
 */
export const createS3Storage = (settings: S3Settings, _options: { tmpDir: string }): MediaStorage => {
  throw new Error(
    `STORAGE_URL=s3://${settings.bucket}/${settings.prefix}: storing media in an S3 bucket is not available yet; unset STORAGE_URL to keep media under DATA_DIR`,
  );
};

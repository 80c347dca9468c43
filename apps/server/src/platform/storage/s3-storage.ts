import type { Config } from '../config.ts';
import type { MediaStorage } from './media-storage.ts';

type S3Settings = Extract<Config['storage'], { driver: 's3' }>;

/** Objects in an S3-compatible bucket (multipart uploads through @aws-sdk/lib-storage, ranged GETs). */
export const createS3Storage = (_settings: S3Settings, _options: { tmpDir: string }): MediaStorage => {
  throw new Error('The S3 storage driver is being built');
};

import type { Config } from '../config.ts';
import { createLocalStorage } from './local-storage.ts';
import type { MediaStorage } from './media-storage.ts';

export type { ByteRange, MediaStorage } from './media-storage.ts';
export { isSafeKey } from './media-storage.ts';

/** The storage the config names: DATA_DIR (keys under `media/`) or an S3-compatible bucket. */
export const createStorage = async (config: Config): Promise<MediaStorage> => {
  if (config.storage.driver === 'local') return createLocalStorage(config.dataDir);
  // Loaded only when used: the AWS SDK is large.
  const { createS3Storage } = await import('./s3-storage.ts');
  return createS3Storage(config.storage, { tmpDir: `${config.dataDir}/tmp` });
};

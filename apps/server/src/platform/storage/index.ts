import type { Config } from '../config.ts';
import { type StorageFault, storageFaultReporter } from './faults.ts';
import { createLocalStorage } from './local-storage.ts';
import type { MediaStorage, StorageDriver } from './media-storage.ts';

export type { StorageFault } from './faults.ts';
export type { ByteRange, MediaStorage } from './media-storage.ts';
export { isSafeKey } from './media-storage.ts';

/**
 * The driver with its writes' faults handled in one place (storage/faults.ts): a full or unwritable storage
 * answers 507 or 503 with a message a person can act on, and `onFault` hears of it (to log and alert).
 */
const withFaultHandling = (
  driver: StorageDriver,
  onFault: (fault: StorageFault, alert: boolean) => void,
): MediaStorage => {
  const failedWrite = storageFaultReporter(onFault);
  const guarded =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    (...args: A) =>
      write(...args).catch((error: unknown) => {
        throw failedWrite(error);
      });
  return {
    driver: driver.driver,
    putFile: guarded(driver.putFile),
    putStream: guarded(driver.putStream),
    stat: driver.stat,
    read: driver.read,
    localCopy: driver.localCopy,
    remove: guarded(driver.remove),
    close: driver.close,
    failedWrite,
  };
};

/** The storage the config names: DATA_DIR (keys under `media/`) or an S3-compatible bucket. */
export const createStorage = async (
  config: Config,
  options: { onFault?: (fault: StorageFault, alert: boolean) => void } = {},
): Promise<MediaStorage> => {
  const onFault = options.onFault ?? (() => undefined);
  if (config.storage.driver === 'local')
    return withFaultHandling(createLocalStorage(config.dataDir), onFault);
  // Loaded only when used: the AWS SDK is large.
  const { createS3Storage } = await import('./s3-storage.ts');
  return withFaultHandling(
    await createS3Storage(config.storage, { tmpDir: `${config.dataDir}/tmp` }),
    onFault,
  );
};

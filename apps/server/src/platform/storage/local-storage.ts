import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../crypto.ts';
import { type ByteRange, isSafeKey, type StorageDriver } from './media-storage.ts';

const exists = (file: string) =>
  fs.promises.stat(file).then(
    () => true,
    () => false,
  );

/**
 * `mkdir -p` that fails with the real reason: Node's recursive mkdir answers ENOENT where the file system is
 * read-only (or refuses for another reason), so the first missing folder is made alone to learn why.
 */
export const makeDirectory = async (dir: string) => {
  try {
    await fs.promises.mkdir(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    let missing = dir;
    while (!(await exists(path.dirname(missing)))) {
      if (path.dirname(missing) === missing) throw error;
      missing = path.dirname(missing);
    }
    await fs.promises.mkdir(missing).catch((reason: NodeJS.ErrnoException) => {
      if (reason.code !== 'EEXIST') throw reason;
    });
    // Made after all (a folder removed and made again meanwhile): the whole path once more.
    await fs.promises.mkdir(dir, { recursive: true });
  }
};

/**
 * Objects as files under `root` (DATA_DIR). Writes go to DATA_DIR/tmp (removed at start when a killed
 * server left them) and are renamed into place, so a key never names a half file.
 */
export const createLocalStorage = (root: string): StorageDriver => {
  const base = path.resolve(root);
  const tmpDir = path.join(base, 'tmp');
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return path.join(base, ...key.split('/'));
  };
  const moveIntoPlace = async (from: string, key: string) => {
    const target = fileOf(key);
    await makeDirectory(path.dirname(target));
    try {
      await fs.promises.rename(from, target);
    } catch (error) {
      // Another file system (a temporary file from elsewhere): copy to a temporary name beside it, then rename.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const beside = `${target}.${randomToken(6)}.part`;
      try {
        await fs.promises.copyFile(from, beside);
        await fs.promises.rename(beside, target);
      } catch (copyError) {
        // A disk that filled up during the copy keeps no half file.
        await fs.promises.rm(beside, { force: true }).catch(() => undefined);
        throw copyError;
      }
      await fs.promises.rm(from, { force: true });
    }
    return { size: (await fs.promises.stat(target)).size };
  };
  return {
    driver: 'local',
    putFile: (key, localPath) => moveIntoPlace(localPath, key),
    putStream: async (key: string, stream: Readable) => {
      fileOf(key);
      await makeDirectory(tmpDir);
      const temp = path.join(tmpDir, `${randomToken(16)}.part`);
      try {
        await pipeline(stream, fs.createWriteStream(temp, { flags: 'wx' }));
        return await moveIntoPlace(temp, key);
      } catch (error) {
        await fs.promises.rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    },
    stat: async (key) => {
      const stat = await fs.promises.stat(fileOf(key)).catch(() => undefined);
      return stat?.isFile() ? { size: stat.size } : undefined;
    },
    read: async (key, range?: ByteRange) => {
      const file = fileOf(key);
      // Open first, so a missing file rejects here rather than on the stream.
      const handle = await fs.promises.open(file, 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    localCopy: async (key) => {
      const file = fileOf(key);
      await fs.promises.access(file, fs.constants.R_OK);
      return { path: file, release: async () => {} };
    },
    remove: async (key) => {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    close: async () => {},
  };
};

import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../crypto.ts';
import { type ByteRange, isSafeKey, type MediaStorage } from './media-storage.ts';

/**
 * Objects as files under `root` (DATA_DIR). Writes go to DATA_DIR/tmp (removed at start when a killed
 * server left them) and are renamed into place, so a key never names a half file.
 */
export const createLocalStorage = (root: string): MediaStorage => {
  const base = path.resolve(root);
  const tmpDir = path.join(base, 'tmp');
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return path.join(base, ...key.split('/'));
  };
  const moveIntoPlace = async (from: string, key: string) => {
    const target = fileOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.promises.rename(from, target);
    } catch (error) {
      // Another file system (a temporary file from elsewhere): copy to a temporary name beside it, then rename.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const beside = `${target}.${randomToken(6)}.part`;
      await fs.promises.copyFile(from, beside);
      await fs.promises.rename(beside, target);
      await fs.promises.rm(from, { force: true });
    }
    return { size: (await fs.promises.stat(target)).size };
  };
  return {
    driver: 'local',
    putFile: (key, localPath) => moveIntoPlace(localPath, key),
    putStream: async (key: string, stream: Readable) => {
      fileOf(key);
      await fs.promises.mkdir(tmpDir, { recursive: true });
      const temp = path.join(tmpDir, `${randomToken(16)}.part`);
      try {
        await pipeline(stream, fs.createWriteStream(temp, { flags: 'wx' }));
        return await moveIntoPlace(temp, key);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
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

import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from './crypto.ts';

/** A file name that is safe in any file system, keeping its extension readable. */
const safeFileName = (name: string) =>
  path
    .basename(name)
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-120) || 'file';

/**
 * Streams into a temporary file under DATA_DIR/tmp and moves it into DATA_DIR/{folder} only when it is
 * complete, so a killed server never leaves half a file where stored files live (DESIGN.md).
 * `check` runs on the complete temporary file; throwing there discards it.
 */
export const storeStream = async (options: {
  dataDir: string;
  folder: string;
  fileName: string;
  stream: Readable;
  check?: (tempPath: string) => void | Promise<void>;
}) => {
  const tmpDir = path.join(options.dataDir, 'tmp');
  await fs.promises.mkdir(tmpDir, { recursive: true });
  const tempPath = path.join(tmpDir, `${randomToken(16)}.part`);
  try {
    await pipeline(options.stream, fs.createWriteStream(tempPath, { flags: 'wx' }));
    await options.check?.(tempPath);
    const relativePath = path.join(options.folder, `${randomToken(9)}-${safeFileName(options.fileName)}`);
    const finalPath = path.join(options.dataDir, relativePath);
    await fs.promises.mkdir(path.dirname(finalPath), { recursive: true });
    await fs.promises.rename(tempPath, finalPath);
    const { size } = await fs.promises.stat(finalPath);
    return { relativePath, size, remove: () => fs.promises.rm(finalPath, { force: true }) };
  } catch (error) {
    await fs.promises.rm(tempPath, { force: true });
    throw error;
  }
};

import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from './crypto.ts';
import { isSafeKey, type MediaStorage } from './storage/index.ts';
import { makeDirectory } from './storage/local-storage.ts';

/** A file name that is safe in any file system, keeping its extension readable. */
const safeFileName = (name: string) =>
  path
    .basename(name)
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-120) || 'file';

/** Where uploads stream before they are complete: DATA_DIR/tmp, files named `{random}.part`. */
const tempDirOf = (dataDir: string) => path.join(dataDir, 'tmp');
const TEMP_SUFFIX = '.part';
/** On a DATA_DIR shared by instances, a temporary file untouched this long belongs to no running upload. */
export const SHARED_TEMP_IDLE_MS = 60 * 60_000;

/**
 * Removes the temporary files of uploads that a killed server left behind (DESIGN "Persistence and faults"),
 * at start. Only `.part` files of DATA_DIR/tmp last written more than `idleMs` ago go: with the embedded
 * database this process owns DATA_DIR (it holds its lock), so every one is left over (idleMs 0); instances
 * on PostgreSQL may share a DATA_DIR, and a running upload of another one writes its file continually, so
 * they remove only files idle for a while. Answers how many were removed.
 */
export const removeInterruptedUploads = async (dataDir: string, options: { idleMs: number }) => {
  const tmpDir = tempDirOf(dataDir);
  const names = await fs.promises.readdir(tmpDir).catch(() => [] as string[]);
  const idleSince = Date.now() - options.idleMs;
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(TEMP_SUFFIX)) continue;
    const file = path.join(tmpDir, name);
    const stat = await fs.promises.lstat(file).catch(() => undefined);
    if (!stat?.isFile() || (options.idleMs > 0 && stat.mtimeMs > idleSince)) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
};

/** The media storage with the DATA_DIR whose `tmp` folder holds files until they are complete. */
export type FileStore = { storage: MediaStorage; dataDir: string };

/**
 * Streams into a temporary file under DATA_DIR/tmp and hands it to the media storage only when it is
 * complete, so a killed server never leaves half a file where stored files live (DESIGN.md). `check` runs
 * on the complete temporary file; throwing there discards it. Answers the storage key (`relativePath`). A
 * storage that is full or cannot be written fails it with a StorageFault (storage/faults.ts), leaving nothing.
 */
export const storeStream = async (options: {
  storage: MediaStorage;
  dataDir: string;
  folder: string;
  fileName: string;
  stream: Readable;
  contentType?: string;
  check?: (tempPath: string) => void | Promise<void>;
}) => {
  const tmpDir = tempDirOf(options.dataDir);
  const tempPath = path.join(tmpDir, `${randomToken(16)}${TEMP_SUFFIX}`);
  try {
    await makeDirectory(tmpDir);
    await pipeline(options.stream, fs.createWriteStream(tempPath, { flags: 'wx' }));
    await options.check?.(tempPath);
    const relativePath = `${options.folder}/${randomToken(9)}-${safeFileName(options.fileName)}`;
    const { size } = await options.storage.putFile(relativePath, tempPath, {
      contentType: options.contentType,
    });
    return { relativePath, size, remove: () => options.storage.remove(relativePath) };
  } catch (error) {
    await fs.promises.rm(tempPath, { force: true }).catch(() => undefined);
    // A full or unwritable DATA_DIR/tmp or storage answers 507 or 503 and alerts the administrators.
    throw options.storage.failedWrite(error);
  }
};

/** A stored object's bytes (a thumbnail, an icon), or undefined when there is none. */
export const readStored = async (storage: MediaStorage, key: string) => {
  if (!isSafeKey(key)) return undefined;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
};

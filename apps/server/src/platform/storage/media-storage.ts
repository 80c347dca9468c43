import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of an object, both included (as in an HTTP Range). */
export type ByteRange = { start: number; end: number };

/**
 * Where media files live (DESIGN "Media: assets, renditions, storage"): a key names an object, such as
 * `media/accounts/12/items/340/proxy-k3j2.mp4`; rows store keys, never paths. An object becomes visible only
 * once it is complete (a local file is moved into place, an S3 multipart upload completes), so a row written
 * after `put*` answered never points at a missing or half file.
 */
export interface MediaStorage {
  readonly driver: 'local' | 's3';
  /**
   * Stores a complete local file under `key` and consumes it (moved on the local disk, uploaded and then
   * removed for S3). Answers the stored size.
   */
  putFile(key: string, localPath: string, options?: { contentType?: string }): Promise<{ size: number }>;
  /** Stores a stream under `key`; nothing is visible under the key unless the whole stream was stored. */
  putStream(key: string, stream: Readable, options?: { contentType?: string }): Promise<{ size: number }>;
  /** The object's size, or undefined when there is no such object. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** The object's bytes (all, or one range); rejects with a NotFound-like error when it is missing. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A local file holding the object, for tools that need a path (ffmpeg): the file itself on the local
   * disk, a temporary download for S3; `release` removes what was downloaded.
   */
  localCopy(key: string): Promise<{ path: string; release: () => Promise<void> }>;
  /** Removes the object; a missing object is not an error. */
  remove(key: string): Promise<void>;
  close(): Promise<void>;
  /**
   * What a failed write throws: a fault of the storage itself (full, cannot be written) becomes a
   * StorageFault (507 or 503, with a message a person can act on) and alerts the administrators; anything
   * else is answered as it is. The storage's own writes (putFile, putStream, remove) do it already; the
   * writers of DATA_DIR/tmp and DATA_DIR/tus, where files wait until complete, call it.
   */
  failedWrite(error: unknown): unknown;
}

/** What a driver implements: the storage (createStorage) adds the handling of failed writes. */
export type StorageDriver = Omit<MediaStorage, 'failedWrite'>;

/** A key is `/`-separated segments of safe characters: never absolute, never `..`, never empty. */
export const isSafeKey = (key: string) =>
  key.length > 0 &&
  key.length <= 900 &&
  !key.startsWith('/') &&
  key.split('/').every((segment) => /^[\w.-]+$/.test(segment) && segment !== '.' && segment !== '..');

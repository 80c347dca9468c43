import fs from 'node:fs';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileMaskMatcher, isIgnoredName } from '../scanner.ts';

/** Whether a remote file is one the endpoint takes: not a partial or system file, and matching the mask. */
export const wantedBy = (mask: string) => {
  const matches = fileMaskMatcher(mask);
  return (relativePath: string) => {
    const name = relativePath.split('/').pop() ?? '';
    return name !== '' && !isIgnoredName(name) && matches(name);
  };
};

/** A key prefix as a folder: '' or ending with '/', without a leading '/'. */
export const folderPrefix = (prefix: unknown) => {
  const trimmed = typeof prefix === 'string' ? prefix.trim().replace(/^\/+/, '') : '';
  return trimmed === '' || trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
};

/**
 * Writes a remote file's bytes into `tempDir` (counting them for progress) and answers the local copy; a
 * failed or aborted download leaves nothing. The copy keeps the file's extension for ffmpeg.
 */
export const downloadTo = async (
  body: Readable,
  options: {
    tempDir: string;
    relativePath: string;
    signal: AbortSignal;
    onProgress?: (bytes: number) => void;
  },
) => {
  await fs.promises.mkdir(options.tempDir, { recursive: true });
  const file = path.join(
    options.tempDir,
    `download-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${path.extname(options.relativePath)}`,
  );
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      options.onProgress?.(bytes);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, fs.createWriteStream(file), { signal: options.signal });
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  return { path: file, release: () => fs.promises.rm(file, { force: true }) };
};

/**
 * A message for a failed remote call that never repeats a secret: the error's own text, with any SAS
 * signature or credential in a URL it quotes blanked out.
 */
export const reasonOf = (error: unknown) => {
  const e = error as { name?: string; message?: string; code?: string };
  const text =
    e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND' || e.code === 'ETIMEDOUT'
      ? `cannot be reached (${e.code})`
      : (e.message ?? e.name ?? String(error));
  return text.replace(/\b(sig|X-Amz-Signature|X-Amz-Credential)=[^&\s]+/gi, '$1=…').split('\n')[0] ?? '';
};

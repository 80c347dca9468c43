import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** SHA-256 of a file's content, hex; read as a stream (any size). */
export const contentHash = async (file: string, options: { signal?: AbortSignal } = {}): Promise<string> => {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { signal: options.signal }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
};

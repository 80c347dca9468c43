import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes `output` through a temporary name beside it, renamed only when `write` succeeded: a reader never
 * sees half a file, and a failure or abort leaves nothing.
 */
export const writeAtomically = async (
  output: string,
  extension: string,
  write: (temp: string) => Promise<void>,
) => {
  const temp = path.join(
    path.dirname(output),
    `.${path.basename(output)}.${randomBytes(4).toString('hex')}.part${extension}`,
  );
  try {
    await write(temp);
    await fs.promises.rename(temp, output);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
};

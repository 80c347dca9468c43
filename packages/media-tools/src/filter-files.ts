import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filterPath } from './publish.ts';

/**
 * A file an ffmpeg filter names (drawtext's text, the subtitles), under a fresh folder of the system's
 * temporary directory with a fixed plain name: whatever the work folder or the original file is called, the
 * filter graph reads no syntax from the path. `write` puts the content there; `remove` takes the folder away.
 */
export const filterFile = async (name: string, write: (file: string) => Promise<void>) => {
  const folder = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'media-filter-'));
  const file = path.join(folder, name);
  const remove = () => fs.promises.rm(folder, { recursive: true, force: true });
  try {
    await write(file);
    return { path: filterPath(file), remove };
  } catch (error) {
    await remove();
    throw error;
  }
};

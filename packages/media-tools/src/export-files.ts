import fs from 'node:fs';
import path from 'node:path';

// The names a publish gives its results (DESIGN "Publishing"): one copy for the cloud's destinations and the
// edge agent's folder export.

/** A file or folder name from what a person typed: no separators, control or reserved characters. */
const RESERVED = '/\\<>:"|?*';
export const safeName = (name: string) =>
  [...name]
    .map((character) => (character.charCodeAt(0) < 32 || RESERVED.includes(character) ? '_' : character))
    .join('')
    .trim() || '_';

/** A folder a person typed as safe segments: never absolute, never climbing out ('..' and '.' dropped). */
export const safeFolder = (folder: string) =>
  folder
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map(safeName);

/** `name.ext`, or `name (2).ext` … when taken: an export never overwrites an earlier one. */
export const freeFile = async (folder: string, name: string, extension: string) => {
  for (let attempt = 1; ; attempt++) {
    const file = path.join(folder, `${name}${attempt === 1 ? '' : ` (${attempt})`}${extension}`);
    if (!(await fs.promises.stat(file).catch(() => undefined))) return file;
  }
};

/**
 * Copies `file` into `folder` (made when missing) as `name` with the file's extension, under a free name;
 * copied beside as `.part`, then renamed, so the export appears only when complete. Answers its path.
 */
export const exportIntoFolder = async (file: string, folder: string, name: string) => {
  await fs.promises.mkdir(folder, { recursive: true });
  const target = await freeFile(folder, safeName(name), path.extname(file) || '.mp4');
  const partial = `${target}.part`;
  try {
    await fs.promises.copyFile(file, partial);
    await fs.promises.rename(partial, target);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return target;
};

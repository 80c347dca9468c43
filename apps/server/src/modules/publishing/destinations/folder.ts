import fs from 'node:fs';
import path from 'node:path';
import { type Destination, freeFile, safeFolder, safeName } from './common.ts';

/** Export to folder: the file under DATA_DIR/exports/{account}/{folder}, complete or not at all. */
export const exportToFolder: Destination = async (ctx, destination, file, delivery) => {
  const folder = path.join(
    ctx.config.dataDir,
    'exports',
    safeName(delivery.accountName),
    ...safeFolder(String(destination.options.folder ?? '')),
  );
  await fs.promises.mkdir(folder, { recursive: true });
  const target = await freeFile(folder, safeName(delivery.nodeName), path.extname(file) || '.mp4');
  // Copied beside, then renamed: the export appears only when complete.
  const partial = `${target}.part`;
  await fs.promises.copyFile(file, partial);
  await fs.promises.rename(partial, target);
  return path.relative(ctx.config.dataDir, target);
};

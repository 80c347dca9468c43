import path from 'node:path';
import { exportIntoFolder, safeFolder, safeName } from '@media/media-tools';
import type { Destination } from './common.ts';

/** Export to folder: the file under DATA_DIR/exports/{account}/{folder}, complete or not at all. */
export const exportToFolder: Destination = async (ctx, destination, file, delivery) => {
  const folder = path.join(
    ctx.config.dataDir,
    'exports',
    safeName(delivery.accountName),
    ...safeFolder(String(destination.options.folder ?? '')),
  );
  const target = await exportIntoFolder(file, folder, delivery.nodeName);
  return path.relative(ctx.config.dataDir, target);
};

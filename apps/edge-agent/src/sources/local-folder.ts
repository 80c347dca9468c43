import fs from 'node:fs';
import path from 'node:path';
import type { AgentEndpoint } from '@media/contract';
import { isInsideRoots, listFiles } from '../scanner.ts';
import type { EndpointHealth, FileSource } from './source.ts';

/**
 * A folder the agent reads in place: LocalFolderEndpoint (a local or mounted folder) and AvidISISEndpoint
 * (the workspace as the Avid client mounts it). Files are never copied: ffmpeg reads them where they are.
 */
export const openFolderSource = (
  endpoint: AgentEndpoint,
  folderOption: string,
  settings: { allowedRoots: readonly string[] },
): FileSource | { error: string } => {
  const folder = endpoint.options[folderOption];
  if (typeof folder !== 'string' || folder.trim() === '') return { error: 'The folder path is not set' };
  if (!isInsideRoots(folder, settings.allowedRoots))
    return { error: `${folder} is outside the folders this agent may read` };
  const root = path.resolve(folder);
  const fileOf = (relativePath: string) => {
    const file = path.resolve(root, relativePath);
    if (!isInsideRoots(file, [root])) throw new Error('The file lies outside its endpoint folder');
    return file;
  };
  return {
    list: ({ recursive, mask, limit }) => listFiles(root, { recursive, mask, limit }),
    exists: async (relativePath) =>
      (await fs.promises.stat(fileOf(relativePath)).catch(() => undefined))?.isFile() ?? false,
    fetch: async (relativePath) => {
      const file = fileOf(relativePath);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      return stat?.isFile() ? { path: file, release: async () => {} } : undefined;
    },
    probeInput: async (relativePath) => fileOf(relativePath),
    health: async (): Promise<EndpointHealth> => {
      const stat = await fs.promises.stat(root).catch((error: NodeJS.ErrnoException) => error);
      if (stat instanceof Error)
        return {
          online: false,
          status: 'error',
          message:
            stat.code === 'ENOENT' ? `Folder ${root} does not exist` : `Folder ${root}: ${stat.message}`,
        };
      if (!stat.isDirectory()) return { online: false, status: 'error', message: `${root} is not a folder` };
      try {
        await fs.promises.access(root, fs.constants.R_OK | fs.constants.X_OK);
      } catch {
        return { online: false, status: 'error', message: `Folder ${root} cannot be read by the agent` };
      }
      return { online: true, status: 'ok', message: `Reading ${root}` };
    },
    close: async () => {},
  };
};

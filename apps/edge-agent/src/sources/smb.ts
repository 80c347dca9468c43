import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEndpoint } from '@media/contract';
import { wantedBy } from './remote.ts';
import type { EndpointHealth, FileSource, SourceFile } from './source.ts';

const option = (endpoint: AgentEndpoint, name: string) => {
  const value = endpoint.options[name];
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
};

/** One line of smbclient's `ls`: name, attributes, size, date (`Tue Nov 24 04:40:08 2026`). */
const LS_LINE = /^ {2}(.+?)\s+([A-Z]*)\s+(\d+)\s+(\w{3} \w{3}\s+\d+ \d\d:\d\d:\d\d \d{4})$/;
/** What smbclient says went wrong: its NT_STATUS code. */
const NT_STATUS = /NT_STATUS_[A-Z_]+/;

const REASONS: Record<string, (where: string) => string> = {
  NT_STATUS_LOGON_FAILURE: (where) => `Logon to ${where} failed: check the user name and password`,
  NT_STATUS_ACCESS_DENIED: (where) => `Access to ${where} is refused`,
  NT_STATUS_BAD_NETWORK_NAME: (where) => `The share ${where} does not exist`,
  NT_STATUS_OBJECT_NAME_NOT_FOUND: (where) => `The folder ${where} does not exist`,
  NT_STATUS_OBJECT_PATH_NOT_FOUND: (where) => `The folder ${where} does not exist`,
  NT_STATUS_CONNECTION_REFUSED: (where) => `${where} refuses connections`,
  NT_STATUS_HOST_UNREACHABLE: (where) => `${where} cannot be reached`,
  NT_STATUS_IO_TIMEOUT: (where) => `${where} does not answer`,
};

class SmbError extends Error {
  constructor(
    readonly status: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * SmbEndpoint: a folder of an SMB share, read with Debian's `smbclient` (DESIGN dependency table). The
 * password goes to smbclient in an authentication file readable only by the agent, never on its command
 * line; files are copied into the work folder for ffmpeg.
 */
export const openSmbSource = (endpoint: AgentEndpoint): FileSource | { error: string } => {
  const share = option(endpoint, 'share').replace(/\\/g, '/');
  if (!/^\/\/[^/]+\/[^/]+$/.test(share)) return { error: 'The share must read //server/share' };
  const port = option(endpoint, 'port');
  if (port && !/^\d{1,5}$/.test(port)) return { error: `The port ${port} is not a number` };
  const folder = option(endpoint, 'path')
    .replace(/\\/g, '/')
    .replace(/^\/+|\/+$/g, '');
  if (/(^|\/)\.\.(\/|$)|"/.test(folder)) return { error: `The folder ${folder} is not usable` };
  const where = `${share}${folder ? `/${folder}` : ''}`;
  const username = option(endpoint, 'username');
  const authDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-smb-'));
  const authFile = path.join(authDir, 'auth');
  fs.writeFileSync(
    authFile,
    `username = ${username || 'guest'}\npassword = ${option(endpoint, 'password')}\n`,
    {
      mode: 0o600,
    },
  );

  const run = (commands: string, signal?: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      const args = [share, '-A', authFile, ...(port ? ['-p', port] : []), ...(folder ? ['-D', folder] : [])];
      execFile(
        'smbclient',
        [...args, '-c', commands],
        { signal, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const text = `${stdout}\n${stderr}`;
          const status = NT_STATUS.exec(text)?.[0];
          if (error || status) {
            const reason =
              status && REASONS[status] ? REASONS[status](where) : `${where}: ${status ?? error?.message}`;
            reject(
              (error as { code?: string } | null)?.code === 'ENOENT'
                ? new SmbError(undefined, 'smbclient is not installed on this edge server')
                : new SmbError(status, reason),
            );
          } else resolve(stdout);
        },
      );
    });
  const remote = (relativePath: string) => {
    if (relativePath.includes('"') || relativePath.split('/').some((part) => part === '..' || part === ''))
      throw new Error('Not a file path');
    return relativePath.replace(/\//g, '\\');
  };

  return {
    list: async ({ recursive, mask, limit }) => {
      const output = await run(recursive ? 'recurse ON; ls' : 'ls');
      const wanted = wantedBy(mask);
      const base = `\\${folder.replace(/\//g, '\\')}`;
      let directory = '';
      const found: SourceFile[] = [];
      for (const line of output.split('\n')) {
        if (line.startsWith('\\')) {
          // A sub-folder's heading: its path from the share's root.
          const heading = line.trim();
          directory = (heading.startsWith(base) ? heading.slice(base.length) : heading)
            .replace(/^\\+/, '')
            .replace(/\\/g, '/');
          continue;
        }
        const match = LS_LINE.exec(line);
        if (!match) continue;
        const [, name = '', attributes = '', size = '0', date = ''] = match;
        if (attributes.includes('D') || name.includes('"')) continue;
        const relativePath = directory ? `${directory}/${name}` : name;
        if (found.length < limit && wanted(relativePath))
          found.push({ relativePath, size: Number(size), mtimeMs: new Date(date).getTime() || 0 });
      }
      return found.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
    },
    exists: async (relativePath) => {
      try {
        return (await run(`ls "${remote(relativePath)}"`)).split('\n').some((line) => LS_LINE.test(line));
      } catch (error) {
        if (error instanceof SmbError && error.status === 'NT_STATUS_NO_SUCH_FILE') return false;
        throw error;
      }
    },
    fetch: async (relativePath, options) => {
      await fs.promises.mkdir(options.tempDir, { recursive: true });
      const file = path.join(
        options.tempDir,
        `download-${Date.now().toString(36)}${path.extname(relativePath)}`,
      );
      try {
        await run(`get "${remote(relativePath)}" "${file}"`, options.signal);
      } catch (error) {
        await fs.promises.rm(file, { force: true });
        if (error instanceof SmbError && /NO_SUCH_FILE|NOT_FOUND/.test(error.status ?? '')) return undefined;
        throw error;
      }
      options.onProgress?.((await fs.promises.stat(file)).size);
      return { path: file, release: () => fs.promises.rm(file, { force: true }) };
    },
    probeInput: async () => undefined,
    health: async (): Promise<EndpointHealth> => {
      try {
        await run('ls');
        return { online: true, status: 'ok', message: `Reading ${where}` };
      } catch (error) {
        return { online: false, status: 'error', message: (error as Error).message };
      }
    },
    close: async () => {
      await fs.promises.rm(authDir, { recursive: true, force: true });
    },
  };
};

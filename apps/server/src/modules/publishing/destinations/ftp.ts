import path from 'node:path';
import { Client as FtpClient } from 'basic-ftp';
import { type Destination, PEER_TIMEOUT_MS, safeFolder, safeName } from './common.ts';

/** "host" or "host:port" of the FTP module's Host option (21 when none). */
export const ftpAddress = (host: string) => {
  const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(host.trim());
  return { host: match?.[1] ?? host.trim(), port: match?.[2] ? Number(match[2]) : 21 };
};

/**
 * FTP upload: the file into the Directory option on the server (made when missing), under the node's name;
 * written to a temporary name and renamed, so the other side never reads half a file. A failure is retried.
 */
export const uploadByFtp: Destination = async (_ctx, destination, file, delivery) => {
  const { host, port } = ftpAddress(String(destination.options.host ?? ''));
  const directory = `/${safeFolder(String(destination.options.directory ?? '/')).join('/')}`;
  const name = `${safeName(delivery.nodeName)}${path.extname(file)}`;
  const client = new FtpClient(PEER_TIMEOUT_MS);
  const abort = () => client.close();
  delivery.signal.addEventListener('abort', abort, { once: true });
  try {
    await client.access({
      host,
      port,
      user: String(destination.options.username ?? ''),
      password: String(destination.options.password ?? ''),
    });
    await client.ensureDir(directory);
    await client.uploadFrom(file, `${name}.part`);
    await client.rename(`${name}.part`, name);
    return `ftp://${host}:${port}${directory === '/' ? '' : directory}/${name}`;
  } finally {
    delivery.signal.removeEventListener('abort', abort);
    client.close();
  }
};

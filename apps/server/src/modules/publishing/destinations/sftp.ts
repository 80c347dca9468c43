import net from 'node:net';
import path from 'node:path';
import { sftpAddress } from '@media/contract';
import { safeFolder, safeName } from '@media/media-tools';
import { outboundGuard } from '../../../platform/outbound.ts';
import { type Destination, PEER_TIMEOUT_MS, PublishRefused } from './common.ts';
import { DeliveryFailed, deliveryFailure } from './failures.ts';

export const msgSftpBadHost = (host: string) => `The SFTP host '${host}' is not a host or host:port`;
export const MSG_SFTP_LOGIN_REFUSED = 'The SFTP server refused the user name, password or key';
export const msgSftpBadKey = (reason: string) => `The SFTP private key cannot be read: ${reason}`;
export const msgSftpNoAnswer = (address: string) => `The SFTP server ${address} did not answer in time`;

/** ssh2-sftp-client reports a dropped connection to the console unless told otherwise; the publish's log says it. */
const SILENT = { error: () => undefined, end: () => undefined, close: () => undefined };

/**
 * SFTP upload: the file into the Directory option on the server (made when missing; '/dir' from the server's
 * root, 'dir' from the login folder) under the node's name, or 'name (2)' … when taken, written to a
 * temporary name and renamed, so the other side never reads half a file and nothing is overwritten. Logs in
 * with the password, the private key or both; the server's host key is not checked. A refused login or an
 * unreadable key fails the publish; any other failure (no answer, a dropped connection) is retried.
 */
export const uploadBySftp: Destination = async (ctx, destination, file, delivery) => {
  const shown = String(destination.options.host ?? '').trim();
  try {
    return await sftpUpload(ctx, destination, file, delivery);
  } catch (error) {
    throw delivery.signal.aborted ? error : deliveryFailure(error, shown);
  }
};

const sftpUpload: Destination = async (ctx, destination, file, delivery) => {
  // Loaded at the first SFTP publish: ssh2 and its client cost every start ~0.2 s of CPU.
  const [{ default: ssh2 }, { default: SftpClient }] = await Promise.all([
    import('ssh2'),
    import('ssh2-sftp-client'),
  ]);
  const option = (name: string) => String(destination.options[name] ?? '');
  const address = sftpAddress(option('host'));
  if (!address) throw new PublishRefused(msgSftpBadHost(option('host').trim()));
  const privateKey = option('privateKey').trim();
  const parsed = privateKey ? ssh2.utils.parseKey(privateKey) : undefined;
  if (parsed instanceof Error) throw new PublishRefused(msgSftpBadKey(parsed.message));
  const password = option('password');
  const shownHost = address.host.includes(':') ? `[${address.host}]` : address.host;

  // The connection is ours, to the address the guard checked: an abort or a silent peer closes it.
  const target = await outboundGuard(ctx.config, 'publishing').resolve(address.host, address.port);
  const socket = net.connect({ host: target.address, port: address.port });
  socket.setTimeout(PEER_TIMEOUT_MS, () =>
    socket.destroy(new DeliveryFailed(msgSftpNoAnswer(`${shownHost}:${address.port}`))),
  );
  const abort = () => socket.destroy(new Error('The publish was stopped'));
  if (delivery.signal.aborted) abort();
  delivery.signal.addEventListener('abort', abort, { once: true });
  const client = new SftpClient('publish', SILENT);
  let loginRefused = false;
  client.on('error', (error: { level?: string }) => {
    if (error.level === 'client-authentication') loginRefused = true;
  });
  try {
    await client
      .connect({
        sock: socket,
        username: option('username'),
        ...(password ? { password } : {}),
        ...(privateKey ? { privateKey } : {}),
        readyTimeout: PEER_TIMEOUT_MS,
      })
      .catch((error: unknown) => {
        throw loginRefused ? new PublishRefused(MSG_SFTP_LOGIN_REFUSED) : error;
      });
    const given = option('directory').trim() || '/';
    const base = given.startsWith('/') ? '/' : (await client.cwd()) || '/';
    const directory = path.posix.join(base, ...safeFolder(given));
    if (!(await client.exists(directory))) await client.mkdir(directory, true);

    const name = safeName(delivery.nodeName);
    const extension = path.extname(file);
    let target = '';
    for (let attempt = 1; ; attempt++) {
      target = path.posix.join(directory, `${name}${attempt === 1 ? '' : ` (${attempt})`}${extension}`);
      if (!(await client.exists(target))) break;
    }
    await client.put(file, `${target}.part`);
    await client.rename(`${target}.part`, target);
    return `sftp://${shownHost}:${address.port}${target}`;
  } finally {
    delivery.signal.removeEventListener('abort', abort);
    await client.end().catch(() => undefined);
    socket.destroy();
  }
};

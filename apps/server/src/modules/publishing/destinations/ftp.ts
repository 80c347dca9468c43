import net from 'node:net';
import path from 'node:path';
import { ftpAddress, ftpEncryption } from '@media/contract';
import { safeFolder, safeName } from '@media/media-tools';
import { type FTPContext, FTPError, Client as FtpClient } from 'basic-ftp';
import { connectForPassiveTransfer, parseEpsvResponse, parsePasvResponse } from 'basic-ftp/dist/transfer.js';
import type { AppContext } from '../../../platform/context.ts';
import { type OutboundGuard, outboundGuard } from '../../../platform/outbound.ts';
import { type Destination, PEER_TIMEOUT_MS, PublishRefused } from './common.ts';
import { CERTIFICATE_CODES, deliveryFailure } from './failures.ts';

export const msgFtpBadHost = (host: string) => `The FTP host '${host}' is not a host or host:port`;
export const MSG_FTP_LOGIN_REFUSED = 'The FTP server refused the user name or password';
export const msgFtpCertificate = (reason: string) =>
  `The FTP server's certificate is not trusted (${reason}); tick 'Accept self-signed certificates' to accept it`;

/** A refused login or an untrusted certificate ends the publish; anything else is tried again. */
const refusal = (error: unknown) => {
  if (error instanceof FTPError && error.code === 530) return new PublishRefused(MSG_FTP_LOGIN_REFUSED);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code))
    return new PublishRefused(msgFtpCertificate((error as Error).message));
  return error;
};

/**
 * Data connections go to the control connection's (checked) address only, whatever a PASV answer names,
 * and their port goes through the guard: a server cannot send the cloud to another host (FTP bounce).
 */
const guardedPassive = (guard: OutboundGuard) => async (ftp: FTPContext) => {
  const controlHost = ftp.socket.remoteAddress;
  if (!controlHost) throw new Error('The FTP control connection is closed');
  let answer = await ftp.request('EPSV').catch(() => undefined);
  let port = answer ? parseEpsvResponse(answer.message) : undefined;
  if (!answer || !port) {
    answer = await ftp.request('PASV');
    port = parsePasvResponse(answer.message)?.port;
  }
  if (!port) throw new Error('The FTP server named no data port');
  const refused = await guard.refusal(controlHost, port);
  if (refused) throw refused;
  await connectForPassiveTransfer(controlHost, port, ftp);
  return answer;
};

/** The FTP client logged in on the checked address of the Host option (TLS still checks the host's name). */
export const connectFtp = async (ctx: AppContext, options: Record<string, unknown>, signal: AbortSignal) => {
  const given = String(options.host ?? '');
  const encryption = ftpEncryption(options.encryption);
  const address = ftpAddress(given, encryption);
  if (!address) throw new PublishRefused(msgFtpBadHost(given));
  const { host, port } = address;
  const guard = outboundGuard(ctx.config, 'publishing');
  const target = await guard.resolve(host, port);
  const client = new FtpClient(PEER_TIMEOUT_MS);
  client.prepareTransfer = guardedPassive(guard);
  const abort = () => client.close();
  signal.addEventListener('abort', abort, { once: true });
  const close = () => {
    signal.removeEventListener('abort', abort);
    client.close();
  };
  try {
    await client.access({
      host: target.address,
      port,
      user: String(options.username ?? ''),
      password: String(options.password ?? ''),
      secure: encryption === 'none' ? false : encryption === 'explicit' ? true : 'implicit',
      secureOptions: {
        ...(net.isIP(host) ? {} : { servername: host }),
        ...(options.trustAnyCertificate === true ? { rejectUnauthorized: false } : {}),
      },
    });
  } catch (error) {
    close();
    throw refusal(error);
  }
  return { client, host, port, encryption, close };
};

/**
 * FTP upload: the file into the Directory option on the server (made when missing), under the node's name;
 * written to a temporary name and renamed, so the other side never reads half a file. Plain FTP, or FTPS
 * (explicit AUTH TLS or implicit) with the certificate checked unless the button accepts self-signed ones.
 * A refused login or certificate fails the publish; any other failure is retried.
 */
export const uploadByFtp: Destination = async (ctx, destination, file, delivery) => {
  const shownGiven = String(destination.options.host ?? '').trim();
  const directory = `/${safeFolder(String(destination.options.directory ?? '/')).join('/')}`;
  const name = `${safeName(delivery.nodeName)}${path.extname(file)}`;
  try {
    const { client, host, port, encryption, close } = await connectFtp(
      ctx,
      destination.options,
      delivery.signal,
    );
    try {
      await client.ensureDir(directory);
      await client.uploadFrom(file, `${name}.part`);
      await client.rename(`${name}.part`, name);
      const scheme = encryption === 'none' ? 'ftp' : 'ftps';
      const shownHost = host.includes(':') ? `[${host}]` : host;
      return `${scheme}://${shownHost}:${port}${directory === '/' ? '' : directory}/${name}`;
    } finally {
      close();
    }
  } catch (error) {
    throw delivery.signal.aborted ? error : deliveryFailure(error, shownGiven);
  }
};

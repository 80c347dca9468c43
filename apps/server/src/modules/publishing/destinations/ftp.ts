import path from 'node:path';
import { ftpAddress, ftpEncryption } from '@media/contract';
import { safeFolder, safeName } from '@media/media-tools';
import { FTPError, Client as FtpClient } from 'basic-ftp';
import { type Destination, PEER_TIMEOUT_MS, PublishRefused } from './common.ts';

export const msgFtpBadHost = (host: string) => `The FTP host '${host}' is not a host or host:port`;
export const MSG_FTP_LOGIN_REFUSED = 'The FTP server refused the user name or password';
export const msgFtpCertificate = (reason: string) =>
  `The FTP server's certificate is not trusted (${reason}); tick 'Accept self-signed certificates' to accept it`;

/** Codes of a TLS certificate that Node does not trust: no retry makes it trusted. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A refused login or an untrusted certificate ends the publish; anything else is tried again. */
const refusal = (error: unknown) => {
  if (error instanceof FTPError && error.code === 530) return new PublishRefused(MSG_FTP_LOGIN_REFUSED);
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code))
    return new PublishRefused(msgFtpCertificate((error as Error).message));
  return error;
};

/**
 * FTP upload: the file into the Directory option on the server (made when missing), under the node's name;
 * written to a temporary name and renamed, so the other side never reads half a file. Plain FTP, or FTPS
 * (explicit AUTH TLS or implicit) with the certificate checked unless the button accepts self-signed ones.
 * A refused login or certificate fails the publish; any other failure is retried.
 */
export const uploadByFtp: Destination = async (_ctx, destination, file, delivery) => {
  const given = String(destination.options.host ?? '');
  const encryption = ftpEncryption(destination.options.encryption);
  const address = ftpAddress(given, encryption);
  if (!address) throw new PublishRefused(msgFtpBadHost(given));
  const { host, port } = address;
  const directory = `/${safeFolder(String(destination.options.directory ?? '/')).join('/')}`;
  const name = `${safeName(delivery.nodeName)}${path.extname(file)}`;
  const client = new FtpClient(PEER_TIMEOUT_MS);
  const abort = () => client.close();
  delivery.signal.addEventListener('abort', abort, { once: true });
  try {
    await client
      .access({
        host,
        port,
        user: String(destination.options.username ?? ''),
        password: String(destination.options.password ?? ''),
        secure: encryption === 'none' ? false : encryption === 'explicit' ? true : 'implicit',
        secureOptions: destination.options.trustAnyCertificate === true ? { rejectUnauthorized: false } : {},
      })
      .catch((error: unknown) => {
        throw refusal(error);
      });
    await client.ensureDir(directory);
    await client.uploadFrom(file, `${name}.part`);
    await client.rename(`${name}.part`, name);
    const scheme = encryption === 'none' ? 'ftp' : 'ftps';
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return `${scheme}://${shownHost}:${port}${directory === '/' ? '' : directory}/${name}`;
  } finally {
    delivery.signal.removeEventListener('abort', abort);
    client.close();
  }
};

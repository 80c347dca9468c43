import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FtpSrv } from 'ftp-srv';
import { freePort } from './free-port.ts';

/** ftp-srv's logger (bunyan's shape), silent. */
const quietLog = {
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => quietLog,
};

/** A self-signed certificate for 127.0.0.1 (openssl), valid for a day, written into `folder`. */
export const selfSignedCertificate = (folder: string) => {
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  );
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
};

/**
 * A real FTP server (ftp-srv) on 127.0.0.1 serving `root` to one user; with `tls` it speaks FTPS, explicit
 * (AUTH TLS) or, with `implicit`, TLS from the first byte. `logins` tells whether each login was encrypted.
 */
export const startFtpServer = async (options: {
  root: string;
  username: string;
  password: string;
  tls?: { key: Buffer; cert: Buffer };
  implicit?: boolean;
}) => {
  const port = await freePort();
  const pasv = await freePort();
  const server = new FtpSrv({
    url: `${options.implicit ? 'ftps' : 'ftp'}://127.0.0.1:${port}`,
    pasv_url: '127.0.0.1',
    pasv_min: pasv,
    pasv_max: pasv + 20,
    anonymous: false,
    greeting: 'test',
    log: quietLog,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  const logins: { secure: boolean }[] = [];
  server.on('login', ({ connection, username, password }, resolve, reject) => {
    if (username !== options.username || password !== options.password)
      return reject(new Error('Bad user or password'));
    // With implicit TLS ftp-srv answers its TLS options for `secure`.
    logins.push({ secure: Boolean(connection.secure) });
    return resolve({ root: options.root });
  });
  // A client that gives up on the certificate leaves a broken socket behind: not the test's concern.
  server.on('client-error', () => undefined);
  await server.listen();
  return { host: `127.0.0.1:${port}`, logins, close: () => server.close() };
};

export { freePort };

/** The FTP module's Encryption choices: plain FTP, explicit FTPS (AUTH TLS) or implicit FTPS. */
export const FTP_ENCRYPTIONS = ['none', 'explicit', 'implicit'] as const;
export type FtpEncryption = (typeof FTP_ENCRYPTIONS)[number];

/** The ports a destination's Host option means when it names none. */
export const FTP_PORT = 21;
export const FTPS_IMPLICIT_PORT = 990;
export const SFTP_PORT = 22;

/**
 * 'host' or 'host:port' of a destination's Host option (an IPv6 address bare or in brackets, the port only
 * after brackets), with `defaultPort` when it names none; undefined when it is no address.
 */
export const peerAddress = (value: string, defaultPort: number) => {
  const trimmed = value.trim();
  const match =
    /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(trimmed) ??
    /^([0-9a-fA-F]*:[0-9a-fA-F:.]*:[0-9a-fA-F.]*)()$/.exec(trimmed) ??
    /^([^\s:/[\]@]+)(?::(\d{1,5}))?$/.exec(trimmed);
  if (!match?.[1]) return undefined;
  const port = match[2] ? Number(match[2]) : defaultPort;
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1], port };
};

/** The FTP module's server: port 21, or 990 for implicit FTPS, unless the Host option names one. */
export const ftpAddress = (host: string, encryption: unknown = 'none') =>
  peerAddress(host, encryption === 'implicit' ? FTPS_IMPLICIT_PORT : FTP_PORT);

/** The SFTP module's server: port 22 unless the Host option names one. */
export const sftpAddress = (host: string) => peerAddress(host, SFTP_PORT);

/** The encryption an FTP node's options ask for; plain FTP when they name none (buttons made before FTPS). */
export const ftpEncryption = (value: unknown): FtpEncryption =>
  FTP_ENCRYPTIONS.find((encryption) => encryption === value) ?? 'none';

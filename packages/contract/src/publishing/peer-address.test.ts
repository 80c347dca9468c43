import { describe, expect, it } from 'vitest';
import { ftpAddress, ftpEncryption, peerAddress, sftpAddress } from './peer-address.ts';

describe('peer addresses of destination modules', () => {
  it('reads host or host:port, with the protocol port when none is given', () => {
    expect(ftpAddress('files.example.com')).toEqual({ host: 'files.example.com', port: 21 });
    expect(ftpAddress(' 127.0.0.1:2121 ')).toEqual({ host: '127.0.0.1', port: 2121 });
    expect(ftpAddress('files.example.com', 'implicit')).toEqual({ host: 'files.example.com', port: 990 });
    expect(ftpAddress('files.example.com', 'explicit')).toEqual({ host: 'files.example.com', port: 21 });
    expect(sftpAddress('sftp.example.com')).toEqual({ host: 'sftp.example.com', port: 22 });
    expect(sftpAddress('sftp.example.com:2222')).toEqual({ host: 'sftp.example.com', port: 2222 });
  });

  it('reads IPv6 addresses bare or in brackets', () => {
    expect(sftpAddress('[::1]:2222')).toEqual({ host: '::1', port: 2222 });
    expect(sftpAddress('[fe80::1]')).toEqual({ host: 'fe80::1', port: 22 });
    expect(sftpAddress('fe80::1')).toEqual({ host: 'fe80::1', port: 22 });
  });

  it('answers no address for what is none', () => {
    for (const value of ['', '  ', 'host:', 'host:0', 'host:70000', 'ftp://host', 'a b', 'user@host', '[::1'])
      expect(peerAddress(value, 21), value).toBeUndefined();
  });

  it('takes plain FTP when the options name no known encryption', () => {
    expect(ftpEncryption(undefined)).toBe('none');
    expect(ftpEncryption('tls')).toBe('none');
    expect(ftpEncryption('implicit')).toBe('implicit');
  });
});

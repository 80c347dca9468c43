import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_FTP_LOGIN_REFUSED } from '../src/modules/publishing/destinations/ftp.ts';
import { MSG_SFTP_LOGIN_REFUSED } from '../src/modules/publishing/destinations/sftp.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { selfSignedCertificate, startFtpServer } from './ftp-server.ts';
import { testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { ed25519KeyPair, startSftpServer } from './sftp-server.ts';

const AS_IS = { moduleId: 'as-is', options: {} };
const USER = { username: 'desk', password: 'pa55' };

/** ffprobe's reading of a delivered file: the 2 s 320x240 H.264 interview, whole. */
const expectInterview = (file: string) => {
  const probe = ffprobe(file);
  expect(videoOf(probe)).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
  expect(Number(probe.format.duration)).toBeCloseTo(2, 0);
};

/** Encrypted and SSH publish destinations against real servers on 127.0.0.1: SFTP (ssh2), FTPS (ftp-srv). */
describe(`publish destinations over SFTP and FTPS (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let sftp: Awaited<ReturnType<typeof startSftpServer>>;
  let sftpRoot: string;
  const userKey = ed25519KeyPair();
  beforeAll(async () => {
    world = await makePublishRunsWorld();
    sftpRoot = fs.mkdtempSync(path.join(world.work, 'sftp-'));
    sftp = await startSftpServer({ root: sftpRoot, ...USER, publicKey: userKey.public });
  });
  afterAll(async () => {
    await sftp?.close();
    await world?.close();
  });

  const sftpButton = (name: string, options: Record<string, unknown>) =>
    world.button(name, AS_IS, { moduleId: 'sftp', options: { host: sftp.host, ...options } });

  it('uploads to an SFTP server into its directory, complete under its name, never over an earlier file', async () => {
    await sftpButton('Partner SFTP', { ...USER, directory: '/incoming/news' });
    const first = await world.publishClip('Partner SFTP');
    expect(first?.status, JSON.stringify(first?.log)).toBe('done');
    expect(first?.outputs).toEqual([
      { moduleId: 'sftp', location: `sftp://${sftp.host}/incoming/news/Interview.mp4` },
    ]);
    const folder = path.join(sftpRoot, 'incoming', 'news');
    expect(fs.readdirSync(folder)).toEqual(['Interview.mp4']);
    expectInterview(path.join(folder, 'Interview.mp4'));

    const second = await world.publishClip('Partner SFTP');
    expect(second?.status, JSON.stringify(second?.log)).toBe('done');
    expect(second?.outputs[0]?.location).toBe(`sftp://${sftp.host}/incoming/news/Interview (2).mp4`);
    expect(fs.readdirSync(folder).sort()).toEqual(['Interview (2).mp4', 'Interview.mp4']);
    expectInterview(path.join(folder, 'Interview (2).mp4'));
    expect(fs.readFileSync(path.join(folder, 'Interview (2).mp4'))).toEqual(
      fs.readFileSync(path.join(folder, 'Interview.mp4')),
    );
  });

  it('logs in to the SFTP server with a private key, into a folder of the login folder', async () => {
    await sftpButton('Keyed SFTP', {
      username: USER.username,
      privateKey: userKey.private,
      directory: 'drop',
    });
    const done = await world.publishClip('Keyed SFTP');
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    expect(done?.outputs).toEqual([{ moduleId: 'sftp', location: `sftp://${sftp.host}/drop/Interview.mp4` }]);
    expectInterview(path.join(sftpRoot, 'drop', 'Interview.mp4'));
  });

  it('fails at once, without retrying, when the SFTP server refuses the password or the key is unreadable', async () => {
    const tried = sftp.logins.tried;
    await sftpButton('Wrong SFTP', { username: USER.username, password: 'guess', directory: '/wrong' });
    const refused = await world.publishClip('Wrong SFTP');
    expect(refused?.status).toBe('failed');
    expect(refused?.error).toBe(MSG_SFTP_LOGIN_REFUSED);
    expect(refused?.log.join('\n')).not.toMatch(/Attempt failed|Started again/);
    expect(sftp.logins.tried - tried).toBe(1);
    expect(fs.existsSync(path.join(sftpRoot, 'wrong'))).toBe(false);

    await sftpButton('Unreadable key SFTP', { username: USER.username, privateKey: 'not a key' });
    const unreadable = await world.publishClip('Unreadable key SFTP');
    expect(unreadable?.status).toBe('failed');
    expect(unreadable?.error).toMatch(/^The SFTP private key cannot be read/);
    expect(sftp.logins.tried - tried).toBe(1);
  });

  it('uploads over explicit FTPS (AUTH TLS), and refuses a self-signed certificate unless told to accept it', async () => {
    const root = fs.mkdtempSync(path.join(world.work, 'ftps-'));
    const server = await startFtpServer({
      root,
      ...USER,
      tls: selfSignedCertificate(fs.mkdtempSync(path.join(world.work, 'cert-'))),
    });
    try {
      const options = { host: server.host, ...USER, directory: '/incoming', encryption: 'explicit' };
      await world.button('Partner FTPS', AS_IS, {
        moduleId: 'ftp',
        options: { ...options, trustAnyCertificate: true },
      });
      const done = await world.publishClip('Partner FTPS');
      expect(done?.status, JSON.stringify(done?.log)).toBe('done');
      expect(done?.outputs).toEqual([
        { moduleId: 'ftp', location: `ftps://${server.host}/incoming/Interview.mp4` },
      ]);
      expect(server.logins).toEqual([{ secure: true }]);
      expect(fs.readdirSync(path.join(root, 'incoming'))).toEqual(['Interview.mp4']);
      expectInterview(path.join(root, 'incoming', 'Interview.mp4'));

      await world.button('Checked FTPS', AS_IS, { moduleId: 'ftp', options });
      const untrusted = await world.publishClip('Checked FTPS');
      expect(untrusted?.status).toBe('failed');
      expect(untrusted?.error).toMatch(/certificate is not trusted \(self[- ]signed certificate\)/);
      expect(untrusted?.log.join('\n')).not.toMatch(/Attempt failed|Started again/);
      expect(server.logins).toHaveLength(1);

      await world.button('Wrong FTPS', AS_IS, {
        moduleId: 'ftp',
        options: { ...options, password: 'guess', trustAnyCertificate: true },
      });
      const refused = await world.publishClip('Wrong FTPS');
      expect(refused?.status).toBe('failed');
      expect(refused?.error).toBe(MSG_FTP_LOGIN_REFUSED);
    } finally {
      await server.close();
    }
  });

  it('uploads over implicit FTPS, TLS from the first byte', async () => {
    const root = fs.mkdtempSync(path.join(world.work, 'ftps-implicit-'));
    const server = await startFtpServer({
      root,
      ...USER,
      tls: selfSignedCertificate(fs.mkdtempSync(path.join(world.work, 'cert-'))),
      implicit: true,
    });
    try {
      await world.button('Implicit FTPS', AS_IS, {
        moduleId: 'ftp',
        options: { host: server.host, ...USER, encryption: 'implicit', trustAnyCertificate: true },
      });
      const done = await world.publishClip('Implicit FTPS');
      expect(done?.status, JSON.stringify(done?.log)).toBe('done');
      expect(done?.outputs).toEqual([{ moduleId: 'ftp', location: `ftps://${server.host}/Interview.mp4` }]);
      expect(server.logins).toEqual([{ secure: true }]);
      expectInterview(path.join(root, 'Interview.mp4'));
    } finally {
      await server.close();
    }
  });
});

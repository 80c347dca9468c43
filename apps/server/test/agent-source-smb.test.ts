import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EdgeAgent } from '@media/edge-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, videoOf } from './agent-ingest-world.ts';
import { eventually, testDriver } from './harness.ts';
import { freePort } from './spawned-server.ts';

const SMB_USER = 'root';
const SMB_PASSWORD = 'Smb-Test-Passw0rd';

/** Debian's smbd on 127.0.0.1 with a configuration, users and share of its own, in the foreground. */
const startSmbd = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smbd-'));
  const port = await freePort();
  const share = path.join(dir, 'share');
  for (const sub of ['share', 'private', 'lock', 'state', 'cache', 'pid', 'log', 'ncalrpc'])
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, 'smb.conf');
  fs.writeFileSync(
    conf,
    `[global]
  smb ports = ${port}
  interfaces = 127.0.0.1
  bind interfaces only = yes
  private dir = ${dir}/private
  lock directory = ${dir}/lock
  state directory = ${dir}/state
  cache directory = ${dir}/cache
  pid directory = ${dir}/pid
  ncalrpc dir = ${dir}/ncalrpc
  log file = ${dir}/log/%m.log
  passdb backend = tdbsam:${dir}/private/passdb.tdb
  server role = standalone server
  disable spoolss = yes
  load printers = no
  printcap name = /dev/null
  server min protocol = SMB2
[media]
  path = ${share}
  read only = yes
  guest ok = no
`,
  );
  execFileSync('smbpasswd', ['-c', conf, '-s', '-a', SMB_USER], {
    input: `${SMB_PASSWORD}\n${SMB_PASSWORD}\n`,
  });
  // A process group of its own: smbd signals its group when it stops, which must not reach the test.
  const child: ChildProcess = spawn('smbd', ['--foreground', '--no-process-group', `--configfile=${conf}`], {
    stdio: 'ignore',
    detached: true,
  });
  const auth = path.join(dir, 'probe-auth');
  fs.writeFileSync(auth, `username = ${SMB_USER}\npassword = ${SMB_PASSWORD}\n`, { mode: 0o600 });
  let last = '';
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        execFile(
          'smbclient',
          ['//127.0.0.1/media', '-p', String(port), '-A', auth, '-c', 'ls'],
          { timeout: 5000 },
          (error, stdout, stderr) => {
            last = `${error?.message ?? ''} ${stdout} ${stderr}`;
            resolve(!error);
          },
        );
      }),
    30_000,
  ).catch((error: Error) => {
    throw new Error(`smbd did not answer: ${last} (${error.message})`);
  });
  return {
    port,
    share,
    close: () => {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** The edge agent reading an SMB share through smbclient, against a real smbd (issue 13). */
describe(`edge agent reading an SMB share (${testDriver()})`, () => {
  let smbd: Awaited<ReturnType<typeof startSmbd>>;
  let x: IngestWorld;
  let agent: EdgeAgent;
  let folderId: number;

  beforeAll(async () => {
    smbd = await startSmbd();
    x = await makeIngestWorld('smb');
    folderId = (
      await makeArrivalsFolderRow(x.t.ctx.db, {
        accountId: x.w.account.id,
        name: 'Share',
        typeId: 'proxyOnly',
        options: { ingestFormat: 'PAL_wide' },
      })
    ).id;
    fs.mkdirSync(path.join(smbd.share, 'incoming', 'day one'), { recursive: true });
    makeClip(path.join(smbd.share, 'incoming', 'day one', 'my clip.mp4'), { seconds: 1, size: '320x240' });
    fs.writeFileSync(path.join(smbd.share, 'incoming', 'notes.txt'), 'not media');
    agent = x.agent();
  });
  afterAll(async () => {
    await x.close();
    smbd.close();
  });

  const share = () => ({ share: '//127.0.0.1/media', port: String(smbd.port) });

  it('ingests a video from a sub-folder of the share, with spaces in its names', async () => {
    const endpoint = await x.endpoint('smb', {
      name: 'Share folder',
      typeId: 'SmbEndpoint',
      arrivalsFolderId: folderId,
      options: {
        ...share(),
        path: 'incoming',
        username: SMB_USER,
        password: SMB_PASSWORD,
        fileMask: '*.mp4',
      },
    });
    await x.round(agent);
    const item = await x.itemOf(endpoint.id, 'day one/my clip.mp4');
    expect(item.status, item.log).toBe('ingested');
    const served = await x.servedProxy(item.id);
    expect(videoOf(ffprobe(served.file))).toMatchObject({ codec_name: 'h264', height: 240 });
    expect(await x.endpointStatus('Share folder')).toMatchObject({
      status: 'ok',
      message: 'Reading //127.0.0.1/media/incoming',
    });
  });

  it('shows a wrong password, a missing share and a missing folder as errors, never the password', async () => {
    const broken = {
      'Wrong password': { ...share(), username: SMB_USER, password: 'not-the-password' },
      'No share': {
        share: '//127.0.0.1/gone',
        port: String(smbd.port),
        username: SMB_USER,
        password: SMB_PASSWORD,
      },
      'No folder': { ...share(), path: 'nowhere', username: SMB_USER, password: SMB_PASSWORD },
    };
    for (const [name, options] of Object.entries(broken))
      await x.endpoint(name.replace(/\W/g, ''), {
        name,
        typeId: 'SmbEndpoint',
        arrivalsFolderId: folderId,
        options,
      });
    await x.round(agent);
    const reported = await eventually(async () => {
      const all = await Promise.all(Object.keys(broken).map((name) => x.endpointStatus(name)));
      return all.every((item) => item?.status === 'error') ? all : undefined;
    });
    expect(reported.map((item) => item?.message)).toEqual([
      'Logon to //127.0.0.1/media failed: check the user name and password',
      'The share //127.0.0.1/gone does not exist',
      'The folder //127.0.0.1/media/nowhere does not exist',
    ]);
    expect(JSON.stringify(reported)).not.toContain('not-the-password');
  });
});

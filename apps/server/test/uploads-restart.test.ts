import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Upload } from '@media/contract';
import { TOOL_MARK_VARIABLE, toolMark } from '@media/media-tools';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import { makeAccount } from '../src/seed/factories.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';
import { crashTestServers, quiet, signIn } from './spawned-server.ts';

type Listed = { results: Upload[] };

/** The parent and state of a process (/proc/<pid>/stat), or undefined when it is gone. */
const statOf = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid), comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) };
  } catch {
    return undefined;
  }
};
/** Gone: no longer in /proc, or dead and not yet reaped by whoever inherited it. */
const gone = (pid: number) => (statOf(pid)?.state ?? 'Z') === 'Z';
const ffmpegsOf = (parent: number) =>
  fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = statOf(pid);
      return stat?.ppid === parent && stat.comm === 'ffmpeg' && stat.state !== 'Z';
    });
/** An ffmpeg that runs for a minute unless stopped, at the pace of its input (-re). */
const SLOW_FFMPEG = [
  '-v',
  'error',
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=160x90:rate=5',
  '-t',
  '60',
  '-f',
  'null',
  '-',
];

/**
 * kill -9 of the server while a web upload's proxy job runs (DESIGN "Jobs"): after the restart the job runs
 * again and the node plays. On PGlite the start retries what was active; on PostgreSQL the restarted
 * instance finds the job's owner gone (its advisory lock is free) and retries it at once.
 */
describe(`web upload proxy across a crash (${testDriver()})`, () => {
  const servers = crashTestServers('upload-crash');
  const { dataDir } = servers;

  it('finishes the proxy of an upload whose server was killed during the job', async () => {
    const env = await servers.env({ WORKERS: '1' });
    const setup = await createContext(loadConfig(env), { logStream: quiet() });
    const accountId = (await makeAccount(setup.ctx.db)).id;
    await setup.ctx.close();
    const clip = path.join(dataDir, 'long.mp4');
    // Long enough that the proxy takes a few seconds here.
    makeClip(clip, { seconds: 20, size: '1280x720' });

    const first = await servers.start(env);
    const admin = await signIn(first.base, 'admin', ADMIN_TEST_PASSWORD);
    const form = new FormData();
    form.append('uploadfile', new Blob([fs.readFileSync(clip)]), 'long.mp4');
    const sent = await fetch(
      `${first.base}/api/accounts/${accountId}/uploads?uploadname=Long&format=NTSC_wide`,
      {
        method: 'POST',
        headers: { 'x-csrftoken': admin.csrf, cookie: admin.cookie },
        body: form,
      },
    );
    expect(sent.status).toBe(200);
    const listed = async (base: string, cookie: string) => {
      const answer = await fetch(`${base}/api/accounts/${accountId}/uploads`, { headers: { cookie } });
      return ((await answer.json()) as Listed).results[0];
    };
    // Killed once the job has begun making the proxy.
    const running = await eventually(async () => {
      const upload = await listed(first.base, admin.cookie);
      return upload?.status === 'processing' && (upload.progress ?? 0) > 0 ? upload : undefined;
    }, 60_000);
    // No ffmpeg outlives its server (issue 30): the proxy's ffmpeg ends with it.
    const ffmpegs = await eventually(() => {
      const found = ffmpegsOf(first.child.pid as number);
      return found.length > 0 ? found : undefined;
    }, 10_000);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(running.nodePath).toBe(`/${running.location}/Long`);
    await eventually(() => ffmpegs.every(gone), 2_000);

    // A tool the killed server left (had it escaped) is ended by the next start on the same DATA_DIR.
    const leftover = spawn('ffmpeg', SLOW_FFMPEG, {
      stdio: 'ignore',
      env: { ...process.env, [TOOL_MARK_VARIABLE]: toolMark(first.child.pid as number, dataDir) },
    });
    await new Promise((resolve) => leftover.once('spawn', resolve));
    const second = await servers.start(env);
    try {
      await eventually(() => gone(leftover.pid as number), 2_000);
    } finally {
      leftover.kill('SIGKILL');
    }
    const again = await signIn(second.base, 'admin', ADMIN_TEST_PASSWORD);
    const done = await eventually(async () => {
      const upload = await listed(second.base, again.cookie);
      return upload && upload.status !== 'processing' ? upload : undefined;
    }, 120_000);
    expect(done.status, done.error ?? '').toBe('ready');
    expect(second.output.join('')).toContain(
      testDriver() === 'postgres'
        ? 'jobs of a stopped instance are retried'
        : 'jobs cut off by the last stop are retried',
    );
    const content = await fetch(`${second.base}/api/media/${done.mediaId}/content`, {
      headers: { cookie: again.cookie },
    });
    expect(content.status).toBe(200);
    const proxy = path.join(dataDir, 'served.mp4');
    fs.writeFileSync(proxy, Buffer.from(await content.arrayBuffer()));
    const out = ffprobe(proxy);
    expect(videoOf(out)).toMatchObject({ codec_name: 'h264', r_frame_rate: '30/1', height: 360 });
    expect(Math.abs(Number(out.format.duration) - 20)).toBeLessThan(0.3);
    // The interrupted attempt's work folder is gone.
    expect(fs.readdirSync(path.join(dataDir, 'tmp')).filter((name) => name.startsWith('upload-'))).toEqual(
      [],
    );
  }, 300_000);
});

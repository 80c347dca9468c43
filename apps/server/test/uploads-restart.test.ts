import fs from 'node:fs';
import path from 'node:path';
import type { Upload } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import { makeAccount } from '../src/seed/factories.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';
import { crashTestServers, quiet, signIn } from './spawned-server.ts';

type Listed = { results: Upload[] };

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
    first.child.kill('SIGKILL');
    await first.exited;
    expect(running.nodePath).toBe(`/${running.location}/Long`);

    const second = await servers.start(env);
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

import fs from 'node:fs';
import path from 'node:path';
import { newButtonBody, type Phase, type Publish, type TransferResult } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config.ts';
import { createContext } from '../src/platform/start.ts';
import { makeAccount } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import { ADMIN_TEST_PASSWORD, eventually, testDriver } from './harness.ts';
import { crashTestServers, quiet, signIn } from './spawned-server.ts';

/**
 * kill -9 of the server in the middle of a publish (DESIGN "Jobs", issue 15): after the restart the run
 * starts again, says so in its log, and its transcoded file lands in the exported folder.
 */
describe(`publish across a crash (${testDriver()})`, () => {
  const servers = crashTestServers('publish-crash');
  const { dataDir } = servers;

  it('finishes a publish whose server was killed during the run', async () => {
    const env = await servers.env({ WORKERS: '1' });
    const setup = await createContext(loadConfig(env), { logStream: quiet() });
    const account = await makeAccount(setup.ctx.db);
    const clip = path.join(dataDir, 'long.mp4');
    // Long enough that the transcode takes a few seconds here.
    makeClip(clip, { seconds: 20, size: '1280x720' });
    const key = `media/accounts/${account.id}/test/long.mp4`;
    await setup.ctx.storage.putStream(key, fs.createReadStream(clip));
    const media = await makeMediaRow(setup.ctx.db, { accountId: account.id, name: 'Long', storagePath: key });
    await makeNodeRow(setup.ctx.db, {
      accountId: account.id,
      parentPath: '/',
      name: 'Long',
      type: 'source',
      mediaId: media.id,
    });
    await setup.ctx.close();

    const first = await servers.start(env);
    const admin = await signIn(first.base, 'admin', ADMIN_TEST_PASSWORD);
    const post = (base: string, url: string, body: unknown) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'x-csrftoken': admin.csrf, cookie: admin.cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const button = newButtonBody({
      name: 'Slow',
      processModuleId: 'transcode',
      destinationModuleId: 'folder-export',
    });
    for (const node of (button.phases[0] as Phase).phase.network.nodes) {
      if (node.moduleId === 'transcode') node.options = { format: 'mp4', videoBitrate: 3000 };
      if (node.moduleId === 'folder-export') node.options = { folder: 'slow' };
    }
    const created = await post(first.base, `/api/accounts/${account.id}/publishButtons`, button);
    expect(created.status, await created.clone().text()).toBe(200);
    const published = await post(first.base, '/api/nodesTransfer', {
      srcPath: `/${account.name}/Long`,
      dstPath: `/${account.name}/Publish/Slow`,
      operation: 'publish',
    });
    expect(published.status, await published.clone().text()).toBe(200);
    const [id] = ((await published.json()) as { results: TransferResult }).results.publishIds as [number];
    const read = async (base: string, cookie: string) =>
      (
        (await (await fetch(`${base}/api/publishes/${id}`, { headers: { cookie } })).json()) as {
          results: Publish;
        }
      ).results;
    // Killed once the run is transcoding.
    await eventually(async () => {
      const item = await read(first.base, admin.cookie);
      return item.status === 'running' && (item.progress ?? 0) > 0 ? item : undefined;
    }, 60_000);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await servers.start(env);
    const again = await signIn(second.base, 'admin', ADMIN_TEST_PASSWORD);
    const done = await eventually(async () => {
      const item = await read(second.base, again.cookie);
      return item.status === 'done' || item.status === 'failed' ? item : undefined;
    }, 120_000);
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.log.some((line) => line.startsWith('Started again'))).toBe(true);
    const exported = path.join(dataDir, done.outputs[0]?.location ?? '');
    expect(exported).toBe(path.join(dataDir, 'exports', account.name, 'slow', 'Long.mp4'));
    const out = ffprobe(exported);
    expect(videoOf(out)).toMatchObject({ codec_name: 'h264', width: 1280 });
    expect(Math.abs(Number(out.format.duration) - 20)).toBeLessThan(0.3);
    // Nothing half-written is left beside it, and the interrupted attempt's work folder is gone.
    expect(fs.readdirSync(path.dirname(exported))).toEqual(['Long.mp4']);
    expect(fs.readdirSync(path.join(dataDir, 'tmp')).filter((name) => name.startsWith('publish-'))).toEqual(
      [],
    );
  }, 300_000);
});

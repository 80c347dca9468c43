import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AGENT_PUBLISH_MESSAGES, NODE_MESSAGES, PUBLISH_MESSAGES } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { eventually, readMailTexts, testDriver } from './harness.ts';
import { makePublishEdgeWorld, type PublishEdgeWorld } from './publish-edge-world.ts';

/**
 * A publish whose button runs on an edge server is carried out by that edge server's agent (issue 15): the
 * cloud's job hands it over, a real agent over real HTTP claims it, runs the process steps with ffmpeg and
 * exports into a folder of the edge server, and the cloud ends it (post modules, notification).
 */
describe(`publishes on an edge server (${testDriver()})`, () => {
  let x: PublishEdgeWorld;
  const waiting = () => AGENT_PUBLISH_MESSAGES.waiting(x.edgeName);
  const started = () => AGENT_PUBLISH_MESSAGES.started(x.edgeName);
  const publishIds = async (token?: string) => {
    const answer = await x.agentCall('GET', 'publishes?limit=100', { token });
    expect(answer.statusCode, answer.body).toBe(200);
    return (answer.json() as { results: { id: number; status: string }[] }).results;
  };

  beforeAll(async () => {
    x = await makePublishEdgeWorld();
  });
  afterAll(() => x.close());

  it('hands the publish over, and the agent transcodes it into its exports folder; the cloud mails and notifies', async () => {
    await x.button(
      'Edge web',
      { moduleId: 'transcode', options: { format: 'webm', videoBitrate: 300 } },
      'web/../../daily',
      { moduleId: 'email-notify', options: { to: 'desk@example.com' } },
    );
    const id = await x.publish('Edge web');
    const handed = await x.handedOver(id);
    expect(handed).toMatchObject({ status: 'queued', edgeServerId: x.edgeId, progress: null, error: null });
    expect(handed.log).toEqual([waiting()]);

    // What the agent is given: the network's chains with their options, the node's name.
    const [listed, ...rest] = (await x.agentCall('GET', 'publishes').then((r) => r.json())).results;
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({
      id,
      status: 'queued',
      nodeName: 'Interview',
      media: { duration: 2, contentType: 'video/mp4' },
      chains: [
        {
          processes: [{ moduleId: 'transcode', options: { format: 'webm', videoBitrate: 300 } }],
          destination: { moduleId: 'folder-export', options: { folder: 'web/../../daily' } },
        },
      ],
    });

    const agent = x.agent();
    await agent.tick();
    await agent.idle();
    const done = await x.row(id);
    expect(done.status, JSON.stringify(done.log)).toBe('done');
    // The Folder option is a sub-folder of the exports folder that never climbs out of it.
    const exported = path.join(x.exportsDir(), 'web', 'daily', 'Interview.webm');
    expect(done).toMatchObject({
      progress: 100,
      error: null,
      outputs: [{ moduleId: 'folder-export', location: exported }],
    });
    expect(done.log).toEqual([
      waiting(),
      started(),
      'Transcode: done',
      `Export to folder: ${exported}`,
      'Email notification: sent to desk@example.com',
      'Done',
    ]);
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    const info = ffprobe(exported);
    expect(videoOf(info)).toMatchObject({ codec_name: 'vp9', width: 320, height: 180 });
    expect(info.streams.find((stream) => stream.codec_type === 'audio')?.codec_name).toBe('opus');
    expect(Math.abs(Number(info.format.duration) - 2)).toBeLessThan(0.3);
    // Complete or not at all, and the work folder is gone.
    expect(fs.readdirSync(path.dirname(exported))).toEqual(['Interview.webm']);
    expect(fs.readdirSync(x.workDir()).filter((name) => name.startsWith('publish-'))).toEqual([]);
    expect(await publishIds()).toEqual([]);

    expect(await x.notifications()).toContainEqual(
      expect.objectContaining({
        type: 'done',
        message: NODE_MESSAGES.publishedOn(`${x.clipPath} (Edge web)`),
      }),
    );
    const mail = await eventually(
      () => readMailTexts(x.t.config).find((text) => text.includes('To: desk@example.com')),
      20_000,
    );
    expect(mail).toContain('published with Edge web');
    expect(mail).toContain(exported);

    // A second publish of the node never overwrites the first export.
    const again = await x.publish('Edge web');
    await x.handedOver(again);
    await agent.tick();
    await agent.idle();
    expect(await x.row(again)).toMatchObject({
      status: 'done',
      outputs: [{ location: path.join(x.exportsDir(), 'web', 'daily', 'Interview (2).webm') }],
    });
  });

  it('fails a publish with a module the edge server has not installed at once, with the reason', async () => {
    await x.button(
      'Edge marked',
      { moduleId: 'watermark', options: { text: 'Edge', position: 'top-left' } },
      'marked',
    );
    const id = await x.publish('Edge marked');
    const reason = PUBLISH_MESSAGES.locationNotRunnable(
      x.edgeName,
      PUBLISH_MESSAGES.moduleNotInstalled('Watermark'),
    );
    expect(await x.handedOver(id)).toMatchObject({ status: 'failed', edgeServerId: null, error: reason });
    expect((await x.row(id)).log).toEqual([`Failed: ${reason}`]);
    expect((await publishIds()).map((item) => item.id)).not.toContain(id);
    expect(await x.notifications()).toContainEqual(
      expect.objectContaining({
        type: 'problem',
        message: `Publishing ${x.clipPath} with Edge marked failed: ${reason}`,
      }),
    );
  });

  it("refuses calls without a token (401), another edge server's publish (404) and bad input (400)", async () => {
    await x.button('Edge routes', { moduleId: 'as-is', options: {} }, 'routes');
    const id = await x.publish('Edge routes');
    await x.handedOver(id);

    expect((await x.agentCall('GET', 'publishes', { token: null })).statusCode).toBe(401);
    expect((await x.agentCall('POST', `publishes/${id}/claim`, { token: null })).statusCode).toBe(401);

    // Another edge server's agent neither sees it nor reaches it.
    expect(await publishIds(x.otherToken)).toEqual([]);
    const other = { token: x.otherToken };
    expect((await x.agentCall('POST', `publishes/${id}/claim`, other)).statusCode).toBe(404);
    expect((await x.agentCall('GET', `publishes/${id}/source`, other)).statusCode).toBe(404);
    expect(
      (await x.agentCall('POST', `publishes/${id}`, { ...other, body: { progress: 5 } })).statusCode,
    ).toBe(404);
    expect((await x.agentCall('POST', 'publishes/999999/claim')).statusCode).toBe(404);

    for (const url of ['publishes?limit=0', 'publishes?limit=many', 'publishes?status=done'])
      expect((await x.agentCall('GET', url)).statusCode, url).toBe(400);
    expect((await x.agentCall('POST', 'publishes/first/claim')).statusCode).toBe(400);
    for (const body of [
      { progress: 101 },
      { status: 'ended' },
      { log: 'one line' },
      { progress: 5, extra: 1 },
    ])
      expect((await x.agentCall('POST', `publishes/${id}`, { body })).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    // Nothing is reported on a publish before it is claimed.
    expect((await x.agentCall('POST', `publishes/${id}`, { body: { progress: 5 } })).statusCode).toBe(409);
    expect((await x.row(id)).status).toBe('queued');

    const claimed = await x.agentCall('POST', `publishes/${id}/claim`);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().results).toMatchObject({ id, status: 'running', nodeName: 'Interview' });
    expect(await x.row(id)).toMatchObject({ status: 'running', progress: 0 });

    // The source as the cloud stores it, with byte ranges.
    const stored = await x.t.ctx.storage.localCopy(x.sourceKey);
    const bytes = fs.readFileSync(stored.path);
    await stored.release();
    const whole = await x.agentCall('GET', `publishes/${id}/source`);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await x.agentCall('GET', `publishes/${id}/source`, { headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(bytes.subarray(0, 100))).toBe(true);

    const done = await x.agentCall('POST', `publishes/${id}`, { body: { status: 'done' } });
    expect(done.statusCode).toBe(400);
    expect(done.json().error.message).toBe(AGENT_PUBLISH_MESSAGES.doneWithoutOutputs);
    const progress = await x.agentCall('POST', `publishes/${id}`, {
      body: { progress: 40, log: ['Halfway'] },
    });
    expect(progress.json().results).toEqual({ ok: true, status: 'running' });
    expect(await x.row(id)).toMatchObject({ status: 'running', progress: 40 });
    const failed = await x.agentCall('POST', `publishes/${id}`, {
      body: { status: 'failed', error: 'Disk full' },
    });
    expect(failed.json().results).toEqual({ ok: true, status: 'failed' });
    expect(await x.row(id)).toMatchObject({ status: 'failed', error: 'Disk full', progress: null });
    expect((await x.row(id)).log.slice(-2)).toEqual(['Halfway', 'Failed: Disk full']);
    // An ended publish is no longer the agent's.
    expect((await x.agentCall('POST', `publishes/${id}/claim`)).statusCode).toBe(409);
    expect((await x.agentCall('POST', `publishes/${id}`, { body: { progress: 50 } })).statusCode).toBe(409);
  });

  it('leaves the publish of a stopped agent running, and the next agent starts it again', async () => {
    await x.button('Edge stop', { moduleId: 'as-is', options: {} }, 'stop');
    const id = await x.publish('Edge stop');
    await x.handedOver(id);
    // A way to the cloud on which the source never comes: the agent is stopped in the middle of the publish.
    const held: http.ServerResponse[] = [];
    const slow = http.createServer((request, response) => {
      if (request.url?.endsWith('/source')) {
        held.push(response);
        return;
      }
      request.pipe(
        http.request(
          new URL(request.url ?? '/', x.cloudUrl),
          { method: request.method, headers: request.headers },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        ),
      );
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const address = slow.address() as AddressInfo;
      const first = x.agent('stopped', `http://127.0.0.1:${address.port}`);
      await first.tick();
      await eventually(() => (held.length > 0 ? held : undefined), 30_000);
      await first.stop();
      const left = await x.row(id);
      expect(left).toMatchObject({ status: 'running', error: null });
      expect(left.log).toEqual([waiting(), started()]);
      expect(fs.readdirSync(x.workDir('stopped'))).toEqual([]);
    } finally {
      for (const response of held) response.destroy();
      slow.close();
    }
    const next = x.agent('stopped');
    await next.tick();
    await next.idle();
    const done = await x.row(id);
    expect(done.status, JSON.stringify(done.log)).toBe('done');
    expect(done.log.slice(0, 3)).toEqual([
      waiting(),
      started(),
      AGENT_PUBLISH_MESSAGES.startedAgain(x.edgeName),
    ]);
    expect(fs.readdirSync(path.join(x.exportsDir('stopped'), 'stop'))).toEqual(['Interview.mp4']);
  });

  it('starts a publish its agent left running (killed while exporting) again on the next agent, from the beginning', async () => {
    await x.button(
      'Edge resume',
      { moduleId: 'transcode', options: { format: 'mp4', videoBitrate: 400 } },
      'resume',
    );
    const id = await x.publish('Edge resume');
    await x.handedOver(id);
    // An agent claimed it and was killed mid-export: its work folder and a part file are left behind.
    expect((await x.agentCall('POST', `publishes/${id}/claim`)).statusCode).toBe(200);
    const state = 'killed';
    fs.mkdirSync(path.join(x.workDir(state), `publish-${id}`), { recursive: true });
    fs.writeFileSync(path.join(x.workDir(state), `publish-${id}`, 'source'), 'half a download');
    const folder = path.join(x.exportsDir(state), 'resume');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'Interview.mp4.part'), 'half an export');
    expect(await publishIds()).toEqual([expect.objectContaining({ id, status: 'running' })]);

    const next = x.agent(state);
    await next.tick();
    await next.idle();
    const done = await x.row(id);
    expect(done.status, JSON.stringify(done.log)).toBe('done');
    const exported = path.join(folder, 'Interview.mp4');
    expect(done.log).toEqual([
      waiting(),
      started(),
      AGENT_PUBLISH_MESSAGES.startedAgain(x.edgeName),
      'Transcode: done',
      `Export to folder: ${exported}`,
      'Done',
    ]);
    const info = ffprobe(exported);
    expect(videoOf(info)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    expect(Math.abs(Number(info.format.duration) - 2)).toBeLessThan(0.3);
    expect(fs.readdirSync(folder)).toEqual(['Interview.mp4']);
    expect(fs.readdirSync(x.workDir(state))).toEqual([]);
  });
});

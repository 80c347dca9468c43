import path from 'node:path';
import {
  AGENT_PUBLISH_MESSAGES,
  NODE_MESSAGES,
  type NotEnoughPublishData,
  newButtonBody,
  type Phase,
  PUBLISH_RUN_MESSAGES,
  type Publish,
  type RecycledButton,
  type TransferResult,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishes } from '../src/modules/publishing/tables.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { eventually, readMailTexts, testDriver } from './harness.ts';
import { postNodes } from './nodes-world.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { createButton } from './publishing-world.ts';

/**
 * Publishing that publishes (issue 15): a node dropped on /{account}/Publish/{button} queues a publish per
 * node; a cloud job runs the button's network with ffmpeg into its destination (a folder export here),
 * records its log and notifies who published.
 */
describe(`publish runs (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let t: PublishRunsWorld['t'];
  let w: PublishRunsWorld['w'];
  let clipPath = '';
  let folderPath = '';
  const button: PublishRunsWorld['button'] = (...args) => world.button(...args);
  const publish: PublishRunsWorld['publish'] = (...args) => world.publish(...args);
  const settled: PublishRunsWorld['settled'] = (id) => world.settled(id);

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    ({ t, w, clipPath, folderPath } = world);
  });
  afterAll(() => world.close());

  it('publishes a node with a transcode into an exported folder, with its log and a Done notification', async () => {
    await button('Web', { moduleId: 'transcode', options: { format: 'webm', videoBitrate: 400 } });
    const dst = `/${w.account.name}/Publish/Web`;
    const types = await postNodes<{ results: { operations: string[] } }>(
      w.editor.client,
      '/api/nodesTransferType',
      { srcPath: clipPath, dstPath: dst },
    );
    expect(types.body.results.operations).toEqual(['publish']);

    const answer = await publish(w.editor.client, clipPath, dst);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.results).toMatchObject({
      operation: 'publish',
      message: NODE_MESSAGES.publishedOn(dst),
    });
    const [id] = answer.body.results.publishIds as [number];
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'done', progress: 100, error: null });
    expect(done?.log).toEqual([
      'Started',
      'Transcode: done',
      `Export to folder: ${done?.outputs[0]?.location}`,
      'Done',
    ]);
    const exported = path.join(t.config.dataDir, done?.outputs[0]?.location as string);
    expect(done?.outputs[0]?.location).toBe(
      path.join('exports', w.account.name, 'web', 'Web', 'Interview.webm'),
    );
    const info = ffprobe(exported);
    expect(videoOf(info)).toMatchObject({ codec_name: 'vp9', width: 320, height: 240 });
    expect(Number(info.format.duration)).toBeCloseTo(2, 0);

    // A second publish of the same node never overwrites the first export.
    const again = await publish(w.editor.client, clipPath, dst);
    const second = await settled((again.body.results.publishIds as [number])[0]);
    expect(second?.outputs[0]?.location).toBe(
      path.join('exports', w.account.name, 'web', 'Web', 'Interview (2).webm'),
    );

    const notifications = await w.editor.client.get<{ results: { type: string; message: string }[] }>(
      `/api/users/${w.editor.user.id}/notifications`,
    );
    expect(notifications.body.results).toContainEqual(
      expect.objectContaining({
        type: 'done',
        message: NODE_MESSAGES.publishedOn(`${clipPath} (Web)`),
        // The button's place in the media tree, where its published items show.
        link: `/accounts/${w.account.name}/media?path=${encodeURIComponent(`/${w.account.name}/Publish/Web`)}`,
      }),
    );
  });

  it('burns a watermark and fails what it cannot do yet with the reason, notifying a problem', async () => {
    await button('Marked', { moduleId: 'watermark', options: { text: 'Media Cloud', position: 'top-left' } });
    const marked = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Marked`);
    const done = await settled((marked.body.results.publishIds as [number])[0]);
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    expect(
      videoOf(ffprobe(path.join(t.config.dataDir, done?.outputs[0]?.location as string)))?.codec_name,
    ).toBe('h264');

    await button('Subtitled', { moduleId: 'burn-subtitles', options: { language: 'en' } });
    const subtitled = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Subtitled`);
    const failed = await settled((subtitled.body.results.publishIds as [number])[0]);
    expect(failed).toMatchObject({
      status: 'failed',
      // The node has no English subtitles (subtitles.test.ts burns some in).
      error: PUBLISH_RUN_MESSAGES.noSubtitles('Interview', 'English'),
    });
    const notifications = await w.editor.client.get<{ results: { type: string; message: string }[] }>(
      `/api/users/${w.editor.user.id}/notifications`,
    );
    expect(
      notifications.body.results.some((n) => n.type === 'problem' && n.message.includes('Subtitled')),
    ).toBe(true);

    // A button that runs on an edge server waits, queued, for its agent (publish-edge.test.ts runs one).
    const edgeBody = newButtonBody({
      name: 'On the edge',
      processModuleId: 'as-is',
      destinationModuleId: 'folder-export',
    });
    for (const node of (edgeBody.phases[0] as Phase).phase.network.nodes)
      if (node.moduleId === 'folder-export') node.options = { folder: 'edge' };
    await createButton(w.accountManager.client, 'accounts', w.account.id, {
      ...edgeBody,
      location: { type: 'edge', id: w.liveEdge.id },
    });
    const onEdge = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/On the edge`);
    const edgeId = (onEdge.body.results.publishIds as [number])[0];
    const waiting = await eventually(async () => {
      const [row] = await t.ctx.db.select().from(publishes).where(eq(publishes.id, edgeId));
      return row?.log.includes(AGENT_PUBLISH_MESSAGES.waiting(w.liveEdge.name)) ? row : undefined;
    }, 60_000);
    expect(waiting).toMatchObject({ status: 'queued', edgeServerId: w.liveEdge.id, error: null });
  });

  it('refuses folders (400), viewers (403), unknown buttons (400) and hidden nodes (404), queueing nothing', async () => {
    await button('Refusals', { moduleId: 'as-is', options: {} });
    const dst = `/${w.account.name}/Publish/Refusals`;
    const before = (await t.ctx.db.select().from(publishes)).length;
    const folder = await publish(w.editor.client, folderPath, dst);
    expect(folder.status).toBe(400);
    expect(await publish(w.editor.client, [clipPath, folderPath], dst).then((r) => r.status)).toBe(400);
    expect((await publish(w.viewer.client, clipPath, dst)).status).toBe(403);
    const unknown = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Nope`);
    expect(unknown.status).toBe(400);
    expect((await publish(w.outsider.client, clipPath, dst)).status).toBe(404);
    expect((await publish(w.editor.client, clipPath, dst.replace('Publish', 'Publish/x'))).status).toBe(400);
    const viewerTypes = await postNodes<{ results: { operations: string[] } }>(
      w.viewer.client,
      '/api/nodesTransferType',
      { srcPath: clipPath, dstPath: dst },
    );
    expect(viewerTypes.body.results.operations).toEqual([]);
    expect((await t.ctx.db.select().from(publishes)).length).toBe(before);
  });
  it("lists a button's published items, shows one, and republishes it as a new item", async () => {
    const buttonId = await button('Listed', { moduleId: 'as-is', options: {} });
    const first = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Listed`);
    const [id] = first.body.results.publishIds as [number];
    await settled(id);
    const list = await w.editor.client.get<{ results: Publish[]; total: number; channel: string }>(
      `/api/publishButtons/${buttonId}/publishes`,
    );
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, channel: `accounts/${w.account.id}/publishes` });
    expect(list.body.results[0]).toMatchObject({ id, status: 'done', progress: 100, buttonId });
    const one = await w.editor.client.get<{ results: Publish }>(`/api/publishes/${id}`);
    expect(one.body.results.outputs[0]?.location).toBe(
      path.join('exports', w.account.name, 'web', 'Listed', 'Interview.mp4'),
    );

    const again = await w.editor.client.post<{ results: Publish }>(`/api/publishes/${id}/republish`, {});
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.results).toMatchObject({ status: 'queued', buttonId });
    const rerun = await settled(again.body.results.id);
    expect(rerun?.outputs[0]?.location).toBe(
      path.join('exports', w.account.name, 'web', 'Listed', 'Interview (2).mp4'),
    );
    const status = await w.accountManager.client.get<{ results: { numberOfPublishedItems: number } }>(
      `/api/publishButtons/${buttonId}/status`,
    );
    expect(status.body.results.numberOfPublishedItems).toBe(2);

    // Viewers read but may not republish; strangers see nothing; unknown ids are 404, bad ones 400.
    expect((await w.viewer.client.get(`/api/publishes/${id}`)).status).toBe(200);
    expect((await w.viewer.client.post(`/api/publishes/${id}/republish`, {})).status).toBe(403);
    expect((await w.outsider.client.get(`/api/publishes/${id}`)).status).toBe(404);
    expect((await w.outsider.client.get(`/api/publishButtons/${buttonId}/publishes`)).status).toBe(404);
    expect((await w.editor.client.get('/api/publishes/999999')).status).toBe(404);
    expect((await w.editor.client.post('/api/publishes/999999/republish', {})).status).toBe(404);
    expect((await w.editor.client.get('/api/publishes/abc')).status).toBe(400);
    expect((await w.editor.client.get(`/api/publishButtons/${buttonId}/publishes?limit=0`)).status).toBe(400);
  });
  it('keeps a trashed button with its items in the Recycle Bin, restores them together, and purges for good', async () => {
    const buttonId = await button('Binned', { moduleId: 'as-is', options: {} });
    const published = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Binned`);
    await settled((published.body.results.publishIds as [number])[0]);
    const manager = w.accountManager.client;
    const bin = () => manager.get<{ results: RecycledButton[] }>(`/api/accounts/${w.account.id}/recycleBin`);
    expect((await manager.post(`/api/publishButtons/${buttonId}/restore`, {})).status).toBe(409);
    expect((await manager.post(`/api/publishButtons/${buttonId}/trash`, {})).status).toBe(200);
    expect((await bin()).body.results).toContainEqual(
      expect.objectContaining({ id: buttonId, name: 'Binned', publishedItems: 1 }),
    );
    // Editors neither see nor change the bin; strangers are told nothing.
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/recycleBin`)).status).toBe(403);
    expect((await w.editor.client.post(`/api/publishButtons/${buttonId}/purge`, {})).status).toBe(403);
    expect((await w.outsider.client.post(`/api/publishButtons/${buttonId}/restore`, {})).status).toBe(404);
    expect((await manager.post('/api/publishButtons/999999/restore', {})).status).toBe(404);
    expect((await manager.post('/api/publishButtons/x/purge', {})).status).toBe(400);

    expect((await manager.post(`/api/publishButtons/${buttonId}/restore`, {})).status).toBe(200);
    expect((await bin()).body.results.some((entry) => entry.id === buttonId)).toBe(false);
    const status = await manager.get<{ results: { numberOfPublishedItems: number } }>(
      `/api/publishButtons/${buttonId}/status`,
    );
    expect(status.body.results.numberOfPublishedItems).toBe(1);

    await manager.post(`/api/publishButtons/${buttonId}/trash`, {});
    expect((await manager.post(`/api/publishButtons/${buttonId}/purge`, {})).status).toBe(200);
    expect((await bin()).body.results.some((entry) => entry.id === buttonId)).toBe(false);
    expect(await t.ctx.db.select().from(publishes).where(eq(publishes.buttonId, buttonId))).toEqual([]);
  });
  it('asks for the options a button leaves empty (notEnoughPublishData) and runs with the answer', async () => {
    // A watermark without its text: each publish must say what to burn in.
    await button('Ask', { moduleId: 'watermark', options: { position: 'bottom-left' } });
    const dst = `/${w.account.name}/Publish/Ask`;
    const asked = await publish(w.editor.client, clipPath, dst);
    expect(asked.status).toBe(400);
    const error = (
      asked.body as unknown as { error: { code: string; message: string; data: NotEnoughPublishData } }
    ).error;
    expect(error).toMatchObject({
      code: NODE_MESSAGES.notEnoughPublishData,
      message: PUBLISH_RUN_MESSAGES.optionsNeeded,
      data: { nodes: [clipPath], title: PUBLISH_RUN_MESSAGES.optionsTitle('Ask') },
    });
    expect(error.data.schema.map((field) => [field.name, field.type, field.required])).toEqual([
      ['text', 'text', true],
    ]);

    const answered = await postNodes<{ results: TransferResult }>(w.editor.client, '/api/nodesTransfer', {
      srcPath: clipPath,
      dstPath: dst,
      operation: 'publish',
      userPublishData: { text: 'Exclusive' },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const done = await settled((answered.body.results.publishIds as [number])[0]);
    expect(done).toMatchObject({ status: 'done', options: { text: 'Exclusive' } });
  });
  it('runs the post modules after the destination: an email notification is mailed with where it went', async () => {
    const body = newButtonBody({
      name: 'Mailed',
      processModuleId: 'as-is',
      destinationModuleId: 'folder-export',
    });
    const [phase] = body.phases as [Phase];
    for (const node of phase.phase.network.nodes)
      if (node.moduleId === 'folder-export') node.options = { folder: 'mailed' };
    phase.phase.network.nodes.push({
      nodeLocalId: 3,
      moduleId: 'email-notify',
      options: { to: 'desk@example.com' },
    });
    phase.phase.network.connections.push([1, 3]);
    phase.phase.postNodes = [3];
    await createButton(w.accountManager.client, 'accounts', w.account.id, body);
    const answer = await publish(w.editor.client, clipPath, `/${w.account.name}/Publish/Mailed`);
    const done = await settled((answer.body.results.publishIds as [number])[0]);
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    expect(done?.log).toContain('Email notification: sent to desk@example.com');
    const mail = await eventually(
      () => readMailTexts(t.config).find((text) => text.includes('To: desk@example.com')),
      20_000,
    );
    expect(mail).toContain('published with Mailed');
    expect(mail).toContain(path.join('exports', w.account.name, 'mailed', 'Interview.mp4'));
  });
});

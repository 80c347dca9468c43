import fs from 'node:fs';
import path from 'node:path';
import type { Upload, Webhook } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedDownloadUrl } from '../src/modules/nodes/download-links.ts';
import { ffprobe, makeClip } from './agent-ingest-world.ts';
import { eventually, multipartFile, type Results, testDriver } from './harness.ts';
import { postNodes } from './nodes-world.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { type Received, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

type WithSecret = Results<Webhook & { secret: string }>;
type NodeData = {
  node: { id: number; name: string; path: string; link: string };
  account: { id: number; name: string };
  media?: { id: number; downloadUrl: string | null; originalUrl: string | null; linksExpireAt: string };
};

/**
 * What webhooks hear of real changes (issue 33): an upload, a publish, a rename and a move, a user; each
 * delivery checked with the standardwebhooks library; an account's webhook hears only its account.
 */
describe(`webhook events (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let ours: WebhookReceiver;
  let theirs: WebhookReceiver;
  let cloud: WebhookReceiver;
  const secrets = new Map<WebhookReceiver, string>();

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    [ours, theirs, cloud] = await Promise.all([
      startWebhookReceiver(),
      startWebhookReceiver(),
      startWebhookReceiver(),
    ]);
    const { w } = world;
    const every = [
      'node.created',
      'node.updated',
      'node.moved',
      'upload.completed',
      'publish.started',
      'publish.done',
      'publish.failed',
      'user.created',
      'user.disabled',
    ];
    const make = async (receiver: WebhookReceiver, url: string) => {
      const made = await w.admin.client.post<WithSecret>(url, { url: receiver.url, events: every });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      secrets.set(receiver, made.body.results.secret);
    };
    await make(ours, `/api/accounts/${w.account.id}/webhooks`);
    await make(theirs, `/api/accounts/${w.otherAccount.id}/webhooks`);
    await make(cloud, '/api/webhooks');
  });
  afterAll(async () => {
    await Promise.all([ours, theirs, cloud].map((receiver) => receiver.close()));
    await world.close();
  });

  /** The verified payloads of a type once `count` have arrived. */
  const heard = async (receiver: WebhookReceiver, type: string, count = 1) => {
    const requests = await eventually(() => {
      const found = receiver.ofType(type);
      return found.length >= count ? found : undefined;
    }, 60_000);
    return requests.map((request: Received) => receiver.verified(secrets.get(receiver) as string, request));
  };
  /** A GET as another system makes it: no session, no cookie. */
  const fetchWithoutSession = (url: string) =>
    world.t.app.inject({ method: 'GET', url: url.replace(world.t.config.publicUrl, '') });

  it('an upload gives node.created and, once playable, upload.completed with a proxy link that works without a session', async () => {
    const { w, t } = world;
    const file = path.join(world.work, 'upload.mp4');
    makeClip(file, { seconds: 1, size: '320x240' });
    const { body, headers } = multipartFile({ fileName: 'upload.mp4', content: fs.readFileSync(file) });
    const sent = await w.editor.client.request<Results<Upload>>({
      method: 'POST',
      url: `/api/accounts/${w.account.id}/uploads?uploadname=Rushes&location=Hooks`,
      body,
      headers,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const [created] = (await heard(ours, 'node.created')).filter(
      (payload) => (payload.data as NodeData).node.name === 'Rushes',
    );
    expect(created?.data).toMatchObject({
      node: { path: `/${w.account.name}/Hooks/Rushes` },
      account: { id: w.account.id, name: w.account.name },
    });
    const [completed] = await heard(ours, 'upload.completed');
    const data = completed?.data as NodeData & { upload: { id: number; fileName: string } };
    expect(data.upload).toMatchObject({ id: sent.body.results.id, fileName: 'upload.mp4' });
    expect(data.node.link).toBe(
      `${t.config.publicUrl}/accounts/${encodeURIComponent(w.account.name)}/media?path=${encodeURIComponent(`/${w.account.name}/Hooks`)}`,
    );
    const downloadUrl = data.media?.downloadUrl as string;
    expect(downloadUrl).toContain('/download?file=proxy&');
    expect(Date.parse(data.media?.linksExpireAt ?? '') - Date.now()).toBeGreaterThan(23 * 3600_000);
    // The proxy, played as a file: H.264 of the planned size.
    const proxy = await fetchWithoutSession(downloadUrl);
    expect(proxy.statusCode).toBe(200);
    const copy = path.join(world.work, 'downloaded.mp4');
    fs.writeFileSync(copy, proxy.rawPayload);
    const video = ffprobe(copy).streams.find((stream) => stream.codec_type === 'video');
    expect(video?.codec_name).toBe('h264');
    // A byte range answers exactly those bytes.
    const range = await world.t.app.inject({
      method: 'GET',
      url: downloadUrl.replace(t.config.publicUrl, ''),
      headers: { range: 'bytes=0-99' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(proxy.rawPayload.subarray(0, 100))).toBe(true);
    // The original the cloud keeps, too; a changed, another media's or an expired link is refused.
    expect((await fetchWithoutSession(data.media?.originalUrl as string)).statusCode).toBe(200);
    expect((await fetchWithoutSession(downloadUrl.replace(/signature=./, 'signature=x'))).statusCode).toBe(
      403,
    );
    const mediaId = data.media?.id as number;
    expect(
      (await fetchWithoutSession(downloadUrl.replace(`/media/${mediaId}/`, `/media/${mediaId + 1}/`)))
        .statusCode,
    ).toBe(403);
    const missing = signedDownloadUrl(t.ctx, 999_999, 'proxy', new Date(Date.now() + 60_000));
    expect((await fetchWithoutSession(missing)).statusCode).toBe(404);
    expect((await fetchWithoutSession(`/api/media/${mediaId}/download?file=proxy`)).statusCode).toBe(400);
    const expired = signedDownloadUrl(t.ctx, mediaId, 'proxy', new Date(Date.now() - 1000));
    expect((await fetchWithoutSession(expired)).statusCode).toBe(403);
    // The cloud's webhook heard it too; the other account's nothing.
    await heard(cloud, 'upload.completed');
    expect(theirs.received).toEqual([]);
  });

  it('a publish gives publish.started then publish.done, with the node and its link', async () => {
    await world.button('Hooked export', { moduleId: 'as-is', options: {} });
    const done = await world.publishClip('Hooked export');
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    const [started] = await heard(ours, 'publish.started');
    const [finished] = await heard(ours, 'publish.done');
    expect(started?.data).toMatchObject({
      publish: { id: done?.id, button: { name: 'Hooked export' } },
      node: { path: world.clipPath },
    });
    expect(finished?.data).toMatchObject({ publish: { id: done?.id, status: 'done' } });
    // Deliveries are sent side by side and may arrive in any order: the event's own time orders them.
    expect(Date.parse(finished?.timestamp ?? '')).toBeGreaterThanOrEqual(
      Date.parse(started?.timestamp ?? ''),
    );
    expect(theirs.received).toEqual([]);
  });

  it('a rename gives node.updated and a move node.moved', async () => {
    const { w } = world;
    const folder = await postNodes(w.editor.client, '/api/nodes', {
      parentPath: `/${w.account.name}`,
      name: 'Hook target',
      type: 'folder',
    });
    expect(folder.status).toBe(200);
    const renamed = await postNodes(w.editor.client, '/api/nodes', {
      path: `/${w.account.name}/Hooks/Rushes`,
      name: 'Rushes renamed',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const [updated] = await heard(ours, 'node.updated');
    expect(updated?.data).toMatchObject({
      node: { name: 'Rushes renamed' },
      changed: ['name'],
      previousName: 'Rushes',
    });
    const moved = await postNodes(w.editor.client, '/api/nodesTransfer', {
      srcPath: `/${w.account.name}/Hooks/Rushes renamed`,
      dstPath: `/${w.account.name}/Hook target`,
      operation: 'move',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [move] = await heard(ours, 'node.moved');
    expect(move?.data).toMatchObject({
      node: { path: `/${w.account.name}/Hook target/Rushes renamed` },
      from: `/${w.account.name}/Hooks/Rushes renamed`,
    });
    expect(theirs.received).toEqual([]);
  });

  it("a user's creation and disabling are the cloud's events", async () => {
    const { w } = world;
    const made = await w.siteManager.client.post<Results<{ success: boolean; username: string }[]>>(
      '/api/users',
      {
        users: [{ fullname: 'Hooked Person', company: 'Northwind', email: 'hooked.person@example.com' }],
        siteId: w.site.id,
        dryRun: false,
      },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const [created] = await heard(cloud, 'user.created');
    if (!created) throw new Error('user.created did not arrive');
    const user = (created.data as { user: { id: number; email: string } }).user;
    expect(user.email).toBe('hooked.person@example.com');
    const disabled = await w.admin.client.post(`/api/users/${user.id}`, { disabled: true });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    const [off] = await heard(cloud, 'user.disabled');
    expect(off?.data).toMatchObject({ user: { id: user.id, disabled: true } });
    expect(ours.ofType('user.created')).toEqual([]);
  });
});

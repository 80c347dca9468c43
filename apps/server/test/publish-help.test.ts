import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  PUBLISH_HELP_MESSAGES,
  type Publish,
  publishHelpLink,
  type ServerFormAction,
  type TransferResult,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishConnections } from '../src/modules/publishing/tables.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { type FakeGoogle, startFakeGoogle } from './fake-google.ts';
import { type TestClient, testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { ctxUrl } from './publishing-world.ts';

type Answer = { status: number; body: { results: ServerFormAction } };

/**
 * Publish help (spec3 §4, DESIGN "Publishing") and the YouTube destination: a failed YouTube publish's help
 * walks through connecting the account's channel with Google's OAuth (set-options → open-url → check →
 * republish), and the publish uploads with YouTube's resumable protocol to a fake Google on 127.0.0.1.
 */
describe(`publish help and YouTube (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let google: FakeGoogle;
  let failedId = 0;
  const helpUrl = (id: number) => `/api/publishes/${id}/help`;

  /** What the web client does: call again with the options of each set-options until the answer is another. */
  const followHelp = async (client: TestClient, id: number, first: Answer) => {
    const seen: ServerFormAction[] = [];
    let answer = first;
    for (;;) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      seen.push(answer.body.results);
      if (answer.body.results.action !== 'set-options') return seen;
      answer = await client.post(helpUrl(id), { options: answer.body.results.options });
    }
  };

  const publishTo = async (button: string) => {
    const answer = await world.publish(
      world.w.editor.client,
      world.clipPath,
      `/${world.w.account.name}/Publish/${button}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return ((answer.body as { results: TransferResult }).results.publishIds as [number])[0];
  };

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    google = await startFakeGoogle({ cutAfterBytes: 20_000 });
    await world.button(
      'Tube',
      { moduleId: 'as-is', options: {} },
      {
        moduleId: 'youtube',
        options: { title: 'Interview', description: 'From the newsroom', privacy: 'unlisted' },
      },
    );
  });
  afterAll(async () => {
    await world.close();
    await google.close();
  });

  it('fails a YouTube publish on a cloud without a Google client, and its help says what to set', async () => {
    world.t.config.google = undefined;
    failedId = await publishTo('Tube');
    expect(await world.settled(failedId)).toMatchObject({
      status: 'failed',
      error: PUBLISH_HELP_MESSAGES.youtubeNotConfigured,
    });
    // Who published is told, with a link to the item's help.
    const notifications = await world.w.editor.client.get<{
      results: { type: string; link: string | null }[];
    }>(`/api/users/${world.w.editor.user.id}/notifications`);
    expect(notifications.body.results).toContainEqual(
      expect.objectContaining({ type: 'problem', link: publishHelpLink(failedId) }),
    );
    const help = await world.w.editor.client.get<{ results: ServerFormAction }>(helpUrl(failedId));
    expect(help.body).toEqual({
      results: {
        action: 'display-message',
        type: 'danger',
        message: PUBLISH_HELP_MESSAGES.youtubeNotConfigured,
      },
    });
    const connect = await world.w.accountManager.client.post(
      ctxUrl('accounts', world.w.account.id, 'publishModules/youtube/actions/connect'),
      { options: {} },
    );
    expect(connect.body).toMatchObject({ results: { action: 'display-message', type: 'danger' } });
  });

  it('connects the channel through the help loop, publishes again, and the upload resumes after a cut', async () => {
    world.t.config.google = google.google;
    const { editor, viewer } = world.w;
    const seen = await followHelp(editor.client, failedId, await editor.client.get(helpUrl(failedId)));
    expect(seen.map((answer) => answer.action)).toEqual(['set-options', 'open-url']);
    const consent = new URL((seen[1] as { url: string }).url);
    expect(consent.origin + consent.pathname).toBe(google.google.authUrl);
    expect(Object.fromEntries(consent.searchParams)).toMatchObject({
      client_id: 'google-client',
      redirect_uri: `${world.t.config.publicUrl}/api/publishing/youtube/callback`,
      response_type: 'code',
      access_type: 'offline',
    });
    expect(consent.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/youtube.upload');

    // Back before agreeing: nothing is connected yet, and the loop stops with a warning.
    const early = await editor.client.post<{ results: ServerFormAction }>(helpUrl(failedId), {
      options: { step: 'check-youtube' },
    });
    expect(early.body.results).toEqual({
      action: 'display-message',
      type: 'warning',
      message: PUBLISH_HELP_MESSAGES.youtubeStillNotConnected,
    });

    // Google agrees and sends the popup back with a code; only the person who asked may use it.
    const agreed = await fetch(consent, { redirect: 'manual' });
    const back = new URL(agreed.headers.get('location') as string);
    const callback = `${back.pathname}${back.search}`;
    const stranger = await viewer.client.get<string>(callback);
    expect(stranger.status).toBe(400);
    const forged = await editor.client.get<string>(
      callback.replace(/state=[^&]+/, 'state=1.2.9999999999999.x'),
    );
    expect(forged.status).toBe(400);
    const connected = await editor.client.get<string>(callback);
    expect(connected.status, String(connected.body)).toBe(200);
    expect(connected.body).toBe(
      PUBLISH_HELP_MESSAGES.youtubeConnected('Newsroom Channel', world.w.account.name),
    );
    expect(connected.headers['content-type']).toContain('text/plain');

    // The web's Continue sends the last options again (connect-youtube): connected now, so it publishes again.
    const after = await followHelp(
      editor.client,
      failedId,
      await editor.client.post(helpUrl(failedId), { options: { step: 'connect-youtube' } }),
    );
    expect(after.map((answer) => answer.action)).toEqual(['set-options', 'display-message']);
    const again = Number(/item (\d+)/.exec((after[1] as { message: string }).message)?.[1]);
    expect(after[1]).toEqual({
      action: 'display-message',
      type: 'success',
      message: PUBLISH_HELP_MESSAGES.publishingAgain(again),
    });
    const done = await world.settled(again);
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    const [upload] = google.state.uploads;
    expect(done?.outputs).toEqual([
      { moduleId: 'youtube', location: `https://www.youtube.com/watch?v=${upload?.id}` },
    ]);
    expect(upload?.metadata).toEqual({
      snippet: { title: 'Interview', description: 'From the newsroom' },
      status: { privacyStatus: 'unlisted' },
    });
    expect(upload?.contentType).toBe('video/mp4');
    // The cut upload carried on where YouTube stopped: the video is the whole source, byte for byte.
    expect(google.state.cutAfterBytes).toBeUndefined();
    expect(google.state.sessions.size).toBe(1);
    const received = path.join(world.work, 'received.mp4');
    fs.writeFileSync(received, upload?.bytes as Buffer);
    const source = await world.t.ctx.storage.localCopy(
      `media/accounts/${world.w.account.id}/test/interview.mp4`,
    );
    const digest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    expect(digest(received)).toBe(digest(source.path));
    await source.release();
    const probe = ffprobe(received);
    expect(videoOf(probe)?.codec_name).toBe('h264');
    expect(Number(probe.format?.duration)).toBeCloseTo(2, 0);

    const helpDone = await editor.client.get<{ results: ServerFormAction }>(helpUrl(again));
    expect(helpDone.body.results).toMatchObject({ action: 'display-message', type: 'success' });
  });

  it('a revoked grant fails the publish with what to do and forgets the connection', async () => {
    google.state.refreshTokens.clear();
    const id = await publishTo('Tube');
    expect(await world.settled(id)).toMatchObject({
      status: 'failed',
      error: PUBLISH_HELP_MESSAGES.youtubeRevoked,
    });
    expect(await world.t.ctx.db.select().from(publishConnections)).toEqual([]);
    const help = await world.w.editor.client.get<{ results: ServerFormAction }>(helpUrl(id));
    expect(help.body.results).toEqual({ action: 'set-options', options: { step: 'connect-youtube' } });
    // The module's Connect button opens the same consent screen.
    const connect = await world.w.accountManager.client.post<{ results: ServerFormAction }>(
      ctxUrl('accounts', world.w.account.id, 'publishModules/youtube/actions/connect'),
      { options: {} },
    );
    expect(connect.body.results).toMatchObject({ action: 'open-url' });
    expect((connect.body.results as { url: string }).url).toContain(google.google.authUrl);
  });

  it('refuses bad input (400), who may not publish (403), and unknown or hidden items (404)', async () => {
    const { editor, viewer, outsider } = world.w;
    for (const bad of [
      editor.client.get(`${helpUrl(failedId)}?options=not-json`),
      editor.client.get(`${helpUrl(failedId)}?options=${encodeURIComponent('{"step":"nope"}')}`),
      editor.client.post(helpUrl(failedId), { options: { step: 'nope' } }),
      editor.client.post(helpUrl(failedId), { options: {}, extra: 1 }),
      editor.client.post(helpUrl(failedId), { options: [] }),
      editor.client.post(helpUrl(failedId), { options: {}, publishMediaId: 999_999 }),
      editor.client.get('/api/publishes/abc/help'),
    ])
      expect((await bad).status).toBe(400);
    for (const step of ['connect-youtube', 'check-youtube', 'republish'])
      expect((await viewer.client.post(helpUrl(failedId), { options: { step } })).status).toBe(403);
    expect((await viewer.client.get(helpUrl(failedId))).status).toBe(200);
    expect((await outsider.client.get(helpUrl(failedId))).status).toBe(404);
    expect((await editor.client.get(helpUrl(999_999))).status).toBe(404);
    expect((await world.t.client().get(helpUrl(failedId))).status).toBe(401);
    const item = await editor.client.get<{ results: Publish }>(`/api/publishes/${failedId}`);
    expect(item.body.results.status).toBe('failed');
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CHANNELS,
  PUBLISH_RUN_MESSAGES,
  SUBTITLE_MAX_BYTES,
  SUBTITLE_MESSAGES,
  type Subtitle,
} from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaSubtitles, nodes } from '../src/modules/nodes/tables.ts';
import { type Collection, type ErrorBody, type Results, type TestClient, testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';

const SRT = '1\n00:00:00,500 --> 00:00:01,300\nHELLO SUBTITLES\n';
const VTT = 'WEBVTT\n\n00:00.500 --> 00:01.300\nBONJOUR\n';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

/** A frame at `seconds` as 160x120 grey bytes. */
const frame = (file: string, seconds: number) =>
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', '160x120', '-'],
  ]);
/** Pixels of the bottom half that differ clearly between two frames. */
const changedBelow = (a: Buffer, b: Buffer) => {
  let count = 0;
  for (let at = 60 * 160; at < 120 * 160; at++) if (Math.abs((a[at] ?? 0) - (b[at] ?? 0)) > 40) count++;
  return count;
};

/**
 * Subtitles attached to a media (a file per language: SubRip or WebVTT) and the burn-subtitles module that
 * draws them into a publish.
 */
describe(`subtitles of media (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let mediaId = 0;
  const url = (language?: string, id = mediaId) =>
    `/api/media/${id}/subtitles${language ? `/${language}` : ''}`;
  const put = (client: TestClient, language: string, body: string | Buffer, type = 'application/x-subrip') =>
    client.request<Results<Subtitle> & ErrorBody>({
      method: 'PUT',
      url: url(language),
      body,
      headers: { 'content-type': type },
    });
  const list = async (client: TestClient) => client.get<Collection<Subtitle>>(url());
  const stored = async (language: string) =>
    (
      await world.t.ctx.db
        .select()
        .from(mediaSubtitles)
        .where(and(eq(mediaSubtitles.mediaId, mediaId), eq(mediaSubtitles.language, language as 'en')))
    )[0];

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    const [node] = await world.t.ctx.db
      .select({ mediaId: nodes.mediaId })
      .from(nodes)
      .where(and(eq(nodes.accountId, world.w.account.id), eq(nodes.path, '/News/Interview')));
    mediaId = node?.mediaId as number;
  });
  afterAll(() => world.close());

  it('attaches, lists, replaces and removes subtitles per language, the files kept in the storage', async () => {
    const { w, t } = world;
    expect((await list(w.editor.client)).body).toEqual({
      results: [],
      total: 0,
      channel: CHANNELS.nodes(w.account.id),
    });

    const english = await put(w.editor.client, 'en', SRT, 'text/plain');
    expect(english.status, JSON.stringify(english.body)).toBe(200);
    expect(english.body.results).toMatchObject({ language: 'en', format: 'srt', size: SRT.length });
    const french = await put(w.editor.client, 'fr', Buffer.from(`\uFEFF${VTT}`), 'text/vtt');
    expect(french.body.results).toMatchObject({ language: 'fr', format: 'vtt' });
    // A viewer of the account lists them.
    const listed = await list(w.viewer.client);
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((s) => [s.language, s.format])).toEqual([
      ['en', 'srt'],
      ['fr', 'vtt'],
    ]);

    // Stored through the storage, under DATA_DIR but apart from anything served.
    const first = (await stored('en'))?.storagePath as string;
    expect(first).toMatch(new RegExp(`^subtitles/accounts/${w.account.id}/media/${mediaId}/`));
    expect(fs.readFileSync(path.join(t.config.dataDir, first), 'utf8')).toBe(SRT);

    // A new English file replaces the old one, whose file goes.
    const replaced = await put(w.editor.client, 'en', `${SRT}\n2\n00:00:01,500 --> 00:00:01,900\nBYE\n`);
    expect(replaced.status).toBe(200);
    const second = (await stored('en'))?.storagePath as string;
    expect(second).not.toBe(first);
    expect(fs.existsSync(path.join(t.config.dataDir, first))).toBe(false);
    expect(fs.readFileSync(path.join(t.config.dataDir, second), 'utf8')).toContain('BYE');

    const removed = await w.editor.client.request({ method: 'DELETE', url: url('fr') });
    expect(removed.status).toBe(200);
    expect((await list(w.editor.client)).body.results.map((s) => s.language)).toEqual(['en']);
    expect((await w.editor.client.request({ method: 'DELETE', url: url('fr') })).status).toBe(404);
  });

  it('refuses what is not a subtitle file (400), an unknown language (400) and a file over 1 MB (413)', async () => {
    const { w } = world;
    const before = await stored('en');
    for (const body of [PNG, 'just some words', 'WEBVTT\n\nno cues here\n', '']) {
      const answer = await put(w.editor.client, 'en', body);
      expect(answer.status, String(body)).toBe(400);
      expect(answer.body.error.message).toBe(SUBTITLE_MESSAGES.notSubtitles);
    }
    const swedish = await put(w.editor.client, 'sv', SRT);
    expect(swedish.status).toBe(400);
    expect(swedish.body.error.message).toContain(SUBTITLE_MESSAGES.unknownLanguage);
    const cue = '1\n00:00:00,500 --> 00:00:01,300\n';
    for (const size of [SUBTITLE_MAX_BYTES + 100, 2 * SUBTITLE_MAX_BYTES]) {
      const large = await put(w.editor.client, 'de', cue + 'x'.repeat(size - cue.length));
      expect(large.status).toBe(413);
      expect(large.body.error.message).toBe(SUBTITLE_MESSAGES.tooLarge);
    }
    // Nothing changed.
    expect(await stored('en')).toEqual(before);
    expect(await stored('de')).toBeUndefined();
  });

  it('lets viewers read but not change them (403), and hides them from others (404)', async () => {
    const { w } = world;
    expect((await put(w.viewer.client, 'de', SRT)).status).toBe(403);
    expect((await w.viewer.client.request({ method: 'DELETE', url: url('en') })).status).toBe(403);
    expect((await list(w.outsider.client)).status).toBe(404);
    expect((await put(w.outsider.client, 'de', SRT)).status).toBe(404);
    expect((await w.outsider.client.request({ method: 'DELETE', url: url('en') })).status).toBe(404);
    expect((await w.editor.client.get(url(undefined, 999_999))).status).toBe(404);
    expect((await put(w.editor.client, 'de', SRT)).status).toBe(200);
    expect((await w.editor.client.request({ method: 'DELETE', url: url('de') })).status).toBe(200);
    expect(await stored('en')).toBeDefined();
  });

  it('burns the subtitles of the language asked into a publish, and fails one the node lacks', async () => {
    const { w, t } = world;
    await put(w.editor.client, 'en', SRT);
    await world.button('Subtitled in English', { moduleId: 'burn-subtitles', options: { language: 'en' } });
    const done = await world.publishClip('Subtitled in English');
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    const output = path.join(t.config.dataDir, done?.outputs[0]?.location as string);
    const sourceFile = path.join(world.work, 'interview.mp4');
    // During the cue (0.5 s to 1.3 s) the picture has letters in its bottom half; after it, none.
    expect(changedBelow(frame(sourceFile, 0.9), frame(output, 0.9))).toBeGreaterThan(40);
    expect(changedBelow(frame(sourceFile, 1.7), frame(output, 1.7))).toBeLessThan(10);

    await world.button('Subtitled in German', { moduleId: 'burn-subtitles', options: { language: 'de' } });
    const failed = await world.publishClip('Subtitled in German');
    expect(failed).toMatchObject({
      status: 'failed',
      error: PUBLISH_RUN_MESSAGES.noSubtitles('Interview', 'German'),
    });
  });
});

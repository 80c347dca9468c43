import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CHANNELS, type ClipRenderState } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../src/modules/nodes/tables.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { storeSourceMedia } from './edl-world.ts';
import {
  buildTestApp,
  eventually,
  makeWorld,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';
import { VERSION_HEADERS } from './nodes-world.ts';

type Answer = { results: ClipRenderState; error?: { message: string; code: string } };

/**
 * The floating player's export button (spec3 §2; issue 15 item 5): POST /api/edls/{id}/render renders a clip
 * that has no file yet (one saved before clips were rendered, or seeded) into a playable file, and GET
 * /api/edls/{id}/render says how far it is; the file is then served as the clip's media content.
 */
describe(`clip export: rendering a clip on request (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let viewer: TestClient;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clip-export-'));
  let sourceId = 0;

  /** A clip row over the test source, without a file, as the demo seeds them. */
  const unrenderedClip = async (name: string, pieceId = sourceId, accountId = w.account.id) => {
    const row = await makeMediaRow(t.ctx.db, {
      accountId,
      name,
      type: 'edl',
      edl: { fps: 25, events: [{ mediaId: pieceId, inFrame: 5, outFrame: 40 }] },
      fps: 25,
      duration: 1.4,
    });
    await makeNodeRow(t.ctx.db, { accountId, parentPath: '/', name, type: 'edl', mediaId: row.id });
    return row.id;
  };
  const render = (who: TestClient, id: number | string, body: unknown = {}) =>
    who.post<Answer>(`/api/edls/${id}/render`, body, { headers: VERSION_HEADERS });
  const state = (who: TestClient, id: number | string, query = '') =>
    who.get<Answer>(`/api/edls/${id}/render${query}`, VERSION_HEADERS);
  const row = async (id: number) => (await t.ctx.db.select().from(media).where(eq(media.id, id)))[0];
  const settled = async (id: number) => {
    await eventually(async () => (await row(id))?.status !== 'processing', 60_000);
    return state(w.editor.client, id);
  };

  beforeAll(async () => {
    t = await buildTestApp({ WORKERS: '1' });
    w = await makeWorld(t);
    sourceId = await storeSourceMedia(t, w, work);
    const user = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, user.id, w.account.id, 'Viewer');
    viewer = await t.client().signIn(user.username, user.password as string);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('renders a clip without a file into a playable file of (out − in) / fps, and says so (200)', async () => {
    const id = await unrenderedClip('Not rendered yet');
    const before = await state(w.editor.client, id);
    expect(before.status).toBe(200);
    expect(before.body.results).toEqual({
      mediaId: id,
      status: 'unrendered',
      error: null,
      channel: CHANNELS.nodes(w.account.id),
    });
    expect((await w.editor.client.get(`/api/edls/${id}/content`)).status).toBe(404);

    const asked = await render(w.editor.client, id, { accountId: w.account.id });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.results).toMatchObject({ mediaId: id, status: 'processing', error: null });

    const done = await settled(id);
    expect(done.body.results).toMatchObject({ status: 'ready', error: null });
    const served = await w.editor.client.get(`/api/media/${id}/content`);
    expect(served.status).toBe(200);
    const file = path.join(work, 'rendered.mp4');
    fs.writeFileSync(file, served.raw.rawPayload);
    const info = ffprobe(file);
    expect(videoOf(info)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    // Frames 5 to 40 at 25 fps: 1.4 s.
    expect(Number(info.format.duration)).toBeCloseTo(1.4, 1);

    // A rendered clip is left as it is: asking again renders nothing and keeps its file.
    const file1 = (await row(id))?.storagePath;
    const again = await render(w.editor.client, id);
    expect(again.body.results.status).toBe('ready');
    expect((await row(id))?.storagePath).toBe(file1);
    // Whoever views the account reads the state.
    expect((await state(viewer, id)).body.results.status).toBe('ready');
  });

  it('says why a clip could not be rendered, and renders it again when asked', async () => {
    const brokenKey = `media/accounts/${w.account.id}/test/broken.mp4`;
    await t.ctx.storage.putStream(brokenKey, Readable.from([Buffer.from('not a video')]));
    const broken = await makeMediaRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'Broken',
      storagePath: brokenKey,
    });
    const id = await unrenderedClip('Over a broken piece', broken.id);
    expect((await render(w.editor.client, id)).body.results.status).toBe('processing');
    const failed = await settled(id);
    expect(failed.body.results).toMatchObject({
      status: 'failed',
      error: `The clip could not be rendered: media ${broken.id} has no picture or sound that ffmpeg can read`,
    });
    // Asked again, it is rendered again (and fails again for the same reason).
    expect((await render(w.editor.client, id)).body.results.status).toBe('processing');
    expect((await settled(id)).body.results.status).toBe('failed');
  });

  it('refuses bad input (400), those who may not edit (403) and what is not a clip of theirs (404), changing nothing', async () => {
    const id = await unrenderedClip('Kept unrendered');
    expect((await render(w.editor.client, 'x')).status).toBe(400);
    expect((await state(w.editor.client, 'x')).status).toBe(400);
    const extra = await render(w.editor.client, id, { extra: 1 });
    expect(extra.status).toBe(400);
    expect((await render(w.editor.client, id, { accountId: 'abc' })).status).toBe(400);

    const refused = await render(viewer, id);
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('forbidden');

    const theirs = await unrenderedClip('Theirs', sourceId, w.otherAccount.id);
    expect((await render(w.editor.client, theirs)).status).toBe(404);
    expect((await state(w.editor.client, theirs)).status).toBe(404);
    expect((await render(w.outsider.client, id)).status).toBe(404);
    expect((await render(w.editor.client, 999_999)).status).toBe(404);
    // A source's media is not a clip; a clip named in another account than its own is not found either.
    expect((await render(w.editor.client, sourceId)).status).toBe(404);
    expect((await render(w.editor.client, id, { accountId: w.otherAccount.id })).status).toBe(404);
    expect((await state(w.editor.client, id, `?accountId=${w.otherAccount.id}`)).status).toBe(404);

    // Nothing was asked of the renderer.
    expect(await row(id)).toMatchObject({ status: 'ready', storagePath: null });
    expect((await state(w.editor.client, id)).body.results.status).toBe('unrendered');
  });
});

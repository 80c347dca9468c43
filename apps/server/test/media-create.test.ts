import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EdlVersion, MediaNode } from '@media/contract';
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
import { postNodes } from './nodes-world.ts';

/**
 * POST /api/media (spec3 §7; issue 15 item 5): a sequence made as media from its edl in a folder; a job
 * renders its pieces frame-accurately into one playable file, and POST /api/media/{id}/data saves a new edl.
 */
describe(`POST /api/media: clips and sequences as media (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let viewer: TestClient;
  let sourceId = 0;
  let foreignId = 0;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'media-create-'));
  const sequence = (name: string, edl: unknown = { fps: 25, events: [] }) => ({
    parentPath: `/${w.account.name}/Cuts`,
    type: 'sequence',
    name,
    edl,
  });
  const twoPieces = () => ({
    fps: 25,
    events: [
      { mediaId: sourceId, inFrame: 0, outFrame: 20 },
      { mediaId: sourceId, inFrame: 30, outFrame: 45 },
    ],
  });

  beforeAll(async () => {
    t = await buildTestApp({ WORKERS: '1' });
    w = await makeWorld(t);
    sourceId = await storeSourceMedia(t, w, work);
    foreignId = (await makeMediaRow(t.ctx.db, { accountId: w.otherAccount.id, name: 'Elsewhere' })).id;
    await makeNodeRow(t.ctx.db, { accountId: w.account.id, parentPath: '/', name: 'Cuts', type: 'folder' });
    const user = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, user.id, w.account.id, 'Viewer');
    viewer = await t.client().signIn(user.username, user.password as string);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('makes a sequence from its edl and renders it into one file of the pieces’ length', async () => {
    const made = await postNodes<{ results: MediaNode }>(
      w.editor.client,
      '/api/media',
      sequence('Bulletin', twoPieces()),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.results).toMatchObject({ name: 'Bulletin', type: 'sequence' });
    const mediaId = made.body.results.mediaId as number;
    const row = await eventually(async () => {
      const [found] = await t.ctx.db.select().from(media).where(eq(media.id, mediaId));
      return found?.status === 'ready' ? found : undefined;
    }, 60_000);
    const copy = await t.ctx.storage.localCopy(row.storagePath as string);
    const info = ffprobe(copy.path);
    await copy.release();
    expect(videoOf(info)).toMatchObject({ codec_name: 'h264', width: 320, height: 180 });
    // 20 + 15 frames at 25 fps.
    expect(Number(info.format.duration)).toBeCloseTo(1.4, 1);

    const saved = await postNodes(
      w.editor.client,
      `/api/media/${mediaId}/data?path=${encodeURIComponent(`/${w.account.name}/Cuts/Bulletin`)}`,
      { edl: { fps: 25, events: [{ mediaId: sourceId, inFrame: 0, outFrame: 10 }] } },
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const versions = await w.editor.client.get<{ results: EdlVersion[] }>(
      `/api/edls/${mediaId}/previousVersions?path=${encodeURIComponent(`/${w.account.name}/Cuts/Bulletin`)}`,
    );
    expect(versions.body.results.map((version) => version.edl.events.length)).toEqual([2]);
  });

  it('refuses bad input (400), viewers (403), an unknown folder (404) and a taken name (409), making nothing', async () => {
    const before = await t.ctx.db.select().from(media);
    for (const body of [
      { ...sequence('Folder'), type: 'folder' },
      { ...sequence('No edl'), edl: undefined },
      { ...sequence('Extra'), extra: 1 },
      sequence('Foreign', { fps: 25, events: [{ mediaId: foreignId, inFrame: 0, outFrame: 10 }] }),
      { ...sequence('Under a clip'), parentPath: `/${w.account.name}/Source` },
      ['nonsense'],
    ])
      expect((await postNodes(w.editor.client, '/api/media', body)).status, JSON.stringify(body)).toBe(400);
    expect((await postNodes(viewer, '/api/media', sequence('Viewer', twoPieces()))).status).toBe(403);
    expect(
      (
        await postNodes(w.editor.client, '/api/media', {
          ...sequence('Lost', twoPieces()),
          parentPath: `/${w.account.name}/Nowhere`,
        })
      ).status,
    ).toBe(404);
    expect((await postNodes(w.outsider.client, '/api/media', sequence('Outsider', twoPieces()))).status).toBe(
      404,
    );
    expect((await postNodes(w.editor.client, '/api/media', sequence('Bulletin', twoPieces()))).status).toBe(
      409,
    );
    expect(await t.ctx.db.select().from(media)).toHaveLength(before.length);
  });
});

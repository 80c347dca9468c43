import fs from 'node:fs';
import path from 'node:path';
import { NODE_MESSAGES, type NodeDetails } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDL_FOREIGN_MEDIA, EDL_REQUIRED, THUMB_UNREADABLE } from '../src/modules/nodes/creation.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { buildTestApp, type ErrorBody, type TestApp, type TestClient, testDriver } from './harness.ts';
import { listNodes, makeNodesWorld, type NodesWorld, names, postNodes } from './nodes-world.ts';

describe(`media tree changes (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
  });
  afterAll(() => t.close());

  const post = (who: TestClient, body: object) => postNodes(who, '/api/nodes', body);
  const failure = async (who: TestClient, body: object) => {
    const answer = await post(who, body);
    return [answer.status, (answer.body as unknown as ErrorBody).error?.message];
  };
  const childNames = async (inner: string, who = w.accountManager.client) =>
    names((await listNodes(who, { path: w.p(inner), childOrder: 'alphabetical' })).body.results.children);
  const thumbFiles = () => {
    const folder = path.join(t.config.dataDir, 'thumbs', String(w.account.id));
    return fs.existsSync(folder) ? fs.readdirSync(folder).length : 0;
  };

  it('creates a folder where the caller may edit', async () => {
    const answer = await post(w.editor.client, {
      parentPath: w.p('/Sport'),
      type: 'folder',
      name: 'Football',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toMatchObject({
      path: w.p('/Sport/Football'),
      type: 'folder',
      level: 2,
      parentId: w.tree.sport.id,
      access: { canEdit: true },
    });
    expect(await childNames('/Sport')).toEqual(['Football']);
  });

  it('refuses a taken name (any case), a non-folder parent, viewers and strangers', async () => {
    const folder = { type: 'folder', name: 'archive' };
    expect(await failure(w.editor.client, { ...folder, parentPath: w.p('/News') })).toEqual([
      409,
      NODE_MESSAGES.nameTaken('archive', w.p('/News')),
    ]);
    expect(await failure(w.editor.client, { ...folder, parentPath: w.p('/News/Clip A') })).toEqual([
      400,
      NODE_MESSAGES.notAFolder(w.p('/News/Clip A')),
    ]);
    expect((await failure(w.viewer.client, { ...folder, parentPath: w.p('/Sport') }))[0]).toBe(403);
    expect((await failure(w.editor.client, { ...folder, parentPath: w.p('/Locked') }))[0]).toBe(403);
    expect((await failure(t.client(), { ...folder, parentPath: w.p('/Sport') }))[0]).toBe(401);
    expect(await failure(w.editor.client, { ...folder, parentPath: w.p('/Nowhere') })).toEqual([
      404,
      'Node not found',
    ]);
    expect(await failure(w.viewer.client, { ...folder, parentPath: w.p('/Secret') })).toEqual([
      404,
      'Node not found',
    ]);
    expect(await failure(w.editor.client, { ...folder, parentPath: w.other })).toEqual([
      404,
      'Account not found',
    ]);
    expect((await failure(w.editor.client, { ...folder, name: 'a/b', parentPath: w.p('/Sport') }))[0]).toBe(
      400,
    );
  });

  it('saves a clip: its edl as media of the account, its thumbnail re-encoded', async () => {
    const before = thumbFiles();
    const edl = { fps: 25, events: [{ mediaId: w.clipMedia.id, inFrame: 0, outFrame: 50 }] };
    const answer = await post(w.editor.client, {
      parentPath: w.p('/News'),
      type: 'edl',
      name: 'Highlights',
      thumb: { type: 'jpeg', data: w.jpeg.toString('base64') },
      thumbPoint: 1.2,
      edl,
    });
    expect(answer.status).toBe(200);
    const clip = answer.body.results;
    expect(clip).toMatchObject({ type: 'edl', displayType: 'sequence', duration: 2 });
    expect(clip.thumbId).toBeGreaterThan(0);
    expect(thumbFiles()).toBe(before + 1);
    const details = await listNodes(w.editor.client, { getDetails: '1', id: clip.id });
    expect(details.body.results as unknown as NodeDetails).toMatchObject({
      edl: { ...edl, id: clip.mediaId },
      edlSources: [{ mediaId: w.clipMedia.id, name: 'Clip A' }],
    });
    const image = await w.editor.client.get(`/api/thumbs/${clip.thumbId}/image.jpg`);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('gathers the accumulate metadata keys of its sources into a clip (spec3 §9)', async () => {
    const second = await makeMediaRow(t.ctx.db, { accountId: w.account.id, name: 'Clip C' });
    await makeNodeRow(t.ctx.db, {
      accountId: w.account.id,
      parentPath: '/News',
      name: 'Clip C',
      type: 'source',
      mediaId: second.id,
      metadata: { location: 'Station', filename: 'c.mp4', reporter: 'Sam' },
    });
    const piece = (mediaId: number) => ({ mediaId, inFrame: 0, outFrame: 25 });
    const answer = await post(w.editor.client, {
      parentPath: w.p('/News'),
      type: 'sequence',
      name: 'Round-up',
      edl: { fps: 25, events: [piece(w.clipMedia.id), piece(second.id), piece(w.clipMedia.id)] },
    });
    expect(answer.status).toBe(200);
    // Clip A: location Harbour, reporter Jo Bloggs; Clip C: location Station, filename c.mp4, reporter Sam.
    expect(answer.body.results.metadata).toEqual({ location: 'Harbour, Station', filename: 'c.mp4' });
  });

  it('refuses a clip without an edl, with foreign media or an unreadable thumbnail, leaving nothing', async () => {
    const before = thumbFiles();
    const clip = { parentPath: w.p('/News'), type: 'sequence', name: 'Broken' };
    const edl = (mediaId: number) => ({ fps: 25, events: [{ mediaId, inFrame: 0, outFrame: 10 }] });
    expect(await failure(w.editor.client, clip)).toEqual([400, EDL_REQUIRED]);
    expect(await failure(w.editor.client, { ...clip, edl: edl(w.otherMedia.id) })).toEqual([
      400,
      EDL_FOREIGN_MEDIA,
    ]);
    const notImage = { type: 'jpeg', data: Buffer.from('hello, not an image').toString('base64') };
    expect(await failure(w.editor.client, { ...clip, edl: edl(w.clipMedia.id), thumb: notImage })).toEqual([
      415,
      THUMB_UNREADABLE,
    ]);
    expect(thumbFiles()).toBe(before);
    expect(await childNames('/News')).not.toContain('Broken');
  });

  it('sets and removes a metadata field (loggers may)', async () => {
    const field = { key: 'reporter', value: 'Sam', accountId: w.account.id, path: w.p('/News/Clip B') };
    const set = await post(w.logger.client, field);
    expect(set.status).toBe(200);
    expect(set.body.results.metadata).toEqual({
      location: 'Station 100%',
      note: 'Said "go" \\ now',
      reporter: 'Sam',
    });
    const removed = await post(w.logger.client, { ...field, value: '' });
    expect(removed.body.results.metadata).toEqual({ location: 'Station 100%', note: 'Said "go" \\ now' });
    expect(await failure(w.logger.client, { ...field, accountId: w.otherAccount.id })).toEqual([
      400,
      'accountId is not the account of path',
    ]);
    expect((await failure(w.viewer.client, field))[0]).toBe(403);
    expect((await failure(w.editor.client, { ...field, path: w.p('/Locked/Inside') }))[0]).toBe(403);
  });

  it("replaces a folder's permissions (account managers only)", async () => {
    const hide = { path: w.p('/Sport'), permissions: [{ roleId: w.roles.viewer.id, access: 'none' }] };
    expect((await failure(w.editor.client, hide))[0]).toBe(403);
    expect(await failure(w.accountManager.client, { ...hide, path: w.p('/News/Clip A') })).toEqual([
      400,
      NODE_MESSAGES.notAFolder(w.p('/News/Clip A')),
    ]);
    expect(
      await failure(w.accountManager.client, { ...hide, permissions: [{ roleId: 999_999, access: 'view' }] }),
    ).toEqual([400, 'Role not found']);
    const saved = await post(w.accountManager.client, hide);
    expect(saved.status).toBe(200);
    expect(saved.body.results.permissions).toEqual(hide.permissions);
    expect(await childNames('', w.viewer.client)).not.toContain('Sport');
    expect(await childNames('', w.editor.client)).toContain('Sport');
    await post(w.accountManager.client, { ...hide, permissions: [] });
    expect(await childNames('', w.viewer.client)).toContain('Sport');
  });

  it('renames a node and the paths below it', async () => {
    await post(w.editor.client, { parentPath: w.p('/News/Archive'), type: 'folder', name: 'Deep' });
    const renamed = await post(w.editor.client, { path: w.p('/News/Archive'), name: 'Old stuff' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.results).toMatchObject({ name: 'Old stuff', path: w.p('/News/Old stuff') });
    expect(await childNames('/News/Old stuff')).toEqual(['Deep', 'Old clip']);
    const deep = await listNodes(w.editor.client, { path: w.p('/News/Old stuff/Deep') });
    expect(deep.body.results.node.parentId).toBe(w.tree.archive.id);
    expect((await listNodes(w.editor.client, { path: w.p('/News/Archive') })).status).toBe(404);
  });

  it('refuses renaming the root, a taken name and loggers', async () => {
    expect(await failure(w.accountManager.client, { path: w.p(), name: 'Other' })).toEqual([
      400,
      NODE_MESSAGES.rootFixed,
    ]);
    expect(await failure(w.editor.client, { path: w.p('/News/Clip A'), name: 'CLIP B' })).toEqual([
      409,
      NODE_MESSAGES.nameTaken('CLIP B', w.p('/News')),
    ]);
    expect((await failure(w.logger.client, { path: w.p('/News/Clip A'), name: 'Logged' }))[0]).toBe(403);
    const recased = await post(w.editor.client, { path: w.p('/News/Clip A'), name: 'Clip a' });
    expect(recased.body.results.path).toBe(w.p('/News/Clip a'));
    await post(w.editor.client, { path: w.p('/News/Clip a'), name: 'Clip A' });
  });
});

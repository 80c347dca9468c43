import { type EdlSource, editorNodeId, type NodeDetails, type PlayerMediaInfo } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDL_FOREIGN_MEDIA } from '../src/modules/nodes/creation.ts';
import { publishButtons, publishes } from '../src/modules/publishing/tables.ts';
import { buildTestApp, type ErrorBody, type TestApp, type TestClient, testDriver } from './harness.ts';
import { EVIDENCE_BYTES, makeHiddenVault, VAULT_SUBTITLES } from './hidden-vault.ts';
import { makeNodesWorld, type NodesWorld, postNodes, VERSION_HEADERS } from './nodes-world.ts';

/**
 * Issue 30 item 3, "Folder permissions end at the tree": a folder that gives a role `none` hides its nodes
 * from that role everywhere, not only in GET /api/nodes. Whatever serves a media, its file, thumbnail,
 * subtitles, live stream or edl by id answers a hidden one 404, as one that does not exist; writes by id or
 * path are refused the same way. Those the folder does not hide (other roles, the account's managers) and
 * media a visible node shows are served as before.
 */
describe(`media of folders hidden from a role (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;
  let ids: Awaited<ReturnType<typeof makeHiddenVault>>['ids'];
  let evidenceJpeg: Buffer;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
    ({ ids, evidenceJpeg } = await makeHiddenVault(t, w));
  });
  afterAll(() => t.close());

  /** Every read by id of what the vault holds, with the id of nothing in its place. */
  const reads = (id = ids) => [
    `/api/media/${id.evidence}`,
    `/api/media/${id.evidence}/content`,
    `/api/media/${id.evidence}/content?accountId=${w.account.id}`,
    `/api/thumbs/${id.thumb}/image.jpg`,
    `/api/media/${id.evidence}/subtitles`,
    `/api/media/${id.live}`,
    `/api/media/${id.live}/live.m3u8`,
    `/api/media/${id.live}/live/0.ts`,
    `/api/media/${id.cut}`,
    `/api/media/${id.cut}/content`,
    `/api/edls/${id.cut}/sources`,
    `/api/edls/${id.cut}/content`,
    `/api/edls/${id.cut}/render`,
  ];
  const missing = () => ({ ...ids, evidence: 999_001, thumb: 999_002, live: 999_003, cut: 999_004 });
  const answer = async (client: TestClient, url: string, headers?: Record<string, string>) => {
    const got = await client.get<ErrorBody>(url, { ...VERSION_HEADERS, ...headers });
    return [got.status, got.status >= 400 ? got.body.error?.message : 'served'];
  };

  it("answers a viewer 404 for every read by id of a hidden folder's media, as for an id of nothing", async () => {
    const hidden = reads();
    const nothing = reads(missing());
    for (const [index, url] of hidden.entries()) {
      const expected = await answer(w.viewer.client, nothing[index] as string);
      expect(expected[0], nothing[index]).toBe(404);
      expect(await answer(w.viewer.client, url), url).toEqual(expected);
    }
    // The player's byte-range requests, and a conditional one, are refused alike.
    const content = `/api/media/${ids.evidence}/content`;
    expect(await answer(w.viewer.client, content, { range: 'bytes=0-9' })).toEqual([404, 'Media not found']);
    expect(await answer(w.viewer.client, content, { range: 'bytes=-100', 'if-range': '"x"' })).toEqual([
      404,
      'Media not found',
    ]);
    // The nodes themselves, by path and by editor id, as the tree already answered.
    const evidenceId = editorNodeId(w.account.id, ids.evidenceNode, 'source', ids.evidence);
    expect(await answer(w.viewer.client, `/api/nodes?getDetails=1&id=${evidenceId}`)).toEqual([
      404,
      'Node not found',
    ]);
    const path = encodeURIComponent(w.p('/Vault/Deep/Evidence'));
    expect(await answer(w.viewer.client, `/api/nodes?path=${path}`)).toEqual([404, 'Node not found']);
    expect(
      await answer(
        w.viewer.client,
        `/api/edls/${ids.cut}/previousVersions?path=${encodeURIComponent(w.p('/Vault/Cut'))}`,
      ),
    ).toEqual([404, 'Node not found']);
  });

  it('still serves a viewer the media of visible folders, and a media a visible node shows', async () => {
    const clip = `/api/media/${w.clipMedia.id}/content`;
    const whole = await w.viewer.client.get(clip);
    expect(whole.status).toBe(200);
    expect(whole.raw.rawPayload.equals(w.videoBytes)).toBe(true);
    const part = await w.viewer.client.get(clip, { range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.raw.rawPayload.equals(w.videoBytes.subarray(10, 20))).toBe(true);
    expect((await w.viewer.client.get(`/api/thumbs/${w.thumb.id}/image.jpg`)).status).toBe(200);
    expect((await w.viewer.client.get(`/api/media/${w.clipMedia.id}/subtitles`)).status).toBe(200);
    const shared = await w.viewer.client.get<{ results: PlayerMediaInfo }>(`/api/media/${ids.shared}`);
    expect(shared.status).toBe(200);
    expect(shared.body.results.name).toBe('Shared');
  });

  it("leaves a hidden piece out of a visible clip's sources, and its name out of the clip's details", async () => {
    const sources = await w.viewer.client.get<{ results: EdlSource[] }>(`/api/edls/${ids.montage}/sources`);
    expect(sources.status).toBe(200);
    expect(sources.body.results.map((source) => source.name)).toEqual(['Clip A']);
    const montageNode = await w.accountManager.client.get<{
      results: { children: { name: string; id: string }[] };
    }>(`/api/nodes?path=${encodeURIComponent(w.p('/News'))}`, VERSION_HEADERS);
    const id = montageNode.body.results.children.find((child) => child.name === 'Montage')?.id as string;
    const details = await w.viewer.client.get<{ results: NodeDetails }>(
      `/api/nodes?getDetails=1&id=${id}`,
      VERSION_HEADERS,
    );
    expect(details.status).toBe(200);
    expect(details.body.results.edlSources).toEqual([
      { mediaId: w.clipMedia.id, name: 'Clip A' },
      { mediaId: ids.evidence, name: '' },
    ]);
    const seen = await w.accountManager.client.get<{ results: EdlSource[] }>(
      `/api/edls/${ids.montage}/sources`,
    );
    expect(seen.body.results.map((source) => source.name)).toEqual(['Clip A', 'Evidence']);
  });

  it("gathers a clip's metadata from the nodes of its pieces the maker sees, not from hidden copies", async () => {
    const made = await postNodes(w.editor.client, '/api/nodes', {
      parentPath: w.p('/Sport'),
      type: 'edl',
      name: 'From shared',
      edl: { fps: 25, events: [{ mediaId: ids.shared, inFrame: 0, outFrame: 5 }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.results.metadata).toMatchObject({ location: 'Newsroom' });
  });

  it('serves the hidden media to the roles the folder does not limit and to the account managers', async () => {
    const managers = {
      'Account Manager role': w.accountManager.client,
      'site manager': w.siteManager.client,
      administrator: w.admin.client,
    };
    for (const [who, client] of Object.entries(managers))
      for (const url of reads()) expect(await answer(client, url), `${who} ${url}`).toEqual([200, 'served']);
    const content = await w.accountManager.client.get(`/api/media/${ids.evidence}/content`, {
      range: 'bytes=0-9',
    });
    expect(content.status).toBe(206);
    expect(content.raw.rawPayload.equals(EVIDENCE_BYTES.subarray(0, 10))).toBe(true);
    const thumb = await w.siteManager.client.get(`/api/thumbs/${ids.thumb}/image.jpg`);
    expect(thumb.raw.rawPayload.equals(evidenceJpeg)).toBe(true);
    // The Viewer role's none on /Secret does not hide it from Editors.
    expect((await w.editor.client.get(`/api/media/${w.clipMedia.id}`)).status).toBe(200);
  });

  it('refuses writes on a hidden node or media with 404, and edls made of hidden media like foreign ones', async () => {
    const status = async (reply: Promise<{ status: number; body: unknown }>) => {
      const got = await reply;
      return [got.status, (got.body as ErrorBody).error?.message];
    };
    const subtitles = (client: TestClient, method: 'PUT' | 'DELETE') =>
      client.request({
        method,
        url: `/api/media/${ids.evidence}/subtitles/en`,
        body: method === 'PUT' ? VAULT_SUBTITLES : undefined,
        headers: { 'content-type': 'application/x-subrip' },
      });
    // Loggers may attach subtitles where they see the media; in the vault they see nothing.
    expect(await status(subtitles(w.logger.client, 'PUT'))).toEqual([404, 'Media not found']);
    expect(await status(subtitles(w.logger.client, 'DELETE'))).toEqual([404, 'Media not found']);
    expect(await status(subtitles(w.viewer.client, 'DELETE'))).toEqual([404, 'Media not found']);
    const editor = w.editor.client;
    expect(await status(postNodes(editor, `/api/edls/${ids.cut}/render`, {}))).toEqual([
      404,
      'Media not found',
    ]);
    const cutPath = encodeURIComponent(w.p('/Vault/Cut'));
    const edl = { fps: 25, events: [{ mediaId: w.clipMedia.id, inFrame: 0, outFrame: 5 }] };
    expect(await status(postNodes(editor, `/api/media/${ids.cut}/data?path=${cutPath}`, { edl }))).toEqual([
      404,
      'Node not found',
    ]);
    const evidence = w.p('/Vault/Deep/Evidence');
    expect(await status(postNodes(editor, '/api/nodes', { path: evidence, name: 'Renamed' }))).toEqual([
      404,
      'Node not found',
    ]);
    expect(
      await status(
        postNodes(editor, '/api/nodes', { path: evidence, key: 'note', value: 'x', accountId: w.account.id }),
      ),
    ).toEqual([404, 'Node not found']);
    expect(
      await status(
        postNodes(editor, '/api/nodesTransfer', {
          srcPath: evidence,
          dstPath: w.p('/Sport'),
          operation: 'copy',
        }),
      ),
    ).toEqual([404, 'Node not found']);
    // A clip of a hidden media would make it playable: refused as a piece of another account is.
    const pieces = (mediaId: number) => ({ fps: 25, events: [{ mediaId, inFrame: 0, outFrame: 5 }] });
    const refusal = [400, EDL_FOREIGN_MEDIA];
    for (const url of ['/api/media', '/api/nodes'])
      for (const mediaId of [ids.evidence, 999_001])
        expect(
          await status(
            postNodes(editor, url, {
              parentPath: w.p('/Sport'),
              type: 'edl',
              name: 'Leak',
              edl: pieces(mediaId),
            }),
          ),
          `${url} ${mediaId}`,
        ).toEqual(refusal);
    const montage = encodeURIComponent(w.p('/News/Montage'));
    expect(
      await status(
        postNodes(editor, `/api/media/${ids.montage}/data?path=${montage}`, { edl: pieces(ids.evidence) }),
      ),
    ).toEqual(refusal);
    // Nothing was written: the subtitles and names are as they were.
    const listed = await w.accountManager.client.get<{ results: { language: string }[] }>(
      `/api/media/${ids.evidence}/subtitles`,
    );
    expect(listed.body.results.map((row) => row.language)).toEqual(['en']);
    expect(
      (await w.accountManager.client.get(`/api/nodes?path=${encodeURIComponent(evidence)}`, VERSION_HEADERS))
        .status,
    ).toBe(200);
  });

  it('answers a viewer 404 for a published item of a hidden node, and lists only the items of nodes they see', async () => {
    const { db } = t.ctx;
    const [button] = await db
      .insert(publishButtons)
      .values({ accountId: w.account.id, name: 'Archive', phases: [], location: { type: 'cloud', id: null } })
      .returning();
    const buttonId = button?.id as number;
    const [secret, shown] = await db
      .insert(publishes)
      .values([
        { buttonId, accountId: w.account.id, nodeId: ids.evidenceNode, log: ['Copied /Vault/Deep/Evidence'] },
        { buttonId, accountId: w.account.id, nodeId: w.tree.clipA.id, log: ['Copied /News/Clip A'] },
      ])
      .returning();
    const secretId = secret?.id as number;
    const shownId = shown?.id as number;
    expect(await answer(w.viewer.client, `/api/publishes/${secretId}`)).toEqual(
      await answer(w.viewer.client, '/api/publishes/987654'),
    );
    expect((await answer(w.viewer.client, `/api/publishes/${secretId}`))[0]).toBe(404);
    expect(await answer(w.viewer.client, `/api/publishes/${shownId}`)).toEqual([200, 'served']);
    expect(await answer(w.admin.client, `/api/publishes/${secretId}`)).toEqual([200, 'served']);
    const listed = async (client: TestClient) => {
      const list = await client.get<{ results: { id: number }[]; total: number }>(
        `/api/publishButtons/${buttonId}/publishes`,
      );
      return [list.body.total, list.body.results.map((item) => item.id)];
    };
    expect(await listed(w.viewer.client)).toEqual([1, [shownId]]);
    expect(await listed(w.admin.client)).toEqual([2, [shownId, secretId]]);
  });

  it('hides them from a manager acting as a Viewer, as the tree does, until the manager acts as themselves', async () => {
    const manager = w.accountManager.client;
    const launch = (body: object) => manager.post(`/api/accounts/${w.account.id}/launch`, body);
    expect((await launch({ roleId: w.roles.viewer.id })).status).toBe(200);
    try {
      for (const url of reads()) expect((await manager.get(url, VERSION_HEADERS)).status, url).toBe(404);
      expect((await manager.get(`/api/media/${w.clipMedia.id}/content`)).status).toBe(200);
    } finally {
      expect((await launch({})).status).toBe(200);
    }
    expect((await manager.get(`/api/media/${ids.evidence}/content`)).status).toBe(200);
  });
});

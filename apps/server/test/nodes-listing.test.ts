import { CHANNELS, editorNodeId, NODE_MESSAGES, type NodeDetails, searchKeyOf } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ErrorBody, type TestApp, testDriver } from './harness.ts';
import { listNodes, makeNodesWorld, type NodesWorld, names, VERSION_HEADERS } from './nodes-world.ts';

describe(`media tree listing (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
  });
  afterAll(() => t.close());

  it("lists the account's root and its children, newest first, with the channel", async () => {
    const answer = await listNodes(w.accountManager.client, { path: w.p() });
    expect(answer.status).toBe(200);
    const { node, ancestors, children, nextChildOffset, actingRole } = answer.body.results;
    expect(node).toMatchObject({
      path: w.p(),
      name: w.account.name,
      level: 0,
      type: 'folder',
      parentPath: null,
    });
    expect(node.expandable).toBe(true);
    expect(ancestors).toEqual([]);
    expect(names(children)).toEqual(['Locked', 'Secret', 'Sport', 'News']);
    expect(nextChildOffset).toBeNull();
    expect(actingRole).toBeNull();
    expect(answer.body.total).toBe(4);
    expect(answer.body.channel).toBe(CHANNELS.nodes(w.account.id));
  });

  it('finds the account by name whatever its case', async () => {
    const answer = await listNodes(w.accountManager.client, {
      path: `/${w.account.name.toUpperCase()}/news`,
    });
    expect(answer.status).toBe(404);
    const root = await listNodes(w.accountManager.client, { path: `/${w.account.name.toUpperCase()}/News` });
    expect(root.status).toBe(200);
    expect(root.body.results.node.path).toBe(w.p('/News'));
  });

  it('presents every node the same way', async () => {
    const answer = await listNodes(w.editor.client, { path: w.p('/News'), childOrder: 'alphabetical' });
    const { ancestors, children } = answer.body.results;
    expect(names(ancestors)).toEqual([w.account.name]);
    expect(names(children)).toEqual(['Archive', 'Clip A', 'Clip B']);
    const clip = children[1];
    expect(clip).toMatchObject({
      id: editorNodeId(w.account.id, w.tree.clipA.id, 'source', w.clipMedia.id),
      nodeId: w.tree.clipA.id,
      path: w.p('/News/Clip A'),
      parentPath: w.p('/News'),
      parentId: w.tree.news.id,
      level: 2,
      displayType: 'source',
      expandable: false,
      childCount: 0,
      createdTime: '2026-01-10T12:00:00.000Z',
      createdTimeStamp: Date.parse('2026-01-10T12:00:00Z'),
      thumbId: w.thumb.id,
      duration: 12.5,
      mediaId: w.clipMedia.id,
      metadata: { location: 'Harbour', reporter: 'Jo Bloggs' },
      artefactMetadata: { 'Field59 Key': 'abc123' },
      sortKey: 'clip a',
      searchKey: null,
      access: { canEdit: true, canLog: true, canManage: false },
    });
    expect(children[0]).toMatchObject({ name: 'Archive', expandable: true, childCount: 1 });
  });

  it('pages children with nextChildOffset and counts them all', async () => {
    const first = await listNodes(w.accountManager.client, {
      path: w.p(),
      limit: 3,
      childOrder: 'alphabetical',
    });
    expect(names(first.body.results.children)).toEqual(['Locked', 'News', 'Secret']);
    expect(first.body.results.nextChildOffset).toBe(3);
    expect(first.body.total).toBe(4);
    const second = await listNodes(w.accountManager.client, {
      path: w.p(),
      limit: 3,
      childOrder: 'alphabetical',
      nextChildOffset: 3,
    });
    expect(names(second.body.results.children)).toEqual(['Sport']);
    expect(second.body.results.nextChildOffset).toBeNull();
  });

  it('filters children by type, name and created days (inclusive)', async () => {
    const list = async (query: Record<string, string>) =>
      names((await listNodes(w.editor.client, { path: w.p('/News'), ...query })).body.results.children);
    expect(await list({ type: 'folder' })).toEqual(['Archive']);
    expect(await list({ childFilter: 'CLIP' })).toEqual(['Clip B', 'Clip A']);
    expect(await list({ createdFrom: '2026-01-11', createdTo: '2026-01-11' })).toEqual(['Archive']);
    expect(await list({ createdFrom: '2026-01-11' })).toEqual(['Clip B', 'Archive']);
    expect(await list({ createdTo: '2026-01-10' })).toEqual(['Clip A']);
  });

  it('searches the descendants with clauses, all of them AND-ed', async () => {
    const search = async (clauses: object[], who = w.accountManager.client, path = w.p()) => {
      const answer = await listNodes(who, { path, search: clauses.map((clause) => JSON.stringify(clause)) });
      expect(answer.status).toBe(200);
      return names(answer.body.results.children).sort();
    };
    expect(await search([{ key: 'location', value: 'harbour' }])).toEqual(['Clip A', 'Old clip', 'Plan']);
    // Each result carries the key of the search that found it (spec3 §3 searchKey).
    const clause = { key: 'location', value: 'harbour', match: 'contains' as const };
    const found = await listNodes(w.accountManager.client, { path: w.p(), search: JSON.stringify(clause) });
    expect(new Set(found.body.results.children.map((node) => node.searchKey))).toEqual(
      new Set([searchKeyOf({ search: [clause] })]),
    );
    expect(await search([{ key: 'location', value: 'harbour' }], w.viewer.client)).toEqual([
      'Clip A',
      'Old clip',
    ]);
    expect(
      await search([{ key: 'location', value: 'harbour' }], w.editor.client, w.p('/News/Archive')),
    ).toEqual(['Old clip']);
    expect(await search([{ key: 'text', value: 'bloggs' }])).toEqual(['Clip A']);
    expect(await search([{ key: 'name', value: 'clip a', match: 'exact' }])).toEqual(['Clip A']);
    expect(await search([{ key: 'name', value: 'clip', match: 'exact' }])).toEqual([]);
    expect(
      await search([
        { key: 'location', value: 'harbour' },
        { key: 'name', value: 'old' },
      ]),
    ).toEqual(['Old clip']);
    // LIKE's own characters are taken literally.
    expect(await search([{ key: 'location', value: '%' }])).toEqual(['Clip B']);
    // Quotes and backslashes are escaped in the indexed search text; such values are still found.
    expect(await search([{ key: 'note', value: '"go"' }])).toEqual(['Clip B']);
    expect(await search([{ key: 'note', value: 'said "go" \\ now', match: 'exact' }])).toEqual(['Clip B']);
    expect(await search([{ key: 'text', value: 'said "go" \\ now', match: 'exact' }])).toEqual(['Clip B']);
    expect(await search([{ key: 'note', value: 'go' }])).toEqual(['Clip B']);
    const bad = await listNodes(w.editor.client, { path: w.p(), search: 'not json' });
    expect(bad.status).toBe(400);
  });

  it("hides a folder's subtree from the role it names, not from managers", async () => {
    const viewerRoot = await listNodes(w.viewer.client, { path: w.p() });
    expect(names(viewerRoot.body.results.children)).toEqual(['Locked', 'Sport', 'News']);
    expect(viewerRoot.body.total).toBe(3);
    // Hidden children are not counted either.
    expect(viewerRoot.body.results.node.childCount).toBe(3);
    for (const path of [w.p('/Secret'), w.p('/Secret/Plan')]) {
      const hidden = await listNodes(w.viewer.client, { path });
      expect(hidden.status).toBe(404);
      expect((hidden.body as unknown as ErrorBody).error.message).toBe('Node not found');
    }
    const manager = await listNodes(w.accountManager.client, { path: w.p('/Secret') });
    expect(names(manager.body.results.children)).toEqual(['Plan']);
    // A site manager has no role here and is never limited.
    const site = await listNodes(w.siteManager.client, { path: w.p('/Secret') });
    expect(site.status).toBe(200);
    expect(site.body.results.node.access).toEqual({ canEdit: true, canLog: true, canManage: true });
  });

  it('gives view-only folders no write access, and viewers none anywhere', async () => {
    const locked = await listNodes(w.editor.client, { path: w.p('/Locked') });
    expect(locked.body.results.node.access).toEqual({ canEdit: false, canLog: false, canManage: false });
    expect(locked.body.results.children[0]?.access.canEdit).toBe(false);
    const news = await listNodes(w.viewer.client, { path: w.p('/News') });
    expect(news.body.results.node.access).toEqual({ canEdit: false, canLog: false, canManage: false });
    const logger = await listNodes(w.logger.client, { path: w.p('/News') });
    expect(logger.body.results.node.access).toEqual({ canEdit: false, canLog: true, canManage: false });
  });

  it('answers 400, 401 and 404 with their messages', async () => {
    const error = async (who: typeof w.editor.client, query: Record<string, string>) => {
      const answer = await listNodes(who, query);
      return [answer.status, (answer.body as unknown as ErrorBody).error.message];
    };
    expect(await error(w.editor.client, {})).toEqual([400, 'A path or an id is required']);
    expect(await error(t.client(), { path: w.p() })).toEqual([401, expect.any(String)]);
    expect(await error(w.editor.client, { path: '/no-such-account' })).toEqual([404, 'Account not found']);
    expect(await error(w.outsider.client, { path: w.p() })).toEqual([404, 'Account not found']);
    expect(await error(w.editor.client, { path: w.other })).toEqual([404, 'Account not found']);
    expect(await error(w.editor.client, { path: w.p('/Nowhere') })).toEqual([404, 'Node not found']);
    const version = await w.editor.client.get(`/api/nodes?path=${encodeURIComponent(w.p())}`, {
      ...VERSION_HEADERS,
      'X-Api-Version': '0.0.1',
    });
    expect(version.status).toBe(400);
  });

  it("gives a node's details by its editor id", async () => {
    const id = editorNodeId(w.account.id, w.tree.clipA.id, 'source', w.clipMedia.id);
    const answer = await listNodes(w.editor.client, { getDetails: '1', id });
    expect(answer.status).toBe(200);
    const details = answer.body.results as unknown as NodeDetails;
    expect(details).toMatchObject({
      path: w.p('/News/Clip A'),
      mediaContent: { duration: 12.5, width: 640, height: 360, fps: 25, size: 4096 },
      edl: null,
      edlSources: [],
    });
    const bad = await listNodes(w.editor.client, { getDetails: '1', id: 'node,1,2' });
    expect(bad.status).toBe(400);
    expect((bad.body as unknown as ErrorBody).error.message).toBe(NODE_MESSAGES.unexpectedNodeId('node,1,2'));
    const hidden = editorNodeId(w.account.id, w.tree.plan.id, 'source', null);
    expect((await listNodes(w.viewer.client, { getDetails: '1', id: hidden })).status).toBe(404);
    const theirs = editorNodeId(w.otherAccount.id, w.elsewhere.id, 'folder', null);
    expect((await listNodes(w.editor.client, { getDetails: '1', id: theirs })).status).toBe(404);
  });

  it('documents its routes', async () => {
    const doc = await t.client().get<{ paths: Record<string, unknown> }>('/api/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/nodes',
        '/api/nodesTransferType',
        '/api/nodesTransfer',
        '/api/media/{id}',
        '/api/media/{id}/content',
        '/api/thumbs/{thumbId}/image.jpg',
      ]),
    );
  });
});

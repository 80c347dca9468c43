import { NODE_MESSAGES, type TransferResult } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ErrorBody, type TestApp, type TestClient, testDriver } from './harness.ts';
import { listNodes, makeNodesWorld, type NodesWorld, names, postNodes } from './nodes-world.ts';

describe(`media tree transfers (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
  });
  afterAll(() => t.close());

  const types = async (who: TestClient, srcPath: string | string[], dstPath: string) => {
    const answer = await postNodes<{ results: { operations: string[] } }>(who, '/api/nodesTransferType', {
      srcPath,
      dstPath,
    });
    return answer.status === 200 ? answer.body.results.operations : answer.status;
  };
  const transfer = (who: TestClient, operation: string, srcPath: string | string[], dstPath: string) =>
    postNodes<{ results: TransferResult }>(who, '/api/nodesTransfer', { srcPath, dstPath, operation });
  const failure = async (who: TestClient, operation: string, srcPath: string | string[], dstPath: string) => {
    const answer = await transfer(who, operation, srcPath, dstPath);
    return [answer.status, (answer.body as unknown as ErrorBody).error?.message];
  };
  const childNames = async (inner: string) =>
    names(
      (await listNodes(w.accountManager.client, { path: w.p(inner), childOrder: 'alphabetical' })).body
        .results.children,
    );

  it('tells which transfers are possible', async () => {
    expect(await types(w.editor.client, w.p('/News/Clip A'), w.p('/Sport'))).toEqual(['move', 'copy']);
    expect(await types(w.editor.client, w.p('/News/Clip A'), w.p('/News'))).toEqual(['copy']);
    expect(await types(w.editor.client, w.p('/Locked/Inside'), w.p('/Sport'))).toEqual(['copy']);
    expect(await types(w.viewer.client, w.p('/News/Clip A'), w.p('/Sport'))).toEqual([]);
    expect(await types(w.logger.client, w.p('/News/Clip A'), w.p('/Sport'))).toEqual([]);
    expect(await types(w.editor.client, w.p('/News'), w.p('/News/Archive'))).toEqual([]);
    expect(await types(w.editor.client, w.p('/News/Nothing'), w.p('/Sport'))).toBe(404);
    expect(await types(w.viewer.client, w.p('/News/Clip A'), w.p('/Secret'))).toBe(404);
    expect(await types(t.client(), w.p('/News/Clip A'), w.p('/Sport'))).toBe(401);
  });

  it('refuses publishing, a non-folder, another account, a folder into itself and missing rights', async () => {
    const clip = w.p('/News/Clip A');
    expect(await failure(w.editor.client, 'publish', clip, w.p('/Sport'))).toEqual([
      400,
      NODE_MESSAGES.publishUnavailable,
    ]);
    expect(await failure(w.editor.client, 'copy', clip, w.p('/News/Clip B'))).toEqual([
      400,
      NODE_MESSAGES.notAFolder(w.p('/News/Clip B')),
    ]);
    expect(await failure(w.admin.client, 'copy', clip, w.other)).toEqual([400, NODE_MESSAGES.otherAccount]);
    expect(await failure(w.editor.client, 'move', w.p('/News'), w.p('/News'))).toEqual([
      400,
      NODE_MESSAGES.intoItself,
    ]);
    expect(await failure(w.editor.client, 'copy', w.p('/News'), w.p('/News/Archive'))).toEqual([
      400,
      NODE_MESSAGES.intoItself,
    ]);
    expect(await failure(w.accountManager.client, 'move', w.p(), w.p('/Sport'))).toEqual([
      400,
      NODE_MESSAGES.rootFixed,
    ]);
    expect((await failure(w.viewer.client, 'copy', clip, w.p('/Sport')))[0]).toBe(403);
    expect((await failure(w.logger.client, 'move', clip, w.p('/Sport')))[0]).toBe(403);
    expect((await failure(w.editor.client, 'move', w.p('/Locked/Inside'), w.p('/Sport')))[0]).toBe(403);
    expect((await failure(w.viewer.client, 'copy', clip, w.p('/Secret')))[0]).toBe(404);
    expect((await failure(w.editor.client, 'copy', w.p('/Nothing'), w.p('/Sport')))[0]).toBe(404);
  });

  it('moves a subtree with its descendants', async () => {
    const answer = await transfer(w.editor.client, 'move', w.p('/News/Archive'), w.p('/Sport'));
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual({
      operation: 'move',
      nodes: [{ from: w.p('/News/Archive'), to: w.p('/Sport/Archive') }],
      message: NODE_MESSAGES.transferred(w.p('/News/Archive'), 'moved', w.p('/Sport')),
    });
    expect(await childNames('/News')).toEqual(['Clip A', 'Clip B']);
    const moved = await listNodes(w.editor.client, { path: w.p('/Sport/Archive') });
    expect(moved.body.results.node).toMatchObject({ nodeId: w.tree.archive.id, parentId: w.tree.sport.id });
    expect(Date.parse(moved.body.results.node.hereTime)).toBeGreaterThan(Date.now() - 60_000);
    expect(moved.body.results.children).toMatchObject([
      { nodeId: w.tree.oldClip.id, path: w.p('/Sport/Archive/Old clip'), level: 3 },
    ]);
  });

  it('copies a subtree, sharing media and thumbnails, under a free name', async () => {
    const first = await transfer(w.editor.client, 'copy', w.p('/Sport/Archive'), w.p('/News'));
    expect(first.body.results.nodes).toEqual([{ from: w.p('/Sport/Archive'), to: w.p('/News/Archive') }]);
    expect(first.body.results.message).toBe(
      NODE_MESSAGES.transferred(w.p('/Sport/Archive'), 'copied', w.p('/News')),
    );
    const again = await transfer(w.editor.client, 'copy', w.p('/Sport/Archive'), w.p('/News'));
    expect(again.body.results.nodes[0]?.to).toBe(w.p('/News/Archive (copy)'));
    expect(await childNames('/News')).toEqual(['Archive', 'Archive (copy)', 'Clip A', 'Clip B']);
    const copy = await listNodes(w.editor.client, { path: w.p('/News/Archive (copy)') });
    const [oldClip] = copy.body.results.children;
    expect(oldClip).toMatchObject({ name: 'Old clip', parentId: copy.body.results.node.nodeId });
    expect(oldClip?.nodeId).not.toBe(w.tree.oldClip.id);
    expect(await childNames('/Sport/Archive')).toEqual(['Old clip']);
    const clip = await transfer(w.editor.client, 'copy', w.p('/News/Clip A'), w.p('/Sport'));
    expect(clip.status).toBe(200);
    const copied = await listNodes(w.editor.client, { path: w.p('/Sport'), childFilter: 'Clip A' });
    expect(copied.body.results.children[0]).toMatchObject({ mediaId: w.clipMedia.id, thumbId: w.thumb.id });
  });

  it('transfers several sources all or nothing', async () => {
    await postNodes(w.editor.client, '/api/nodes', { parentPath: w.p(), type: 'folder', name: 'Target' });
    await postNodes(w.editor.client, '/api/nodes', {
      parentPath: w.p('/Target'),
      type: 'folder',
      name: 'Clip B',
    });
    const both = [w.p('/News/Clip A'), w.p('/News/Clip B')];
    expect(await failure(w.editor.client, 'move', both, w.p('/Target'))).toEqual([
      409,
      NODE_MESSAGES.nameTaken('Clip B', w.p('/Target')),
    ]);
    expect(await childNames('/News')).toContain('Clip A');
    expect(await childNames('/Target')).toEqual(['Clip B']);
    const copied = await transfer(w.editor.client, 'copy', both, w.p('/Target'));
    expect(copied.body.results.message).toBe(
      NODE_MESSAGES.transferred(`${w.p('/News/Clip A')} and 1 more`, 'copied', w.p('/Target')),
    );
    expect(await childNames('/Target')).toEqual(['Clip A', 'Clip B', 'Clip B (copy)']);
  });
});

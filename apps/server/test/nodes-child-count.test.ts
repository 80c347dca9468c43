import type { TransferResult } from '@media/contract';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';
import { listNodes, makeNodesWorld, type NodesWorld, postNodes } from './nodes-world.ts';

/**
 * A node's child count is kept by the database (migration 0030's statement triggers), not counted per
 * request: after every kind of change each node's kept count equals its children counted afresh, and the
 * listings show it.
 */
describe(`kept child counts (${testDriver()})`, () => {
  let t: TestApp;
  let w: NodesWorld;

  /** Nodes whose kept count differs from their children counted now. */
  const wrongCounts = async () =>
    (
      (await t.ctx.db.execute(sql`
        select n.path, n.child_count as kept, (select count(*)::int from nodes c where c.parent_id = n.id) as counted
        from nodes n where n.child_count <> (select count(*) from nodes c where c.parent_id = n.id)`)) as unknown as {
        rows: { path: string; kept: number; counted: number }[];
      }
    ).rows;
  const folderOf = async (inner: string) => {
    const answer = await listNodes(w.accountManager.client, { path: w.p(inner) });
    expect(answer.status).toBe(200);
    return { childCount: answer.body.results.node.childCount, total: answer.body.total };
  };
  const transfer = (operation: 'move' | 'copy', srcPath: string | string[], dstPath: string) =>
    postNodes<{ results: TransferResult }>(w.editor.client, '/api/nodesTransfer', {
      srcPath,
      dstPath,
      operation,
    });

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeNodesWorld(t);
  });
  afterEach(async () => {
    expect(await wrongCounts()).toEqual([]);
  });
  afterAll(() => t.close());

  it('counts the children a world was made with, and a set-based insert of 300 at once', async () => {
    const before = await folderOf('/Sport');
    await t.ctx.db.execute(sql`insert into nodes (account_id, parent_id, path, name, type)
      select parent.account_id, parent.id, parent.path || '/Take ' || g, 'Take ' || g, 'source'
      from nodes parent cross join generate_series(1, 300) g
      where parent.account_id = ${w.account.id} and parent.path = '/Sport'`);
    const after = await folderOf('/Sport');
    expect(after.childCount).toBe(before.childCount + 300);
    expect(after.total).toBe(after.childCount);
  });

  it('moves a node off one folder onto another, and copies a subtree with its counts', async () => {
    const news = await folderOf('/News');
    const sport = await folderOf('/Sport');
    expect((await transfer('move', w.p('/News/Clip A'), w.p('/Sport'))).status).toBe(200);
    expect((await folderOf('/News')).childCount).toBe(news.childCount - 1);
    expect((await folderOf('/Sport')).childCount).toBe(sport.childCount + 1);
    const archive = await folderOf('/News/Archive');
    expect((await transfer('copy', w.p('/News/Archive'), w.p('/Sport'))).status).toBe(200);
    expect((await folderOf('/Sport')).childCount).toBe(sport.childCount + 2);
    expect((await folderOf('/Sport/Archive')).childCount).toBe(archive.childCount);
  });

  it('counts off the children of a deleted subtree, level by level, and a rename changes nothing', async () => {
    const sport = await folderOf('/Sport');
    await t.ctx.db.execute(
      sql`delete from nodes where account_id = ${w.account.id} and path = '/Sport/Archive'`,
    );
    expect((await folderOf('/Sport')).childCount).toBe(sport.childCount - 1);
    await t.ctx.db.execute(sql`update nodes set metadata = '{"desk": "sport"}'::jsonb
      where account_id = ${w.account.id} and path like '/Sport/%'`);
    expect((await folderOf('/Sport')).childCount).toBe(sport.childCount - 1);
  });
});

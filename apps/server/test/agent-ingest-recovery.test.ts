import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodes } from '../src/modules/nodes/tables.ts';
import { makeArrivalsFolderRow } from '../src/seed/demo-edge.ts';
import { ffprobe, type IngestWorld, makeClip, makeIngestWorld, one } from './agent-ingest-world.ts';
import { eventually, testDriver } from './harness.ts';

/**
 * Real ingest across what happens to it: an agent stopped mid-ingest leaves its item ingesting and the next
 * agent takes it up again; `duplicated` follows where the content is in the media tree (moved, deleted, or
 * landed by another arrivals folder into the same tree folder).
 */
describe(`real ingest: restart and duplicates (${testDriver()})`, () => {
  let x: IngestWorld;
  let clip: string;
  const rushes = { id: 0, dir: '' };
  const sameTree = { id: 0, dir: '' };

  beforeAll(async () => {
    x = await makeIngestWorld('ingest-recovery');
    const accountId = x.w.account.id;
    const folder = await makeArrivalsFolderRow(x.t.ctx.db, { accountId, name: 'Rushes', typeId: 'standard' });
    // Another arrivals folder whose files land in the same tree folder (names compare without case).
    const twin = await makeArrivalsFolderRow(x.t.ctx.db, { accountId, name: 'rushes', typeId: 'proxyOnly' });
    Object.assign(rushes, await x.endpoint('rushes', { arrivalsFolderId: folder.id }));
    Object.assign(sameTree, await x.endpoint('same-tree', { arrivalsFolderId: twin.id }));
    clip = path.join(x.work, 'clip.mp4');
    makeClip(clip, { seconds: 2 });
  });
  afterAll(() => x.close());

  it('takes up an item its stopped agent left ingesting, and lands it once', async () => {
    const first = x.agent('state');
    const file = path.join(rushes.dir, 'long.mp4');
    makeClip(file, { seconds: 12, size: '1280x720', rate: 30 });
    await first.tick();
    await first.tick();
    const item = await eventually(async () => {
      const row = await x.itemOf(rushes.id, 'long.mp4');
      return row.status === 'ingesting' && (row.progress ?? 0) >= 10 ? row : undefined;
    }, 30_000);
    await first.stop();
    // Stopping ends ffmpeg but is no decision about the item: it stays ingesting, its work files stay.
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain(file);
    expect((await x.itemOf(rushes.id, 'long.mp4')).status).toBe('ingesting');
    expect(fs.existsSync(path.join(x.work, 'state', 'work', String(item.id)))).toBe(true);

    const second = x.agent('state');
    await x.round(second);
    const done = await x.itemOf(rushes.id, 'long.mp4');
    expect(done.status, done.log).toBe('ingested');
    expect(done.log).toContain('taken up again after an agent restart');
    expect(done.whenStarted).toEqual(item.whenStarted);
    const served = await x.servedProxy(item.id);
    expect(served.node.path).toBe('/Arrivals/Rushes/long');
    expect(Math.abs(Number(ffprobe(served.file).format.duration) - 12)).toBeLessThan(0.2);
    const landed = await x.t.ctx.db.select().from(nodes).where(eq(nodes.name, 'long'));
    expect(landed).toHaveLength(1);
    expect(fs.existsSync(path.join(x.work, 'state', 'work', String(item.id)))).toBe(false);
    await second.stop();
  });

  it('takes an item up again when the report of its end did not reach the cloud', async () => {
    // A way to the cloud that loses the first report of an ingested item (a 503, as from a load balancer).
    let lost = 0;
    const lossy = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        if (lost === 0 && /"status":"ingested"/.test(body.toString('latin1'))) {
          lost += 1;
          response.writeHead(503, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'Service unavailable', code: 'unavailable' } }));
          return;
        }
        const upstream = http.request(
          new URL(request.url ?? '/', x.cloudUrl),
          { method: request.method, headers: request.headers },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => lossy.listen(0, '127.0.0.1', resolve));
    const address = lossy.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    try {
      const agent = x.agent('state-lossy', `http://127.0.0.1:${address.port}`);
      makeClip(path.join(rushes.dir, 'lost.mp4'), { seconds: 1, size: '160x120' });
      await x.round(agent);
      const left = await x.itemOf(rushes.id, 'lost.mp4');
      expect(lost).toBe(1);
      expect(left.status).toBe('ingesting');
      expect(await x.nodeOf(left.id)).toBeUndefined();
      await x.round(agent);
      const done = await x.itemOf(rushes.id, 'lost.mp4');
      expect(done.status, done.log).toBe('ingested');
      expect(done.log).toContain('taken up again (its last report did not reach the cloud)');
      expect(done.log).toContain('Proxy made by an earlier attempt: reused');
      expect((await x.servedProxy(done.id)).node.path).toBe('/Arrivals/Rushes/lost');
      await agent.stop();
    } finally {
      lossy.close();
    }
  });

  it('names where the content is now, and ingests it again once its node is gone', async () => {
    const agent = x.agent('state-2');
    const drop = async (dir: string, name: string) => {
      fs.copyFileSync(clip, path.join(dir, name));
      await x.round(agent);
    };
    const account = x.w.account.name;
    await drop(rushes.dir, 'a.mp4');
    const a = await x.itemOf(rushes.id, 'a.mp4');
    expect(a.status, a.log).toBe('ingested');
    await drop(rushes.dir, 'b.mp4');
    expect(await x.itemOf(rushes.id, 'b.mp4')).toMatchObject({
      status: 'duplicated',
      error: `Already ingested as /${account}/Arrivals/Rushes/a`,
    });
    // Another arrivals folder landing in the same tree folder finds it there.
    await drop(sameTree.dir, 'b2.mp4');
    expect(await x.itemOf(sameTree.id, 'b2.mp4')).toMatchObject({
      status: 'duplicated',
      error: `Already ingested as /${account}/Arrivals/Rushes/a`,
    });

    // Moved elsewhere in the tree, the node an item of the folder made still holds the content.
    const { db } = x.t.ctx;
    const landed = one(
      await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.accountId, x.w.account.id), eq(nodes.name, 'a'))),
    );
    const root = one(
      await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.accountId, x.w.account.id), eq(nodes.path, '/'))),
    );
    const elsewhere = one(
      await db
        .insert(nodes)
        .values({
          accountId: x.w.account.id,
          parentId: root.id,
          path: '/Elsewhere',
          name: 'Elsewhere',
          type: 'folder',
        })
        .returning(),
    );
    await db
      .update(nodes)
      .set({ parentId: elsewhere.id, path: '/Elsewhere/a' })
      .where(eq(nodes.id, landed.id));
    await drop(rushes.dir, 'c.mp4');
    expect(await x.itemOf(rushes.id, 'c.mp4')).toMatchObject({
      status: 'duplicated',
      error: `Already ingested as /${account}/Elsewhere/a`,
    });
    // Moved out of the tree folder, it is no twin for the other arrivals folder.
    await drop(sameTree.dir, 'c2.mp4');
    expect((await x.itemOf(sameTree.id, 'c2.mp4')).status).toBe('ingested');

    // Deleted, it holds the content no more; the tree folder still does, through the other arrivals folder.
    await db.delete(nodes).where(eq(nodes.id, landed.id));
    await drop(rushes.dir, 'd.mp4');
    expect(await x.itemOf(rushes.id, 'd.mp4')).toMatchObject({
      status: 'duplicated',
      error: `Already ingested as /${account}/Arrivals/Rushes/c2`,
    });
    // With both nodes deleted, the same file comes in again.
    await db.delete(nodes).where(and(eq(nodes.accountId, x.w.account.id), eq(nodes.name, 'c2')));
    await drop(rushes.dir, 'e.mp4');
    const e = await x.itemOf(rushes.id, 'e.mp4');
    expect(e.status, e.log).toBe('ingested');
    expect((await x.servedProxy(e.id)).node.path).toBe('/Arrivals/Rushes/e');
  });
});

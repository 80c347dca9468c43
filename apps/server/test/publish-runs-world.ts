import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newButtonBody, type Phase, type TransferResult } from '@media/contract';
import { eq } from 'drizzle-orm';
import { publishes } from '../src/modules/publishing/tables.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { makeClip } from './agent-ingest-world.ts';
import { buildTestApp, eventually, type TestClient } from './harness.ts';
import { postNodes } from './nodes-world.ts';
import { createButton, makePublishingWorld } from './publishing-world.ts';

/**
 * The publishing world plus a real 2 s video at /{account}/News/Interview, and the calls publish tests make:
 * a button of the account, a publish transfer, and waiting for a publish to end.
 */
export const makePublishRunsWorld = async () => {
  // The peers of these tests listen on 127.0.0.1 (the guard's tests turn loopback off again).
  const t = await buildTestApp({ WORKERS: '2', OUTBOUND_ALLOW_LOOPBACK: '1' });
  const w = await makePublishingWorld(t);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-runs-'));
  const file = path.join(work, 'interview.mp4');
  makeClip(file, { seconds: 2, size: '320x240' });
  const key = `media/accounts/${w.account.id}/test/interview.mp4`;
  await t.ctx.storage.putStream(key, fs.createReadStream(file));
  const media = await makeMediaRow(t.ctx.db, {
    accountId: w.account.id,
    name: 'Interview',
    storagePath: key,
    contentType: 'video/mp4',
    width: 320,
    height: 240,
    duration: 2,
  });
  await makeNodeRow(t.ctx.db, { accountId: w.account.id, parentPath: '/', name: 'News', type: 'folder' });
  await makeNodeRow(t.ctx.db, {
    accountId: w.account.id,
    parentPath: '/News',
    name: 'Interview',
    type: 'source',
    mediaId: media.id,
  });

  /** A button of the account: source → {process} → {destination} with their options. */
  const button = (
    name: string,
    process: { moduleId: string; options: Record<string, unknown> },
    destination: { moduleId: string; options: Record<string, unknown> } = {
      moduleId: 'folder-export',
      options: { folder: `web/${name}` },
    },
  ) => {
    const body = newButtonBody({
      name,
      processModuleId: process.moduleId,
      destinationModuleId: destination.moduleId,
    });
    const [phase] = body.phases as [Phase];
    for (const node of phase.phase.network.nodes) {
      if (node.moduleId === process.moduleId) node.options = process.options;
      if (node.moduleId === destination.moduleId) node.options = destination.options;
    }
    return createButton(w.accountManager.client, 'accounts', w.account.id, body);
  };
  const publish = (client: TestClient, srcPath: string | string[], dstPath: string) =>
    postNodes<{ results: TransferResult }>(client, '/api/nodesTransfer', {
      srcPath,
      dstPath,
      operation: 'publish',
    });
  /** The publish once it is done or failed. */
  const settled = async (id: number) => {
    await eventually(async () => {
      const [row] = await t.ctx.db.select().from(publishes).where(eq(publishes.id, id));
      return row && ['done', 'failed'].includes(row.status) ? row : undefined;
    }, 60_000);
    const [row] = await t.ctx.db.select().from(publishes).where(eq(publishes.id, id));
    return row;
  };
  /** The editor publishes the clip with the account's button `name`: the publish once it has ended. */
  const publishClip = async (name: string) => {
    const answer = await publish(
      w.editor.client,
      `/${w.account.name}/News/Interview`,
      `/${w.account.name}/Publish/${name}`,
    );
    if (answer.status !== 200)
      throw new Error(`Publishing with ${name} answered ${JSON.stringify(answer.body)}`);
    return settled((answer.body.results.publishIds as [number])[0]);
  };
  return {
    t,
    w,
    work,
    clipPath: `/${w.account.name}/News/Interview`,
    folderPath: `/${w.account.name}/News`,
    button,
    publish,
    settled,
    publishClip,
    close: async () => {
      await t.close();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
};
export type PublishRunsWorld = Awaited<ReturnType<typeof makePublishRunsWorld>>;

import fs from 'node:fs';
import path from 'node:path';
import { newButtonBody, type Phase, PUBLISH_RUN_MESSAGES, type TransferResult } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media } from '../src/modules/nodes/tables.ts';
import { ffprobe, makeClip, videoOf } from './agent-ingest-world.ts';
import { testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { createButton } from './publishing-world.ts';

/**
 * The source module's File option (issue 15 item 3): a button publishes the playable proxy by default, or
 * the original when the cloud keeps it; asking for an original that is not kept fails saying so.
 */
describe(`publishing the original (${testDriver()})`, () => {
  let world: PublishRunsWorld;

  const publishOnce = async () => {
    const answer = await world.publish(
      world.w.editor.client,
      world.clipPath,
      `/${world.w.account.name}/Publish/Originals`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const id = ((answer.body as { results: TransferResult }).results.publishIds as [number])[0];
    return world.settled(id);
  };

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    const body = newButtonBody({
      name: 'Originals',
      processModuleId: 'as-is',
      destinationModuleId: 'folder-export',
    });
    for (const node of (body.phases[0] as Phase).phase.network.nodes) {
      if (node.moduleId === 'source-media') node.options = { file: 'source' };
      if (node.moduleId === 'folder-export') node.options = { folder: 'originals' };
    }
    await createButton(world.w.accountManager.client, 'accounts', world.w.account.id, body);
  });
  afterAll(() => world.close());

  it('fails at once when the original is not kept, and publishes the original when it is', async () => {
    expect(await publishOnce()).toMatchObject({
      status: 'failed',
      error: PUBLISH_RUN_MESSAGES.originalNotKept('Interview'),
    });

    const original = path.join(world.work, 'original.mp4');
    makeClip(original, { seconds: 1, size: '640x360' });
    const key = `media/accounts/${world.w.account.id}/test/original.mp4`;
    await world.t.ctx.storage.putStream(key, fs.createReadStream(original));
    await world.t.ctx.db.update(media).set({ sourcePath: key }).where(eq(media.name, 'Interview'));

    const done = await publishOnce();
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    const info = ffprobe(path.join(world.t.config.dataDir, done?.outputs[0]?.location as string));
    // The original (640x360, 1 s), not the 320x240 proxy of 2 s.
    expect(videoOf(info)).toMatchObject({ width: 640, height: 360 });
    expect(Number(info.format.duration)).toBeCloseTo(1, 0);
  });
});

import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { media, nodes } from '../src/modules/nodes/tables.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { ffprobe, videoOf } from './agent-ingest-world.ts';
import { testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';

/**
 * Publishing a clip (issue 15): a clip that has no file yet, such as one saved before clips were rendered
 * or a seeded one, is rendered on demand; the publish waits for it and sends the rendered cut.
 */
describe(`publishing clips (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  beforeAll(async () => {
    world = await makePublishRunsWorld();
  });
  afterAll(() => world.close());

  it('renders a clip without a file when it is published, and exports its cut', async () => {
    const { t, w } = world;
    const [source] = await t.ctx.db
      .select({ mediaId: nodes.mediaId })
      .from(nodes)
      .where(eq(nodes.path, '/News/Interview'));
    const edl = { fps: 25, events: [{ mediaId: source?.mediaId as number, inFrame: 5, outFrame: 30 }] };
    // As a clip saved before clips were rendered: an edl, 'ready', and no file.
    const clip = await makeMediaRow(t.ctx.db, {
      accountId: w.account.id,
      name: 'Old cut',
      type: 'edl',
      edl,
      fps: 25,
    });
    await makeNodeRow(t.ctx.db, {
      accountId: w.account.id,
      parentPath: '/News',
      name: 'Old cut',
      type: 'edl',
      mediaId: clip.id,
    });
    await world.button('Clips', { moduleId: 'as-is', options: {} });
    const answer = await world.publish(
      w.editor.client,
      `/${w.account.name}/News/Old cut`,
      `/${w.account.name}/Publish/Clips`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const done = await world.settled((answer.body.results.publishIds as [number])[0]);
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    expect(done?.log).toContain('Attempt failed: The clip is not rendered yet');
    const [rendered] = await t.ctx.db.select().from(media).where(eq(media.id, clip.id));
    expect(rendered).toMatchObject({ status: 'ready', contentType: 'video/mp4' });
    const out = ffprobe(path.join(t.config.dataDir, done?.outputs[0]?.location as string));
    expect(videoOf(out)?.codec_name).toBe('h264');
    // (30 − 5) frames at 25 fps.
    expect(Number(out.format.duration)).toBeCloseTo(1, 1);
  }, 120_000);
});

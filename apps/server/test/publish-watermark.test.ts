import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  newButtonBody,
  type Phase,
  PUBLISH_RUN_MESSAGES,
  type PublishIcon,
  type PublishModule,
  WATERMARK_ICON_FIELD,
} from '@media/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, type Results, type TestClient, testDriver } from './harness.ts';
import { makePublishRunsWorld, type PublishRunsWorld } from './publish-runs-world.ts';
import { createButton, ctxUrl } from './publishing-world.ts';

/** A frame at 1 s as 64x48 grey bytes. */
const frame = (file: string) =>
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-ss', '1', '-i', file, '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', '64x48', '-'],
  ]);
/** The mean grey of columns x0..x1, rows y0..y1 of such a frame. */
const mean = (a: Buffer, x0: number, x1: number, y0: number, y1: number) => {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += a[y * 64 + x] ?? 0;
  return sum / ((x1 - x0) * (y1 - y0));
};

/**
 * The watermark module with an image (issue 15: "the button's icon or an uploaded image"): the run finds the
 * icon's PNG before the steps and overlays it in the corner asked.
 */
describe(`watermark images (${testDriver()})`, () => {
  let world: PublishRunsWorld;
  let icon: PublishIcon;
  const white = () =>
    sharp({ create: { width: 128, height: 64, channels: 4, background: '#ffffff' } })
      .png()
      .toBuffer();
  const upload = async (client: TestClient, accountId: number, name: string) => {
    const { body, headers } = multipartFile({ fileName: name, content: await white(), type: 'image/png' });
    const answer = await client.request<Results<PublishIcon>>({
      method: 'POST',
      url: ctxUrl('accounts', accountId, 'publishIcons'),
      body,
      headers,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.results;
  };
  /** The clip published with a watermark button of these options (and the button's own icon, if any). */
  const publishWith = async (
    name: string,
    options: Record<string, unknown>,
    iconId: number | null = null,
  ) => {
    const body = newButtonBody({ name, processModuleId: 'watermark', destinationModuleId: 'folder-export' });
    for (const node of (body.phases[0] as Phase).phase.network.nodes) {
      if (node.moduleId === 'watermark') node.options = options;
      if (node.moduleId === 'folder-export') node.options = { folder: 'marked' };
    }
    await createButton(world.w.accountManager.client, 'accounts', world.w.account.id, { ...body, iconId });
    return world.publishClip(name);
  };

  beforeAll(async () => {
    world = await makePublishRunsWorld();
    icon = await upload(world.w.accountManager.client, world.w.account.id, 'Station logo.png');
  });
  afterAll(() => world.close());

  it("offers the account's icons as the choices of the watermark's icon field", async () => {
    const { w } = world;
    const answer = await w.editor.client.get<{ results: PublishModule[] }>(
      ctxUrl('accounts', w.account.id, 'publishModules?kind=process'),
    );
    const watermark = answer.body.results.find((module) => module.id === 'watermark');
    expect(watermark?.schema.find((field) => field.name === WATERMARK_ICON_FIELD)).toMatchObject({
      allowedValues: [String(icon.id)],
      valueLabels: { [String(icon.id)]: 'Station logo' },
    });
  });

  it('burns an uploaded icon into the corner asked, and nowhere else', async () => {
    const { t } = world;
    const done = await publishWith('Logo', {
      image: 'uploaded',
      [WATERMARK_ICON_FIELD]: String(icon.id),
      position: 'bottom-right',
    });
    expect(done?.status, JSON.stringify(done?.log)).toBe('done');
    const source = frame(path.join(world.work, 'interview.mp4'));
    const marked = frame(path.join(t.config.dataDir, done?.outputs[0]?.location as string));
    // 15% of 48 rows high (7), twice as wide, 1.6 from the edges: white at 80% over the picture.
    expect(mean(marked, 52, 61, 40, 45)).toBeGreaterThan(190);
    expect(mean(marked, 52, 61, 40, 45) - mean(source, 52, 61, 40, 45)).toBeGreaterThan(40);
    expect(Math.abs(mean(marked, 0, 40, 0, 30) - mean(source, 0, 40, 0, 30))).toBeLessThan(3);
  });

  it("burns the button's own icon, and fails with the reason when there is no icon to burn", async () => {
    const own = await publishWith('Own icon', { image: 'button-icon', position: 'top-left' }, icon.id);
    expect(own?.status, JSON.stringify(own?.log)).toBe('done');

    expect(await publishWith('No icon', { image: 'button-icon', position: 'top-left' })).toMatchObject({
      status: 'failed',
      error: PUBLISH_RUN_MESSAGES.noButtonIcon('No icon'),
    });
    expect(await publishWith('Not chosen', { image: 'uploaded', position: 'top-left' })).toMatchObject({
      status: 'failed',
      error: PUBLISH_RUN_MESSAGES.iconNotFound,
    });
    // Another account's icon is never read, whatever id the options name.
    const admin = await world.t.admin();
    const foreign = await upload(admin, world.w.otherAccount.id, 'Their logo.png');
    expect(
      await publishWith('Foreign', {
        image: 'uploaded',
        [WATERMARK_ICON_FIELD]: String(foreign.id),
        text: 'Hello',
      }),
    ).toMatchObject({ status: 'failed', error: PUBLISH_RUN_MESSAGES.iconNotFound });
  });
});

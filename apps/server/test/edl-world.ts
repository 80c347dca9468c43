import fs from 'node:fs';
import path from 'node:path';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import { makeClip } from './agent-ingest-world.ts';
import type { TestApp, World } from './harness.ts';

/** A real 2 s 320x180 video at 25 fps stored as the account's media, at /Source: what clips are cut from. */
export const storeSourceMedia = async (t: TestApp, w: World, work: string) => {
  const file = path.join(work, 'source.mp4');
  makeClip(file, { seconds: 2, size: '320x180', rate: 25 });
  const key = `media/accounts/${w.account.id}/test/source.mp4`;
  await t.ctx.storage.putStream(key, fs.createReadStream(file));
  const source = await makeMediaRow(t.ctx.db, {
    accountId: w.account.id,
    name: 'Source',
    storagePath: key,
    contentType: 'video/mp4',
    width: 320,
    height: 180,
    fps: 25,
    duration: 2,
  });
  await makeNodeRow(t.ctx.db, {
    accountId: w.account.id,
    parentPath: '/',
    name: 'Source',
    mediaId: source.id,
  });
  return source.id;
};

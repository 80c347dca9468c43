import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { addLiveSegment } from '../src/modules/nodes/live.ts';
import { makeMediaRow, makeNodeRow, makeThumbRow } from '../src/seed/node-factories.ts';
import type { TestApp } from './harness.ts';
import { type NodesWorld, smallJpeg } from './nodes-world.ts';

export const VAULT_SUBTITLES = '1\n00:00:00,500 --> 00:00:01,300\nSEALED\n';
export const EVIDENCE_BYTES = Buffer.from(Array.from({ length: 2048 }, (_, index) => (index * 7) % 256));
const CUT_BYTES = Buffer.from('rendered cut of the evidence');

/**
 * The account's /Vault, hidden from Viewers, Editors and Loggers (media-folder-access.test.ts): a media with
 * a thumbnail and subtitles, a live recording, a cut of the evidence, a media a visible node shares, and a
 * montage of visible and hidden pieces. Answers their ids and the evidence's thumbnail.
 */
export const makeHiddenVault = async (t: TestApp, w: NodesWorld) => {
  const store = async (key: string, content: Buffer) => {
    await t.ctx.storage.putStream(key, Readable.from([content]));
    return key;
  };
  const { db } = t.ctx;
  const accountId = w.account.id;
  // /Vault hides itself and everything below from Viewers, Editors and Loggers; the Account Manager role
  // and those who manage the account as themselves are not limited by it.
  await makeNodeRow(db, {
    accountId,
    name: 'Vault',
    permissions: [
      { roleId: w.roles.viewer.id, access: 'none' },
      { roleId: w.roles.editor.id, access: 'none' },
      { roleId: w.roles.logger.id, access: 'none' },
    ],
  });
  await makeNodeRow(db, { accountId, parentPath: '/Vault', name: 'Deep' });
  const evidenceJpeg = await smallJpeg({ r: 10, g: 10, b: 200 });
  const thumb = await makeThumbRow(db, {
    accountId,
    storagePath: await store(`thumbs/${accountId}/evidence.jpg`, evidenceJpeg),
  });
  const evidence = await makeMediaRow(db, {
    accountId,
    name: 'Evidence',
    storagePath: await store(`media/${accountId}/evidence.mp4`, EVIDENCE_BYTES),
    contentType: 'video/mp4',
    duration: 2,
    width: 160,
    height: 90,
    fps: 25,
    size: EVIDENCE_BYTES.length,
  });
  const evidenceNode = await makeNodeRow(db, {
    accountId,
    parentPath: '/Vault/Deep',
    name: 'Evidence',
    type: 'source',
    mediaId: evidence.id,
    thumbId: thumb.id,
  });
  const live = await makeMediaRow(db, { accountId, name: 'Hearing', type: 'lifestream' });
  await makeNodeRow(db, {
    accountId,
    parentPath: '/Vault',
    name: 'Hearing',
    type: 'source',
    mediaId: live.id,
  });
  await addLiveSegment(t.ctx, {
    mediaId: live.id,
    accountId,
    sequence: 0,
    duration: 2,
    discontinuity: false,
    stream: Readable.from([Buffer.from('segment bytes')]),
  });
  const cut = await makeMediaRow(db, {
    accountId,
    name: 'Cut',
    type: 'edl',
    edl: { fps: 25, events: [{ mediaId: evidence.id, inFrame: 0, outFrame: 25 }] },
    storagePath: await store(`media/${accountId}/cut.mp4`, CUT_BYTES),
    contentType: 'video/mp4',
    fps: 25,
    duration: 1,
  });
  await makeNodeRow(db, { accountId, parentPath: '/Vault', name: 'Cut', type: 'edl', mediaId: cut.id });
  // A media shown both in the vault and, as a copy, in /News: the copy shows it to viewers.
  const shared = await makeMediaRow(db, { accountId, name: 'Shared' });
  await makeNodeRow(db, {
    accountId,
    parentPath: '/Vault',
    name: 'Shared',
    type: 'source',
    mediaId: shared.id,
    metadata: { location: 'Safe house' },
  });
  await makeNodeRow(db, {
    accountId,
    parentPath: '/News',
    name: 'Shared',
    type: 'source',
    mediaId: shared.id,
    metadata: { location: 'Newsroom' },
  });
  // A clip in /News (seen by all) made by someone who sees the vault, of Clip A and of the evidence.
  const montage = await makeMediaRow(db, {
    accountId,
    name: 'Montage',
    type: 'edl',
    edl: {
      fps: 25,
      events: [
        { mediaId: w.clipMedia.id, inFrame: 0, outFrame: 10 },
        { mediaId: evidence.id, inFrame: 0, outFrame: 10 },
      ],
    },
    fps: 25,
  });
  await makeNodeRow(db, {
    accountId,
    parentPath: '/News',
    name: 'Montage',
    type: 'edl',
    mediaId: montage.id,
  });
  const ids = {
    evidence: evidence.id,
    thumb: thumb.id,
    live: live.id,
    cut: cut.id,
    shared: shared.id,
    montage: montage.id,
    evidenceNode: evidenceNode.id,
  };
  const subtitles = await w.admin.client.request({
    method: 'PUT',
    url: `/api/media/${evidence.id}/subtitles/en`,
    body: VAULT_SUBTITLES,
    headers: { 'content-type': 'application/x-subrip' },
  });
  expect(subtitles.status).toBe(200);
  return { ids, evidenceJpeg };
};

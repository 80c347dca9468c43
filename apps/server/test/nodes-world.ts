import { Readable } from 'node:stream';
import { API_VERSION_HEADER, API_VERSIONS, type MediaNode, type NodeListing } from '@media/contract';
import sharp from 'sharp';
import { findRoleByName, grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow, makeThumbRow } from '../src/seed/node-factories.ts';
import { makeWorld, type TestApp, type TestClient } from './harness.ts';

export const VERSION_HEADERS = { [API_VERSION_HEADER]: API_VERSIONS.supported[0] as string };

export type Listing = { results: NodeListing; total: number; totalCapped: boolean; channel: string };

/** GET /api/nodes with a query object (search clauses as JSON, repeatable). */
export const listNodes = (client: TestClient, query: Record<string, string | number | string[]>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  return client.get<Listing>(`/api/nodes?${params}`, VERSION_HEADERS);
};

export const postNodes = <T = { results: MediaNode }>(client: TestClient, url: string, body: unknown) =>
  client.post<T>(url, body, { headers: VERSION_HEADERS });

export const names = (nodes: { name: string }[]) => nodes.map((node) => node.name);

/** A small JPEG, made by sharp, as a real thumbnail is. */
export const smallJpeg = (color = { r: 200, g: 30, b: 30 }) =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

/** Stores a file through the app's media storage (DATA_DIR or a bucket), answering its key. */
const storeFile = async (t: TestApp, key: string, content: Buffer) => {
  await t.ctx.storage.putStream(key, Readable.from([content]));
  return key;
};

const day = (date: string) => new Date(`${date}T12:00:00Z`);

/**
 * The harness world plus a tree in its account (inner paths):
 *   /News (folder)  ← Clip A (source with media file and thumb), Archive (folder) ← Old clip, Clip B
 *   /Sport (folder), /Secret (hidden from Viewers) ← Plan, /Locked (view only for Editors) ← Inside
 * and a Viewer and a Logger of the account. The other account has /Elsewhere.
 */
export const makeNodesWorld = async (t: TestApp) => {
  const w = await makeWorld(t);
  const { db } = t.ctx;
  const accountId = w.account.id;
  const signedIn = async (role: string) => {
    const user = await makeUser(db);
    await grantAccountAccess(db, user.id, accountId, role);
    return { user, client: await t.client().signIn(user.username, user.password as string) };
  };
  const viewer = await signedIn('Viewer');
  const logger = await signedIn('Logger');
  const roles = {
    viewer: await findRoleByName(db, 'Viewer'),
    editor: await findRoleByName(db, 'Editor'),
    logger: await findRoleByName(db, 'Logger'),
  };
  const jpeg = await smallJpeg();
  const thumb = await makeThumbRow(db, {
    accountId,
    storagePath: await storeFile(t, `thumbs/${accountId}/clip-a.jpg`, jpeg),
  });
  const videoBytes = Buffer.from(Array.from({ length: 4096 }, (_, index) => index % 251));
  const clipMedia = await makeMediaRow(db, {
    accountId,
    name: 'Clip A',
    storagePath: await storeFile(t, `media/${accountId}/clip-a.mp4`, videoBytes),
    contentType: 'video/mp4',
    duration: 12.5,
    width: 640,
    height: 360,
    fps: 25,
    size: videoBytes.length,
  });
  const fileless = await makeMediaRow(db, { accountId, name: 'No file' });
  const node = (parentPath: string, name: string, extra: Parameters<typeof makeNodeRow>[1] = { accountId }) =>
    makeNodeRow(db, { ...extra, accountId, parentPath, name });
  const tree = {
    news: await node('/', 'News', { accountId, createdAt: day('2026-01-01') }),
    sport: await node('/', 'Sport', { accountId, createdAt: day('2026-01-02') }),
    secret: await node('/', 'Secret', {
      accountId,
      createdAt: day('2026-01-03'),
      permissions: [{ roleId: roles.viewer.id, access: 'none' }],
    }),
    locked: await node('/', 'Locked', {
      accountId,
      createdAt: day('2026-01-04'),
      permissions: [{ roleId: roles.editor.id, access: 'view' }],
    }),
    clipA: await node('/News', 'Clip A', {
      accountId,
      type: 'source',
      mediaId: clipMedia.id,
      thumbId: thumb.id,
      createdAt: day('2026-01-10'),
      metadata: { location: 'Harbour', reporter: 'Jo Bloggs' },
      artefacts: [{ url: 'field59://abc123' }],
    }),
    archive: await node('/News', 'Archive', { accountId, createdAt: day('2026-01-11') }),
    clipB: await node('/News', 'Clip B', {
      accountId,
      type: 'source',
      createdAt: day('2026-01-12'),
      metadata: { location: 'Station 100%', note: 'Said "go" \\ now' },
    }),
    oldClip: await node('/News/Archive', 'Old clip', {
      accountId,
      type: 'source',
      createdAt: day('2025-06-01'),
      metadata: { location: 'Harbour' },
    }),
    plan: await node('/Secret', 'Plan', { accountId, type: 'source', metadata: { location: 'Harbour' } }),
    inside: await node('/Locked', 'Inside', { accountId, type: 'source' }),
  };
  const elsewhere = await makeNodeRow(db, { accountId: w.otherAccount.id, name: 'Elsewhere' });
  const otherMedia = await makeMediaRow(db, { accountId: w.otherAccount.id, name: 'Theirs' });
  const a = `/${w.account.name}`;
  return {
    ...w,
    viewer,
    logger,
    roles,
    jpeg,
    thumb,
    clipMedia,
    fileless,
    otherMedia,
    videoBytes,
    tree,
    elsewhere,
    /** API path of an inner path of the world's account. */
    p: (inner = '') => `${a}${inner}`,
    other: `/${w.otherAccount.name}`,
  };
};
export type NodesWorld = Awaited<ReturnType<typeof makeNodesWorld>>;

import { newButtonBody, type PublishButton, type PublishButtonBody } from '@media/contract';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { liveChanges } from '../src/modules/events/tables.ts';
import { publishes } from '../src/modules/publishing/tables.ts';
import { makeEdgeServerRow } from '../src/seed/demo-edge.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { type Collection, makeWorld, type Results, type TestApp, type TestClient } from './harness.ts';

// The world of the publishing tests (publishing-*.test.ts): the harness's organisation, a Viewer of the
// account, and one connected and one silent edge server on the site.

export const makePublishingWorld = async (t: TestApp) => {
  const world = await makeWorld(t);
  const { db } = t.ctx;
  const viewerUser = await makeUser(db);
  await grantAccountAccess(db, viewerUser.id, world.account.id, 'Viewer');
  const viewer = {
    user: viewerUser,
    client: await t.client().signIn(viewerUser.username, viewerUser.password as string),
  };
  const liveEdge = await makeEdgeServerRow(db, {
    userId: viewerUser.id,
    siteId: world.site.id,
    name: 'Studio edge',
    lastSeenAt: new Date(),
  });
  const silentEdge = await makeEdgeServerRow(db, {
    userId: viewerUser.id,
    siteId: world.site.id,
    name: 'Archive edge',
  });
  const otherEdge = await makeEdgeServerRow(db, { userId: viewerUser.id, siteId: world.otherSite.id });
  return { ...world, viewer, liveEdge, silentEdge, otherEdge };
};
export type PublishingWorld = Awaited<ReturnType<typeof makePublishingWorld>>;

/** A good button: source → As is → Export to folder (spec3 §3 new button). */
export const buttonBody = (name: string, overrides: Partial<PublishButtonBody> = {}): PublishButtonBody => ({
  ...newButtonBody({ name, processModuleId: 'as-is', destinationModuleId: 'folder-export' }),
  ...overrides,
});

export const ctxUrl = (scope: 'accounts' | 'sites', id: number, rest: string) =>
  `/api/${scope}/${id}/${rest}`;

export const createButton = async (
  client: TestClient,
  scope: 'accounts' | 'sites',
  id: number,
  body: unknown,
) => {
  const response = await client.post<Results<{ id: number }>>(ctxUrl(scope, id, 'publishButtons'), body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results.id;
};

export const listButtons = async (
  client: TestClient,
  scope: 'accounts' | 'sites',
  id: number,
  query = '',
) => {
  const response = await client.get<Collection<PublishButton>>(
    ctxUrl(scope, id, `publishButtons?phases=expand${query}`),
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

/** Published items of a button (the publishing engine is not here yet, so tests write them). */
export const addPublishes = async (t: TestApp, buttonId: number, accountId: number, count: number) => {
  await t.ctx.db
    .insert(publishes)
    .values(Array.from({ length: count }, () => ({ buttonId, accountId, status: 'done' as const })));
};

/** The ids announced on a live channel so far. */
export const publishedOn = async (t: TestApp, channel: string) =>
  (await t.ctx.db.select().from(liveChanges).where(eq(liveChanges.channel, channel))).flatMap(
    (row) => row.modified,
  );

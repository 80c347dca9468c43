import type { DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { liveChanges } from '../src/modules/events/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import {
  makeArrivalsFolderRow,
  makeEdgeServerRow,
  makeEndpointRow,
  makeQueueItemRow,
  makeServiceRow,
} from '../src/seed/demo-edge.ts';
import { grantManagerOf, makeUser } from '../src/seed/factories.ts';
import { makeWorld, type Results, type TestApp, type TestClient, type World } from './harness.ts';

// The world shared by the edge tests (edge-*.test.ts) and the ingest queue tests
// (ingest-*.test.ts, unprocessed-files.test.ts). Each test file builds its own app and world.

export type Edge = {
  id: number;
  userId: number;
  userName: string;
  siteId: number | null;
  siteName: string | null;
  name: string;
  type: string;
  advancedOptions: typeof DEFAULT_EDGE_ADVANCED_OPTIONS;
  connected: boolean;
  lastSeen: string | null;
  supportConnection: boolean;
  serviceCount: number;
};
export type Service = {
  id: number;
  name: string;
  edgeServerId: number;
  typeId: string;
  serviceGroupId: number;
  options: Record<string, { value: string }>;
  endpointCount: number;
};
export type Endpoint = {
  id: number;
  name: string;
  typeId: string;
  category: string;
  accountId: number | null;
  siteId: number | null;
  serviceId: number;
  edgeServerId: number;
  arrivalsFolderId: number | null;
  workflowId: number | null;
  options: Record<string, string | number | boolean>;
  online: boolean;
  status: string;
  bad: boolean;
  pendingSettings: boolean;
  queueItemId: number | null;
};
export type ActionResult = { action: string; requestedAt: string; status: string; result: unknown };
export type SignedIn = { user: { id: number }; client: TestClient };

export const UNKNOWN = 999_999;

/** A new user, granted what `grant` gives, signed in. */
export const signedIn = async (t: TestApp, grant: (userId: number) => Promise<void>) => {
  const user = await makeUser(t.ctx.db);
  await grant(user.id);
  return { user, client: await t.client().signIn(user.username, user.password as string) };
};

/** The ids published on a live channel so far. */
export const publishedOn = async (t: TestApp, channel: string) =>
  (await t.ctx.db.select().from(liveChanges).where(eq(liveChanges.channel, channel))).flatMap(
    (row) => row.modified,
  );

export type EdgeWorld = {
  w: World;
  /** A plain user who owns edge servers. */
  owner: SignedIn;
  /** A site manager of another site. */
  otherManager: SignedIn;
  /** The owner's edge at w.site (made by an administrator) and one of their own, without a site. */
  siteEdge: Edge;
  ownEdge: Edge;
  fileService: Service;
  streamService: Service;
  endpoint: Endpoint;
};

/** The world of the edge tests: the owner's two edge servers, two services and one endpoint. */
export const makeEdgeWorld = async (t: TestApp): Promise<EdgeWorld> => {
  const w = await makeWorld(t);
  const owner = await signedIn(t, async () => {});
  const otherManager = await signedIn(t, (id) => grantManagerOf(t.ctx.db, id, 'site', w.otherSite.id));
  const created = await w.admin.client.post<Results<Edge & { agentToken: string }>>(
    `/api/users/${owner.user.id}/edgeServers`,
    { name: 'Paris ingest', siteId: w.site.id },
  );
  expect(created.status).toBe(200);
  const siteEdge = created.body.results;
  const own = await owner.client.post<Results<Edge>>(`/api/users/${owner.user.id}/edgeServers`, {
    name: 'Basement box',
  });
  const ownEdge = own.body.results;
  const fileService = (
    await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
      edgeServerId: siteEdge.id,
      name: 'Watch folders',
      typeId: 'FileIngestService',
      options: {},
    })
  ).body.results;
  const streamService = (
    await owner.client.post<Results<Service>>(`/api/edgeServers/${siteEdge.id}/services`, {
      edgeServerId: siteEdge.id,
      name: 'Live',
      typeId: 'StreamIngestService',
    })
  ).body.results;
  const endpoint = (
    await owner.client.post<Results<Endpoint>>(`/api/services/${fileService.id}/endpoints`, {
      name: 'New Local folder',
      typeId: 'LocalFolderEndpoint',
      options: { path: '/media/in' },
    })
  ).body.results;
  return { w, owner, otherManager, siteEdge, ownEdge, fileService, streamService, endpoint };
};

// ---- the ingest queue ---------------------------------------------------------------------------

export type QueueRow = typeof ingestQueueItems.$inferSelect;
export type QueueEndpoint = { id: number; accountId: number | null; arrivalsFolderId: number | null };
export type QueueItemValues = Partial<typeof ingestQueueItems.$inferInsert>;

export type IngestWorld = {
  w: World;
  edge: { id: number };
  otherEdge: { id: number };
  folder: { id: number };
  source: QueueEndpoint;
  stream: QueueEndpoint;
  disabledStream: QueueEndpoint;
  foreign: QueueEndpoint;
};

/** The world of the ingest queue tests: a site manager's edge with file and stream endpoints, and another edge. */
export const makeIngestWorld = async (t: TestApp): Promise<IngestWorld> => {
  const w = await makeWorld(t);
  const { db } = t.ctx;
  const edge = await makeEdgeServerRow(db, { userId: w.siteManager.user.id, siteId: w.site.id });
  const otherEdge = await makeEdgeServerRow(db, { userId: w.outsider.user.id });
  const folder = await makeArrivalsFolderRow(db, { accountId: w.account.id });
  const files = await makeServiceRow(db, { edgeServerId: edge.id });
  const streams = await makeServiceRow(db, { edgeServerId: edge.id, typeId: 'StreamIngestService' });
  await makeServiceRow(db, {
    edgeServerId: otherEdge.id,
    typeId: 'StreamIngestService',
    serviceGroupId: streams.serviceGroupId,
  });
  const otherService = await makeServiceRow(db, { edgeServerId: otherEdge.id });
  const source = await makeEndpointRow(db, {
    serviceId: files.id,
    accountId: w.account.id,
    arrivalsFolderId: folder.id,
  });
  const stream = await makeEndpointRow(db, {
    serviceId: streams.id,
    typeId: 'SrtEndpoint',
    accountId: w.account.id,
    arrivalsFolderId: folder.id,
  });
  const disabledStream = await makeEndpointRow(db, {
    serviceId: streams.id,
    typeId: 'SrtEndpoint',
    accountId: w.account.id,
    status: 'disabled',
  });
  const foreign = await makeEndpointRow(db, { serviceId: otherService.id, accountId: w.otherAccount.id });
  return { w, edge, otherEdge, folder, source, stream, disabledStream, foreign };
};

/** A queue item of an endpoint, on the given edge server. */
export const makeQueueItem = (
  t: TestApp,
  endpoint: QueueEndpoint,
  values: QueueItemValues,
  on: { id: number },
) =>
  makeQueueItemRow(t.ctx.db, {
    edgeServerId: on.id,
    endpointId: endpoint.id,
    accountId: endpoint.accountId,
    arrivalsFolderId: endpoint.arrivalsFolderId,
    ...values,
  });

/** A queue item's row as stored. */
export const queueRow = async (t: TestApp, id: number) =>
  (await t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.id, id)))[0] as QueueRow;

import fs from 'node:fs';
import path from 'node:path';
import {
  ACCUMULATE_METADATA_KEYS,
  API_VERSIONS,
  findEndpointType,
  folderAccessOf,
  INGEST_STATUSES,
  optionProblems,
  ROLE_VIEWER,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers, endpoints } from '../src/modules/edge/tables.ts';
import { unprocessedFiles } from '../src/modules/ingest/tables.ts';
import { media, nodes, thumbs } from '../src/modules/nodes/tables.ts';
import { accounts } from '../src/modules/organisation/tables.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { findRoleByName } from '../src/seed/factories.ts';
import { ADMIN_TEST_PASSWORD, buildTestApp, type TestApp, testDriver } from './harness.ts';

type Collection<T> = { results: T[]; total: number };
const DEMO_PASSWORD = 'Demo-Passw0rd!';

describe(`demo data (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemo(t.ctx.db, DEMO_PASSWORD, {
      files: { storage: t.ctx.storage, dataDir: t.ctx.config.dataDir },
    });
  });
  afterAll(() => t.close());

  it('gives every account page something to show: users, invites, sessions, workflows', async () => {
    const manager = await t.client().signIn('evening-news.manager', DEMO_PASSWORD);
    const [account] = (await manager.get<Collection<{ id: number; name: string }>>('/api/accounts')).body
      .results;
    expect(account?.name).toBe('evening-news');
    for (const list of ['userAccess', 'invites', 'sessions', 'workflows']) {
      const page = await manager.get<Collection<unknown>>(`/api/accounts/${account?.id}/${list}`);
      expect(page.status, list).toBe(200);
      expect(page.body.total, list).toBeGreaterThan(0);
    }
  });

  it('gives the arrivals, ingest queue, unprocessed files and status pages something to show', async () => {
    const manager = await t.client().signIn('evening-news.manager', DEMO_PASSWORD);
    const [account] = (await manager.get<Collection<{ id: number; name: string }>>('/api/accounts')).body
      .results;
    const folders = await manager.get<Collection<{ id: number; endpointCount: number }>>(
      `/api/accounts/${account?.id}/arrivalsFolders`,
    );
    expect(folders.body.total).toBeGreaterThan(0);
    expect(folders.body.results.some((folder) => folder.endpointCount > 0)).toBe(true);
    const assignments = await manager.get<Collection<unknown>>(
      `/api/accounts/${account?.id}/arrivalsFolderEndpointAssignments`,
    );
    expect(assignments.body.total).toBeGreaterThan(0);
    const queue = await manager.get<Collection<{ status: string }>>(
      `/api/accounts/${account?.id}/ingestQueueItems`,
    );
    expect(queue.body.total).toBeGreaterThan(5);
    const status = await manager.get<{ results: { type: string; status: string }[] }>(
      `/api/accounts/${account?.id}/status`,
    );
    expect(status.body.results.map((item) => item.type)).toEqual(
      expect.arrayContaining(['EdgeServer', 'Service', 'Endpoint']),
    );
    expect(status.body.results.some((item) => item.status === 'error')).toBe(true);

    const siteManager = await t.client().signIn('london.manager', DEMO_PASSWORD);
    const edges = await t.ctx.db.select({ id: edgeServers.id, name: edgeServers.name }).from(edgeServers);
    expect(edges).toHaveLength(2);
    const studio = edges.find((edge) => edge.name.includes('studio'));
    const every = await siteManager.get<
      Collection<{
        id: number;
        status: string;
        isStream: boolean;
        isSchedule: boolean;
        proxyWidth: number | null;
        endpointId: number;
      }>
    >(`/api/edgeServers/${studio?.id}/ingestQueueItems?filters=${INGEST_STATUSES.join('|')}`);
    expect(new Set(every.body.results.map((item) => item.status))).toEqual(new Set(INGEST_STATUSES));
    expect(every.body.results.some((item) => item.isStream && !item.isSchedule)).toBe(true);
    expect(every.body.results.some((item) => item.isSchedule)).toBe(true);
    const playable = every.body.results.find((item) => item.proxyWidth !== null);
    const thumbnail = await siteManager.get(
      `/api/ingestQueueItems/${playable?.id}/thumbnail?width=160&height=90`,
    );
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const failed = every.body.results.find((item) => item.status === 'failed');
    const log = await siteManager.get<{ results: { log: string } }>(
      `/api/ingestQueueItems/${failed?.id}/log`,
    );
    expect(log.body.results.log).not.toBe('');
    const [withFiles] = await t.ctx.db
      .select({ endpointId: unprocessedFiles.endpointId })
      .from(unprocessedFiles);
    const files = await siteManager.get<Collection<unknown>>(
      `/api/endpoints/${withFiles?.endpointId}/unprocessedFiles`,
    );
    expect(files.body.total).toBeGreaterThan(0);
  });

  it('gives each account a media tree: folders, sources with real files and thumbnails, a clip, a sequence, a hidden folder', async () => {
    const viewer = await findRoleByName(t.ctx.db, ROLE_VIEWER);
    const onDisk = (relative: string | null) =>
      relative !== null && fs.existsSync(path.join(t.ctx.config.dataDir, relative));
    for (const name of ['evening-news', 'sports-desk']) {
      const [account] = await t.ctx.db.select().from(accounts).where(eq(accounts.name, name));
      const tree = await t.ctx.db
        .select()
        .from(nodes)
        .where(eq(nodes.accountId, account?.id ?? 0));
      const byPath = new Map(tree.map((node) => [node.path, node]));
      for (const folder of ['/', '/News', '/News/Today', '/Sport', '/Archive', '/Promos', '/Legal hold'])
        expect(byPath.get(folder)?.type, `${name} ${folder}`).toBe('folder');
      const mediaRows = new Map(
        (
          await t.ctx.db
            .select()
            .from(media)
            .where(eq(media.accountId, account?.id ?? 0))
        ).map((row) => [row.id, row]),
      );
      // Every node that says it plays has its proxy, the ingested ones under /Arrivals too.
      const playable = tree.filter((node) => node.type === 'source');
      expect(playable.some((node) => node.path.startsWith('/Arrivals/'))).toBe(true);
      for (const node of playable) {
        const row = mediaRows.get(node.mediaId ?? 0);
        expect(row?.status, node.path).toBe('ready');
        expect(onDisk(row?.storagePath ?? null), node.path).toBe(true);
        expect(row?.contentType).toBe('video/mp4');
      }
      const sources = tree.filter((node) => node.type === 'source' && !node.path.startsWith('/Arrivals/'));
      expect(sources.length).toBeGreaterThanOrEqual(4);
      for (const source of sources) {
        const file = mediaRows.get(source.mediaId ?? 0);
        expect(file?.type).toBe('media');
        expect(onDisk(file?.storagePath ?? null), source.path).toBe(true);
        expect(file).toMatchObject({ width: 320, height: 180, fps: 25 });
        expect(file?.duration).toBeGreaterThan(5);
        expect(file?.size).toBe(fs.statSync(path.join(t.ctx.config.dataDir, file?.storagePath ?? '')).size);
        const [thumb] = await t.ctx.db
          .select()
          .from(thumbs)
          .where(eq(thumbs.id, source.thumbId ?? 0));
        expect(onDisk(thumb?.storagePath ?? null), `thumb of ${source.path}`).toBe(true);
        expect(source.metadata.filename).toMatch(/\.mp4$/);
      }
      const sourceMedia = new Set(sources.map((node) => node.mediaId));
      const edlOf = (node: (typeof tree)[number]) => mediaRows.get(node.mediaId ?? 0)?.edl?.events ?? [];
      const clip = tree.find((node) => node.type === 'edl');
      expect(clip && edlOf(clip).every((event) => sourceMedia.has(event.mediaId))).toBe(true);
      const sequence = tree.find((node) => node.type === 'sequence');
      expect(sequence && new Set(edlOf(sequence).map((event) => event.mediaId)).size).toBe(2);
      expect(tree.some((node) => ACCUMULATE_METADATA_KEYS.some((key) => key in node.metadata))).toBe(true);
      expect(tree.some((node) => node.artefacts.some((a) => a.url === 'field59://abc123'))).toBe(true);
      const hidden = byPath.get('/Legal hold');
      const chain = [byPath.get('/')?.permissions ?? [], hidden?.permissions ?? []];
      expect(folderAccessOf(viewer.id, chain)).toBe('none');
      expect(byPath.get('/Legal hold/Embargoed interview')?.type).toBe('source');
      // The queue's ingested files are in the tree where the agent's report puts them.
      expect(
        tree.some((node) => node.type === 'source' && node.path.startsWith('/Arrivals/Incoming rushes/')),
      ).toBe(true);
    }
    // Through the media tree itself: the Viewer does not see the hidden folder, the Account Manager does.
    type Listing = { results: { children: { name: string }[] } };
    const rootOf = async (username: string) => {
      const client = await t.client().signIn(username, DEMO_PASSWORD);
      const answer = await client.get<Listing>('/api/nodes?path=/evening-news', {
        'x-api-version': API_VERSIONS.nodes,
      });
      expect(answer.status).toBe(200);
      return answer.body.results.children.map((child) => child.name);
    };
    expect(await rootOf('evening-news.manager')).toEqual(expect.arrayContaining(['News', 'Legal hold']));
    const seen = await rootOf('evening-news.viewer');
    expect(seen).toContain('News');
    expect(seen).not.toContain('Legal hold');
  });

  it('gives the publishing buttons page something to show: good buttons, one disabled and hidden from viewers', async () => {
    type Button = { name: string; enabled: boolean; bad: boolean; siteId: number | null };
    const list = async (username: string) => {
      const client = await t.client().signIn(username, DEMO_PASSWORD);
      const [account] = (await client.get<Collection<{ id: number }>>('/api/accounts')).body.results;
      const page = await client.get<Collection<Button>>(
        `/api/accounts/${account?.id}/publishButtons?phases=expand&includeAll=1`,
      );
      expect(page.status, username).toBe(200);
      return page.body.results;
    };
    const managed = await list('evening-news.manager');
    expect(managed.map((button) => button.name).sort()).toEqual([
      'Archive copy',
      'Partner FTP',
      'Site archive',
      'Web (YouTube)',
    ]);
    expect(managed.filter((button) => button.bad)).toEqual([]);
    expect(managed.find((button) => button.name === 'Partner FTP')?.enabled).toBe(false);
    expect(managed.find((button) => button.name === 'Site archive')?.siteId).not.toBeNull();
    const viewed = await list('evening-news.viewer');
    expect(viewed.map((button) => button.name)).not.toContain('Partner FTP');
    expect(viewed.length).toBeGreaterThan(0);
  });

  it('is valid data: every endpoint opens without a required option missing or an unknown one', async () => {
    const rows = await t.ctx.db.select().from(endpoints);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const type = findEndpointType(row.typeId);
      expect(type, row.typeId).toBeDefined();
      expect([row.name, optionProblems(type?.options ?? [], row.options)]).toEqual([row.name, {}]);
    }
  });

  it('shows no endpoint as OK on an edge server that is not connected', async () => {
    const admin = await t.client().signIn('admin', ADMIN_TEST_PASSWORD);
    const edges = await t.ctx.db.select().from(edgeServers);
    for (const edge of edges) {
      const listed = await admin.get<Collection<{ name: string; status: string }> & { results: unknown }>(
        `/api/edgeServers/${edge.id}/endpoints`,
      );
      expect(listed.status).toBe(200);
      const connected = edge.lastSeenAt !== null && Date.now() - edge.lastSeenAt.getTime() < 60_000;
      if (!connected)
        for (const point of listed.body.results)
          expect([point.name, point.status]).not.toEqual([point.name, 'ok']);
    }
  });

  it('is loaded once: a second run adds nothing', async () => {
    expect(await seedDemo(t.ctx.db, DEMO_PASSWORD)).toBeUndefined();
  });
});

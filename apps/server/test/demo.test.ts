import { INGEST_STATUSES } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { unprocessedFiles } from '../src/modules/ingest/tables.ts';
import { seedDemo } from '../src/seed/demo.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

type Collection<T> = { results: T[]; total: number };
const DEMO_PASSWORD = 'Demo-Passw0rd!';

describe(`demo data (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await seedDemo(t.ctx.db, DEMO_PASSWORD, { dataDir: t.ctx.config.dataDir });
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

  it('is loaded once: a second run adds nothing', async () => {
    expect(await seedDemo(t.ctx.db, DEMO_PASSWORD)).toBeUndefined();
  });
});

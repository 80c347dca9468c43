import {
  type AccountDashboard,
  DASHBOARD_RECENT_LIMIT,
  DIAGNOSTIC_CHECKS,
  type Diagnostics,
  INGEST_STATUSES,
  NODE_TYPES,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdgeServerRow, makeQueueItemRow } from '../src/seed/demo-edge.ts';
import { findRoleByName } from '../src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../src/seed/node-factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  eventually,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

const countOf = <K extends string, T extends Record<K, string> & { count: number }>(
  rows: T[],
  key: K,
  value: string,
) => rows.find((row) => row[key] === value)?.count;

describe(`diagnostics and the account dashboard (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;

  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /api/diagnostics', () => {
    it('answers versions, timed checks, job queues, storage and edge servers, most recently seen first', async () => {
      const { db } = t.ctx;
      const seen = new Date(Date.now() - 5_000);
      await makeEdgeServerRow(db, { name: 'Diag never', userId: w.outsider.user.id });
      await makeEdgeServerRow(db, {
        name: 'Diag old',
        userId: w.outsider.user.id,
        lastSeenAt: new Date(Date.now() - 86_400_000),
      });
      await makeEdgeServerRow(db, { name: 'Diag live', userId: w.outsider.user.id, lastSeenAt: seen });

      const response = await w.admin.client.get<Results<Diagnostics>>('/api/diagnostics');
      expect(response.status).toBe(200);
      const d = response.body.results;
      expect(d.versions.node).toBe(process.version);
      expect(d.versions.product).toMatch(/^\d+\.\d+\.\d+/);
      expect(d.versions.database.driver).toBe(t.driver);
      expect(d.versions.database.version).toMatch(/^\d+(\.\d+)?/);
      // Debian's ffmpeg is installed where the tests run (the media tests need it too).
      expect(d.versions.ffmpeg).toMatch(/^\S+$/);
      expect(d.versions.ffprobe).toBe(d.versions.ffmpeg);

      expect(d.checks.map((check) => check.name)).toEqual([...DIAGNOSTIC_CHECKS]);
      for (const check of d.checks.filter((c) => c.name !== 'mail')) {
        expect(check.status, `${check.name}: ${check.message}`).not.toBe('error');
        expect(check.ms).toBeGreaterThanOrEqual(0);
      }
      // No SMTP_URL in the tests: mail stays on this machine, which the page says as a warning.
      const mail = d.checks.find((check) => check.name === 'mail');
      expect(mail?.status).toBe('warning');
      expect(mail?.message).toContain('.eml');
      expect(mail?.message).toContain('0 waiting in the outbox');

      // The queues the server works (web-upload proxies, mail) are there, with numbers.
      expect(d.jobs.error).toBeNull();
      const names = d.jobs.queues.map((queue) => queue.name);
      expect(names).toEqual(expect.arrayContaining(['mail', 'upload-proxy']));
      for (const queue of d.jobs.queues) expect(queue.queued).toBeGreaterThanOrEqual(0);

      expect(d.storage.driver).toBe('local');
      expect(d.storage.location).toBe(`${t.config.dataDir}/media`);
      expect(d.storage.disk?.totalBytes).toBeGreaterThan(0);
      expect(d.storage.disk?.freeBytes).toBeGreaterThan(0);

      expect(d.edgeServers.total).toBe(3);
      expect(d.edgeServers.connected).toBe(1);
      expect(d.edgeServers.servers.map((edge) => edge.name)).toEqual(['Diag live', 'Diag old', 'Diag never']);
      expect(d.edgeServers.servers[0]).toMatchObject({ connected: true, lastSeen: seen.toISOString() });
      expect(d.edgeServers.servers[2]).toMatchObject({ connected: false, lastSeen: null });
    });

    it('counts the jobs of a queue: a mail written with its change adds one to the mail queue', async () => {
      const mailJobs = async () => {
        const response = await w.admin.client.get<Results<Diagnostics>>('/api/diagnostics');
        const queue = response.body.results.jobs.queues.find((q) => q.name === 'mail');
        // Finished jobs stay in the job table (until archived hours later), so the sum only grows.
        return queue ? queue.queued + queue.active + queue.failed + queue.completed : 0;
      };
      const before = await mailJobs();
      const reset = await t.client().post('/api/passwordReset', { username: w.editor.user.username });
      expect(reset.status).toBe(200);
      // The answer does not wait for the mail (its timing must not tell whether the user exists).
      await eventually(async () => (await mailJobs()) > before);
      expect(await mailJobs()).toBe(before + 1);
    });

    it('reports a failing probe as an error with its reason, and still answers the rest', async () => {
      const { storage, bus } = t.ctx;
      const putStream = storage.putStream;
      const notify = bus.notify;
      storage.putStream = async () => {
        throw new Error('No space left on device');
      };
      // A bus whose notices never come back: the check gives up after its time-out.
      bus.notify = async () => {};
      try {
        const response = await w.admin.client.get<Results<Diagnostics>>('/api/diagnostics');
        expect(response.status).toBe(200);
        const checks = Object.fromEntries(response.body.results.checks.map((check) => [check.name, check]));
        expect(checks.storage).toMatchObject({ status: 'error', message: 'No space left on device' });
        expect(checks.liveUpdates).toMatchObject({ status: 'error', message: 'No answer within 5000 ms' });
        expect(checks.liveUpdates?.ms).toBeGreaterThan(4900);
        expect(checks.database?.status).not.toBe('error');
      } finally {
        storage.putStream = putStream;
        bus.notify = notify;
      }
    });

    it('is for administrators only: 403 for a manager, 401 without a session', async () => {
      for (const level of [w.resellerManager, w.siteManager, w.accountManager, w.outsider]) {
        const response = await level.client.get<ErrorBody>('/api/diagnostics');
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('forbidden');
      }
      expect((await t.client().get('/api/diagnostics')).status).toBe(401);
    });
  });

  describe('GET /api/accounts/:id/dashboard', () => {
    let hiddenRoleClient: World['editor']['client'];

    beforeAll(async () => {
      const { db } = t.ctx;
      const accountId = w.account.id;
      const viewer = await findRoleByName(db, 'Viewer');
      await makeNodeRow(db, { accountId, name: 'News', type: 'folder' });
      await makeNodeRow(db, {
        accountId,
        name: 'Secret',
        type: 'folder',
        permissions: [{ roleId: viewer.id, access: 'none' }],
      });
      for (let i = 0; i < 3; i += 1) {
        const file = await makeMediaRow(db, {
          accountId,
          storagePath: `media/x/${i}.mp4`,
          size: 1000 * (i + 1),
        });
        await makeNodeRow(db, {
          accountId,
          parentPath: '/News',
          name: `Clip ${i}`,
          type: 'source',
          mediaId: file.id,
        });
      }
      const secretFile = await makeMediaRow(db, {
        accountId,
        storagePath: 'media/x/secret.mp4',
        size: 500,
        status: 'processing',
      });
      await makeNodeRow(db, {
        accountId,
        parentPath: '/Secret',
        name: 'Hidden take',
        type: 'source',
        mediaId: secretFile.id,
      });
      await makeNodeRow(db, { accountId, parentPath: '/News', name: 'Cut', type: 'sequence' });
      // Another account's media and queue count nowhere here.
      const elsewhere = await makeMediaRow(db, {
        accountId: w.otherAccount.id,
        storagePath: 'media/y.mp4',
        size: 99,
      });
      await makeNodeRow(db, {
        accountId: w.otherAccount.id,
        name: 'Theirs',
        type: 'source',
        mediaId: elsewhere.id,
      });

      const edge = await makeEdgeServerRow(db, { userId: w.siteManager.user.id, siteId: w.site.id });
      const statuses = [
        'queued',
        'queued',
        'ingesting',
        'failed',
        'ingested',
        'ingested',
        'ingested',
      ] as const;
      for (const [index, status] of statuses.entries())
        await makeQueueItemRow(db, {
          edgeServerId: edge.id,
          accountId,
          status,
          clipName: `Item ${index}`,
          progress: status === 'ingesting' ? 40 : null,
          // Queued a minute apart, the last one latest; the failed one (Item 3) failed just now.
          whenQueued: new Date(Date.now() - (10 - index) * 60_000),
          ...(status === 'failed' ? { whenStarted: minutesAgo(2), whenFinished: minutesAgo(0.1) } : {}),
        });
      await makeQueueItemRow(db, { edgeServerId: edge.id, accountId: w.otherAccount.id, status: 'failed' });

      const { makeUser, grantAccountAccess } = await import('../src/seed/factories.ts');
      const user = await makeUser(db);
      await grantAccountAccess(db, user.id, accountId, 'Viewer');
      hiddenRoleClient = await t.client().signIn(user.username, user.password as string);
    });

    it("counts the account's media by type, its storage use and its queue by status, with recent changes", async () => {
      const response = await w.accountManager.client.get<Results<AccountDashboard>>(
        `/api/accounts/${w.account.id}/dashboard`,
      );
      expect(response.status).toBe(200);
      const d = response.body.results;
      expect(d.account).toEqual({ id: w.account.id, name: w.account.name });
      expect(d.media?.byType.map((row) => row.type)).toEqual([...NODE_TYPES]);
      expect(countOf(d.media?.byType ?? [], 'type', 'folder')).toBe(2);
      expect(countOf(d.media?.byType ?? [], 'type', 'source')).toBe(4);
      expect(countOf(d.media?.byType ?? [], 'type', 'sequence')).toBe(1);
      expect(countOf(d.media?.byType ?? [], 'type', 'edl')).toBe(0);
      expect(d.media?.total).toBe(7);
      // Newest first, with the account's name leading each path.
      expect(d.media?.recent[0]).toMatchObject({
        name: 'Cut',
        type: 'sequence',
        path: `/${w.account.name}/News/Cut`,
      });
      expect(d.media?.recent.map((node) => node.name)).toContain('Hidden take');

      expect(d.storage).toEqual({ files: 4, bytes: 1000 + 2000 + 3000 + 500, processing: 1, failed: 0 });

      expect(d.queue?.byStatus.map((row) => row.status)).toEqual([...INGEST_STATUSES]);
      expect(countOf(d.queue?.byStatus ?? [], 'status', 'queued')).toBe(2);
      expect(countOf(d.queue?.byStatus ?? [], 'status', 'ingested')).toBe(3);
      expect(countOf(d.queue?.byStatus ?? [], 'status', 'failed')).toBe(1);
      expect(countOf(d.queue?.byStatus ?? [], 'status', 'missing')).toBe(0);
      expect(d.queue?.total).toBe(7);
      // The latest change first: Item 3 failed just now, then the items by the time they were queued.
      expect(d.queue?.recent.map((item) => item.name)).toEqual([
        'Item 3',
        'Item 6',
        'Item 5',
        'Item 4',
        'Item 2',
        'Item 1',
        'Item 0',
      ]);
      const failedAt = Date.parse(d.queue?.recent[0]?.changedAt ?? '');
      expect(Date.now() - failedAt).toBeGreaterThan(0);
      expect(Date.now() - failedAt).toBeLessThan(60_000);
      expect(d.queue?.recent.find((item) => item.name === 'Item 2')).toMatchObject({
        status: 'ingesting',
        progress: 40,
      });
    });

    it("shows a role what its media tree shows, and the queue only to the account's managers", async () => {
      const editor = await w.editor.client.get<Results<AccountDashboard>>(
        `/api/accounts/${w.account.id}/dashboard`,
      );
      expect(editor.status).toBe(200);
      expect(editor.body.results.queue).toBeNull();
      expect(editor.body.results.media?.recent.map((node) => node.name)).toContain('Hidden take');

      const viewer = await hiddenRoleClient.get<Results<AccountDashboard>>(
        `/api/accounts/${w.account.id}/dashboard`,
      );
      expect(viewer.status).toBe(200);
      const names = viewer.body.results.media?.recent.map((node) => node.name) ?? [];
      expect(names).not.toContain('Hidden take');
      expect(names).not.toContain('Secret');
      expect(countOf(viewer.body.results.media?.byType ?? [], 'type', 'folder')).toBe(1);
      expect(countOf(viewer.body.results.media?.byType ?? [], 'type', 'source')).toBe(3);
      expect(countOf(editor.body.results.media?.byType ?? [], 'type', 'source')).toBe(4);
      expect(viewer.body.results.queue).toBeNull();
    });

    it('lists at most 20 recent nodes, the newest first', async () => {
      const { db } = t.ctx;
      for (let i = 0; i < DASHBOARD_RECENT_LIMIT + 2; i += 1)
        await makeNodeRow(db, {
          accountId: w.account.id,
          parentPath: '/News',
          name: `Bulk ${i}`,
          type: 'media',
        });
      const d = (
        await w.admin.client.get<Results<AccountDashboard>>(`/api/accounts/${w.account.id}/dashboard`)
      ).body.results;
      expect(d.media?.recent).toHaveLength(DASHBOARD_RECENT_LIMIT);
      expect(d.media?.recent[0]?.name).toBe(`Bulk ${DASHBOARD_RECENT_LIMIT + 1}`);
      expect(countOf(d.media?.byType ?? [], 'type', 'media')).toBe(DASHBOARD_RECENT_LIMIT + 2);
    });

    it('answers 403 to those who may not use the account, 404 for an unknown one, 400 for a bad id', async () => {
      const forbidden = await w.editor.client.get<ErrorBody>(`/api/accounts/${w.otherAccount.id}/dashboard`);
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.error.code).toBe('forbidden');
      expect((await w.outsider.client.get(`/api/accounts/${w.account.id}/dashboard`)).status).toBe(403);
      expect((await w.siteManager.client.get(`/api/accounts/${w.otherAccount.id}/dashboard`)).status).toBe(
        403,
      );

      const missing = await w.admin.client.get<ErrorBody>('/api/accounts/999999/dashboard');
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('Account not found');

      for (const id of ['abc', '-1', '1.5', '99999999999']) {
        const bad = await w.admin.client.get<ErrorBody>(`/api/accounts/${id}/dashboard`);
        expect(bad.status, id).toBe(400);
      }
      expect((await t.client().get(`/api/accounts/${w.account.id}/dashboard`)).status).toBe(401);
    });

    it("lets a site manager see the account's dashboard with its queue", async () => {
      const response = await w.siteManager.client.get<Results<AccountDashboard>>(
        `/api/accounts/${w.account.id}/dashboard`,
      );
      expect(response.status).toBe(200);
      expect(response.body.results.queue?.total).toBe(7);
      expect(response.body.results.media?.total).toBeGreaterThan(7);
    });
  });
});

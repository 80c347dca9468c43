import type { UnprocessedFile } from '@media/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unprocessedFiles } from '../src/modules/ingest/tables.ts';
import { makeUnprocessedFileRow } from '../src/seed/demo-edge.ts';
import { type IngestWorld, makeIngestWorld } from './edge-world.ts';
import {
  buildTestApp,
  type Collection,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`ingest queue (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let edge: IngestWorld['edge'];
  let source: IngestWorld['source'];
  let foreign: IngestWorld['foreign'];

  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
    ({ w, edge, source, foreign } = await makeIngestWorld(t));
  });
  afterAll(() => t.close());

  describe('unprocessed files', () => {
    it('lists, forces and rescans files, all or nothing', async () => {
      const a = await makeUnprocessedFileRow(t.ctx.db, { endpointId: source.id, path: 'a/one.mxf' });
      const b = await makeUnprocessedFileRow(t.ctx.db, { endpointId: source.id, path: 'a/two.mxf' });
      const far = await makeUnprocessedFileRow(t.ctx.db, { endpointId: foreign.id, path: 'x.mxf' });
      const list = await w.accountManager.client.get<Collection<UnprocessedFile>>(
        `/api/endpoints/${source.id}/unprocessedFiles`,
      );
      expect(list.status).toBe(200);
      expect(list.body.channel).toBe(`edgeServers/${edge.id}/unprocessedFiles`);
      expect(list.body.results.map((f) => [f.path, f.status, f.forced])).toEqual([
        ['a/one.mxf', 'missingFiles', false],
        ['a/two.mxf', 'missingFiles', false],
      ]);
      expect((await t.client().get(`/api/endpoints/${source.id}/unprocessedFiles`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/endpoints/${source.id}/unprocessedFiles`)).status).toBe(403);
      expect((await w.admin.client.get('/api/endpoints/999999/unprocessedFiles')).status).toBe(404);

      const forced = (id: number) =>
        t.ctx.db
          .select()
          .from(unprocessedFiles)
          .where(eq(unprocessedFiles.id, id))
          .then((rows) => rows[0]?.forced);
      const refused = await w.accountManager.client.post('/api/unprocessedFiles', [
        { id: a.id, forced: true },
        { id: far.id, forced: true },
      ]);
      expect(refused.status).toBe(403);
      expect(await forced(a.id)).toBe(false);
      const unknown = await w.accountManager.client.post('/api/unprocessedFiles', [
        { id: a.id, forced: true },
        { id: 999999, forced: true },
      ]);
      expect(unknown.status).toBe(404);
      expect(await forced(a.id)).toBe(false);
      const ok = await w.accountManager.client.post<Results<UnprocessedFile[]>>('/api/unprocessedFiles', [
        { id: a.id, forced: true },
      ]);
      expect(ok.status).toBe(200);
      expect(ok.body.results).toMatchObject([{ id: a.id, forced: true }]);
      expect((await w.accountManager.client.post('/api/unprocessedFiles', [{ id: a.id }])).status).toBe(400);
      expect((await t.client().post('/api/unprocessedFiles', [{ id: a.id, forced: true }])).status).toBe(401);

      const rescanRefused = await w.accountManager.client.post('/api/unprocessedFiles/trash', [a.id, far.id]);
      expect(rescanRefused.status).toBe(403);
      const rescan = await w.accountManager.client.post('/api/unprocessedFiles/trash', [a.id, b.id]);
      expect(rescan.status).toBe(200);
      expect(
        await t.ctx.db
          .select()
          .from(unprocessedFiles)
          .where(inArray(unprocessedFiles.id, [a.id, b.id, far.id])),
      ).toHaveLength(1);
      expect((await w.accountManager.client.post('/api/unprocessedFiles/trash', [999999])).status).toBe(404);
      expect((await w.accountManager.client.post('/api/unprocessedFiles/trash', ['x'])).status).toBe(400);
      expect((await t.client().post('/api/unprocessedFiles/trash', [far.id])).status).toBe(401);
    });
  });
});

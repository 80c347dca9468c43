import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

describe(`metadata columns (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const _put = <T>(client: World['admin']['client'], url: string, body: unknown) =>
    client.request<T>({ method: 'PUT', url, body });

  describe('metadata columns', () => {
    type ColumnSet = { columns: { displayName: string; internalName: string }[]; autoInherit: boolean };
    const reel = {
      displayName: 'Reel',
      internalName: 'reel',
      hidden: false,
      searchable: true,
      editable: true,
    };
    const names = (set: ColumnSet) => set.columns.map((c) => c.displayName);

    it('inherits the cloud defaults down to sites and accounts until they choose custom', async () => {
      const site = await w.siteManager.client.get<Results<ColumnSet>>(`/api/sites/${w.site.id}/fileColumns`);
      expect(site.status).toBe(200);
      expect(site.body.results).toMatchObject({ autoInherit: true });
      expect(names(site.body.results)).toEqual([
        'Disk label',
        'Start timecode',
        'End timecode',
        'Source locator',
      ]);
      const logging = await w.editor.client.get<Results<ColumnSet>>(
        `/api/accounts/${w.account.id}/loggingColumns`,
      );
      expect(names(logging.body.results)).toEqual(['Shot', 'Sync']);

      const saved = await w.siteManager.client.post<Results<ColumnSet>>(
        `/api/sites/${w.site.id}/fileColumns`,
        {
          columns: [reel, { ...reel, displayName: 'Tape', internalName: 'tape' }],
          autoInherit: false,
        },
      );
      expect(saved.status).toBe(200);
      const accountDefaults = await w.accountManager.client.get<Results<ColumnSet['columns']>>(
        `/api/accounts/${w.account.id}/defaultFileColumns`,
      );
      expect(accountDefaults.body.results.map((c) => c.displayName)).toEqual(['Reel', 'Tape']);
      const account = await w.editor.client.get<Results<ColumnSet>>(
        `/api/accounts/${w.account.id}/fileColumns`,
      );
      expect(names(account.body.results)).toEqual(['Reel', 'Tape']);
      const siteDefaults = await w.siteManager.client.get<Results<ColumnSet['columns']>>(
        `/api/sites/${w.site.id}/defaultFileColumns`,
      );
      expect(siteDefaults.body.results).toHaveLength(4);
    });

    it('keeps an account its custom list, and saving with inherit on copies the defaults', async () => {
      const url = `/api/accounts/${w.siblingAccount.id}/fileColumns`;
      const custom = await w.siteManager.client.post<Results<ColumnSet>>(url, {
        columns: [{ ...reel, displayName: 'Camera', internalName: 'camera' }],
        autoInherit: false,
      });
      expect(names(custom.body.results)).toEqual(['Camera']);
      expect(names((await w.siteManager.client.get<Results<ColumnSet>>(url)).body.results)).toEqual([
        'Camera',
      ]);
      const inherit = await w.siteManager.client.post<Results<ColumnSet>>(url, {
        columns: [{ ...reel, displayName: 'Ignored', internalName: 'ignored' }],
        autoInherit: true,
      });
      expect(inherit.body.results).toMatchObject({ autoInherit: true });
      expect(names(inherit.body.results)).toEqual(['Reel', 'Tape']);
    });

    it('refuses incomplete, duplicated and malformed lists with the spec messages, changing nothing', async () => {
      const url = `/api/accounts/${w.account.id}/fileColumns`;
      const empty = await w.accountManager.client.post<ErrorBody>(url, { columns: [], autoInherit: false });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe('Metadata incomplete');
      const unnamed = await w.accountManager.client.post<ErrorBody>(url, {
        columns: [{ ...reel, internalName: ' ' }],
        autoInherit: false,
      });
      expect(unnamed.body.error.message).toBe('Metadata incomplete');
      const twice = await w.accountManager.client.post<ErrorBody>(url, {
        columns: [reel, { ...reel, displayName: 'Other' }],
        autoInherit: false,
      });
      expect(twice.body.error.message).toBe('Metadata duplicated');
      expect(
        (await w.accountManager.client.post(url, { columns: [{ displayName: 'X' }], autoInherit: false }))
          .status,
      ).toBe(400);
      expect(
        (
          await w.accountManager.client.post(`/api/accounts/${w.account.id}/loggingColumns`, {
            columns: [reel],
          })
        ).status,
      ).toBe(400);
      expect((await w.editor.client.get<Results<ColumnSet>>(url)).body.results.autoInherit).toBe(true);
    });

    it('answers 401, 403 and 404', async () => {
      const url = `/api/accounts/${w.account.id}/fileColumns`;
      expect((await t.client().get(url)).status).toBe(401);
      expect((await w.editor.client.post(url, { columns: [reel], autoInherit: false })).status).toBe(403);
      expect((await w.outsider.client.get(url)).status).toBe(403);
      expect((await w.accountManager.client.get(`/api/sites/${w.site.id}/loggingColumns`)).status).toBe(403);
      expect(
        (await w.siteManager.client.get(`/api/sites/${w.otherSite.id}/defaultLoggingColumns`)).status,
      ).toBe(403);
      expect((await w.admin.client.get('/api/accounts/999999/fileColumns')).status).toBe(404);
      expect((await w.admin.client.get('/api/sites/999999/defaultFileColumns')).status).toBe(404);
    });
  });
});

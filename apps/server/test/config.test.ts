import {
  extraDataStoredKey,
  MSG_EXTRA_DATA_KEY_CLASH,
  MSG_EXTRA_DATA_TOO_MANY,
  MSG_KEY_MAP_NAME_IN_USE,
  MSG_NO_UPLOAD_FORMAT_OPTION,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnSets, keyboardExpansionMaps, keyShortcutSets } from '../src/modules/config/tables.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type KeySet = {
  id: number;
  name: string;
  parentId: number | null;
  visible: boolean;
  level: string;
  isDefault: boolean;
  children: number[];
};

describe(`account configuration (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const _put = <T>(client: World['admin']['client'], url: string, body: unknown) =>
    client.request<T>({ method: 'PUT', url, body });

  describe('extra data', () => {
    const colour = extraDataStoredKey('colour');

    it('sets, trims, reads and deletes keys of an account', async () => {
      const url = `/api/accounts/${w.account.id}/extraData`;
      const set = await w.accountManager.client.post<Results<Record<string, string>>>(url, {
        [colour]: '  blue ',
        [extraDataStoredKey('size')]: 'large',
      });
      expect(set.status).toBe(200);
      expect(set.body.results).toEqual({ [colour]: 'blue', [extraDataStoredKey('size')]: 'large' });
      const removed = await w.accountManager.client.post<Results<Record<string, string>>>(url, {
        [extraDataStoredKey('size')]: null,
      });
      expect(removed.body.results).toEqual({ [colour]: 'blue' });
      expect((await w.accountManager.client.get<Results<unknown>>(url)).body.results).toEqual({
        [colour]: 'blue',
      });
    });

    it('keeps each object its own data, for sites and users too', async () => {
      const site = await w.siteManager.client.post<Results<Record<string, string>>>(
        `/api/sites/${w.site.id}/extraData`,
        { [extraDataStoredKey('upload_format')]: 'PAL_wide' },
      );
      expect(site.status).toBe(200);
      const own = await w.editor.client.post<Results<Record<string, string>>>(
        `/api/users/${w.editor.user.id}/extraData`,
        { [colour]: 'green' },
      );
      expect(own.body.results).toEqual({ [colour]: 'green' });
      const account = await w.admin.client.get<Results<Record<string, string>>>(
        `/api/accounts/${w.account.id}/extraData`,
      );
      expect(account.body.results[colour]).toBe('blue');
    });

    it('refuses the upload format option on accounts, empty values and too many keys, changing nothing', async () => {
      const url = `/api/accounts/${w.account.id}/extraData`;
      const option = await w.accountManager.client.post<ErrorBody>(url, {
        [extraDataStoredKey('Upload_Format')]: 'PAL_wide',
        [extraDataStoredKey('other')]: 'x',
      });
      expect(option.status).toBe(400);
      expect(option.body.error).toMatchObject({
        code: 'noUploadFormatOption',
        message: MSG_NO_UPLOAD_FORMAT_OPTION,
      });
      // Two keys that are the same once trimmed clash, rather than one replacing the other.
      const clash = await w.accountManager.client.post<ErrorBody>(url, {
        [extraDataStoredKey('twin')]: 'a',
        [` ${extraDataStoredKey('twin')} `]: 'b',
      });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toMatchObject({ code: 'keyclash', message: MSG_EXTRA_DATA_KEY_CLASH });
      const empty = await w.accountManager.client.post<ErrorBody>(url, { [colour]: '   ' });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toContain('This field is required');
      expect((await w.accountManager.client.post(url, {})).status).toBe(400);
      const many = Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [extraDataStoredKey(`k${i}`), 'v']),
      );
      for (let round = 0; round < 5; round++) {
        const batch = Object.fromEntries(Object.entries(many).map(([k, v]) => [`${k}_${round}`, v]));
        const answer = await w.admin.client.post<ErrorBody>(`/api/sites/${w.otherSite.id}/extraData`, batch);
        expect(answer.status).toBe(200);
      }
      const over = await w.admin.client.post<ErrorBody>(`/api/sites/${w.otherSite.id}/extraData`, {
        [extraDataStoredKey('one-too-many')]: 'v',
      });
      expect(over.status).toBe(400);
      expect(over.body.error.message).toBe(MSG_EXTRA_DATA_TOO_MANY);
      const after = await w.admin.client.get<Results<Record<string, string>>>(
        `/api/sites/${w.otherSite.id}/extraData`,
      );
      expect(Object.keys(after.body.results)).toHaveLength(500);
      expect((await w.accountManager.client.get<Results<unknown>>(url)).body.results).toEqual({
        [colour]: 'blue',
      });
    });

    it('answers 401 signed out, 403 without the right, 404 for a missing object or a user one may not manage', async () => {
      expect((await t.client().get(`/api/accounts/${w.account.id}/extraData`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/accounts/${w.account.id}/extraData`)).status).toBe(403);
      expect((await w.accountManager.client.get(`/api/sites/${w.site.id}/extraData`)).status).toBe(403);
      expect((await w.outsider.client.get(`/api/users/${w.editor.user.id}/extraData`)).status).toBe(404);
      expect(
        (await w.siteManager.client.post(`/api/accounts/${w.otherAccount.id}/extraData`, { [colour]: 'x' }))
          .status,
      ).toBe(403);
      expect((await w.admin.client.get('/api/accounts/999999/extraData')).status).toBe(404);
      expect((await w.admin.client.get('/api/users/999999/extraData')).status).toBe(404);
    });
  });

  describe('ingest formats', () => {
    const url = () => `/api/accounts/${w.account.id}/ingestFormats`;

    it('saves a list normalised and answers it in order to any account user', async () => {
      const saved = await w.accountManager.client.post<Results<string[]>>(url(), [
        'NTSC_wide_720p',
        'PAL_tall_640',
        'FILM_normal',
      ]);
      expect(saved.status).toBe(200);
      expect(saved.body.results).toEqual(['NTSC_wide_720', 'PAL_tall_640', 'FILM_normal']);
      expect((await w.editor.client.get<Results<string[]>>(url())).body.results).toEqual(saved.body.results);
      expect((await w.accountManager.client.post<Results<string[]>>(url(), [])).body.results).toEqual([]);
      await w.accountManager.client.post(url(), ['PAL_wide']);
    });

    it('refuses unknown and repeated formats with the entry named, changing nothing', async () => {
      const unknown = await w.accountManager.client.post<ErrorBody>(url(), ['PAL_wide_720', 'SECAM_wide']);
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toBe('Unknown ingest format: SECAM_wide');
      const repeated = await w.accountManager.client.post<ErrorBody>(url(), [
        'PAL_wide_720',
        'PAL_wide_720p',
      ]);
      expect(repeated.body.error.message).toBe('Ingest format repeated: PAL_wide_720');
      expect((await w.accountManager.client.post(url(), { formats: ['PAL_wide'] })).status).toBe(400);
      expect((await w.editor.client.get<Results<string[]>>(url())).body.results).toEqual(['PAL_wide']);
    });

    it('answers 401, 403 (editors may read, not save; outsiders neither) and 404', async () => {
      expect((await t.client().get(url())).status).toBe(401);
      expect((await w.editor.client.post(url(), ['PAL_wide'])).status).toBe(403);
      expect((await w.outsider.client.get(url())).status).toBe(403);
      expect((await w.admin.client.get('/api/accounts/999999/ingestFormats')).status).toBe(404);
    });
  });

  describe('keyboard expansion maps', () => {
    let mapId: number;
    beforeAll(async () => {
      const [row] = await t.ctx.db
        .insert(keyboardExpansionMaps)
        .values({
          accountId: w.account.id,
          name: 'News',
          expansions: [{ abbreviation: 'pm', text: 'Prime <Minister>' }],
        })
        .returning();
      mapId = (row as { id: number }).id;
    });

    it('lists the maps of an account and exports one to another account the user manages', async () => {
      const list = await w.editor.client.get<Collection<{ id: number; name: string; accountId: number }>>(
        `/api/keyboardExpansions?accountId=${w.account.id}`,
      );
      expect(list.body).toMatchObject({
        results: [{ id: mapId, name: 'News', accountId: w.account.id }],
        total: 1,
      });
      expect(list.body.channel).toBe(`accounts/${w.account.id}/keyboardExpansions`);
      const exported = await w.siteManager.client.post<Results<{ id: number; name: string }>>(
        '/api/keyboardExpansions',
        {
          accountId: w.siblingAccount.id,
          name: ' News copy ',
          cloneFromId: mapId,
        },
      );
      expect(exported.status).toBe(200);
      expect(exported.body.results.name).toBe('News copy');
      const [copy] = await t.ctx.db
        .select()
        .from(keyboardExpansionMaps)
        .where(eq(keyboardExpansionMaps.id, exported.body.results.id));
      expect(copy?.expansions).toEqual([{ abbreviation: 'pm', text: 'Prime <Minister>' }]);
      const again = await w.siteManager.client.post<ErrorBody>('/api/keyboardExpansions', {
        accountId: w.siblingAccount.id,
        name: 'news COPY',
        cloneFromId: mapId,
      });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe(MSG_KEY_MAP_NAME_IN_USE);
    });

    it('refuses an empty name (400), targets the user does not manage (403) and missing maps (404)', async () => {
      const empty = await w.accountManager.client.post<ErrorBody>('/api/keyboardExpansions', {
        accountId: w.account.id,
        name: '  ',
        cloneFromId: mapId,
      });
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toContain('This field cannot be empty');
      expect(
        (
          await w.accountManager.client.post('/api/keyboardExpansions', {
            accountId: w.siblingAccount.id,
            name: 'X',
            cloneFromId: mapId,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await w.editor.client.post('/api/keyboardExpansions', {
            accountId: w.account.id,
            name: 'X',
            cloneFromId: mapId,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await w.admin.client.post('/api/keyboardExpansions', {
            accountId: w.account.id,
            name: 'X',
            cloneFromId: 999999,
          })
        ).status,
      ).toBe(404);
      expect((await t.client().get(`/api/keyboardExpansions?accountId=${w.account.id}`)).status).toBe(401);
      expect((await w.outsider.client.get(`/api/keyboardExpansions?accountId=${w.account.id}`)).status).toBe(
        403,
      );
    });

    it('downloads a map as XML at the link of spec1 §2', async () => {
      const link = `/accounts/${w.account.name}/generatekeyexpansion?id=${mapId}`;
      const file = await w.editor.client.request<string>({ method: 'GET', url: link });
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toContain('application/xml');
      expect(file.headers['content-disposition']).toBe(
        'attachment; filename="News.xml"; filename*=UTF-8\'\'News.xml',
      );
      expect(file.raw.body).toContain('<expansion abbreviation="pm">Prime &lt;Minister&gt;</expansion>');
      expect((await t.client().request({ method: 'GET', url: link })).status).toBe(401);
      expect((await w.outsider.client.request({ method: 'GET', url: link })).status).toBe(404);
      const otherAccountsMap = `/accounts/${w.siblingAccount.name}/generatekeyexpansion?id=${mapId}`;
      expect((await w.siteManager.client.request({ method: 'GET', url: otherAccountsMap })).status).toBe(404);
      expect(
        (
          await w.editor.client.request({
            method: 'GET',
            url: `/accounts/${w.account.name}/generatekeyexpansion?id=x`,
          })
        ).status,
      ).toBe(400);
    });
  });

  it('clones an account with its columns, extra data, ingest formats, maps and key shortcuts', async () => {
    // The extra data, formats and map come from the tests above; the account's key shortcut set is made here.
    const [accountSet] = await t.ctx.db
      .insert(keyShortcutSets)
      .values({ name: 'Account set', level: 'account', accountId: w.account.id })
      .returning({ id: keyShortcutSets.id });
    const madeDefault = await w.accountManager.client.post('/api/defaultKeyshortcuts', {
      data: { keyshortcutId: accountSet?.id, accountId: w.account.id },
    });
    expect(madeDefault.status).toBe(200);
    await t.ctx.db.insert(keyShortcutSets).values({
      name: 'Account grandchild',
      level: 'account',
      accountId: w.account.id,
      parentId: accountSet?.id ?? null,
    });
    await t.ctx.db.insert(columnSets).values({
      scope: 'account',
      scopeId: w.account.id,
      kind: 'file',
      columns: [
        { displayName: 'Reel', internalName: 'reel', hidden: false, searchable: true, editable: true },
      ],
      autoInherit: false,
    });
    const clone = await w.siteManager.client.post<Results<{ id: number }>>('/api/accounts', {
      name: 'configured-clone',
      cloneFrom: w.account.id,
    });
    expect(clone.status).toBe(200);
    const id = clone.body.results.id;
    const c = w.siteManager.client;
    expect(
      (await c.get<Results<Record<string, string>>>(`/api/accounts/${id}/extraData`)).body.results,
    ).toEqual({
      [extraDataStoredKey('colour')]: 'blue',
    });
    expect((await c.get<Results<string[]>>(`/api/accounts/${id}/ingestFormats`)).body.results).toEqual([
      'PAL_wide',
    ]);
    expect(
      (await c.get<Collection<{ name: string }>>(`/api/keyboardExpansions?accountId=${id}`)).body.results.map(
        (m) => m.name,
      ),
    ).toEqual(['News']);
    const sets = (await c.get<Collection<KeySet>>(`/api/keyshortcuts?accountId=${id}`)).body.results;
    const copied = sets.filter((s) => s.level === 'account');
    expect(copied.map((s) => s.name)).toEqual(['Account grandchild', 'Account set']);
    const [grandchild, parent] = copied;
    // Links inside the account point at the copies; the default is the copy of the original's.
    expect(grandchild?.parentId).toBe(parent?.id);
    expect(parent?.children).toEqual([grandchild?.id]);
    expect(parent?.isDefault).toBe(true);
    const original = (await c.get<Collection<KeySet>>(`/api/keyshortcuts?accountId=${w.account.id}`)).body
      .results;
    expect(original.find((s) => s.name === 'Account set')?.id).not.toBe(parent?.id);
    const columns = await t.ctx.db.select().from(columnSets).where(eq(columnSets.scopeId, id));
    expect(columns.map((s) => s.columns[0]?.displayName)).toEqual(['Reel']);
  });
});

import {
  extraDataStoredKey,
  MSG_EXTRA_DATA_TOO_MANY,
  MSG_KEY_MAP_NAME_IN_USE,
  MSG_KEY_SHORTCUT_DEFAULT_HIDDEN,
  MSG_KEY_SHORTCUT_PARENT_LOOP,
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

  const put = <T>(client: World['admin']['client'], url: string, body: unknown) =>
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

    it('answers 401 signed out, 403 without the right and 404 for a missing object', async () => {
      expect((await t.client().get(`/api/accounts/${w.account.id}/extraData`)).status).toBe(401);
      expect((await w.editor.client.get(`/api/accounts/${w.account.id}/extraData`)).status).toBe(403);
      expect((await w.accountManager.client.get(`/api/sites/${w.site.id}/extraData`)).status).toBe(403);
      expect((await w.outsider.client.get(`/api/users/${w.editor.user.id}/extraData`)).status).toBe(403);
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
      expect(file.headers['content-disposition']).toBe('attachment; filename="News.xml"');
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

  describe('key shortcuts', () => {
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      const make = async (name: string, values: Partial<typeof keyShortcutSets.$inferInsert>) => {
        const [row] = await t.ctx.db
          .insert(keyShortcutSets)
          .values({ name, level: 'cloud', ...values })
          .returning({ id: keyShortcutSets.id });
        ids[name] = (row as { id: number }).id;
      };
      await make('Cloud standard', {});
      await make('Site set', { level: 'site', siteId: w.site.id });
      await make('Account set', { level: 'account', accountId: w.account.id });
      await make('Account child', {
        level: 'account',
        accountId: w.account.id,
        parentId: ids['Account set'],
      });
      await make('Other account set', { level: 'account', accountId: w.otherAccount.id });
      await make('Editor own', { level: 'user', userId: w.editor.user.id });
    });

    const context = () => `accountId=${w.account.id}`;

    it('lists the sets seen from an account, with children and no one else’s', async () => {
      const list = await w.editor.client.get<Collection<KeySet>>(`/api/keyshortcuts?${context()}`);
      expect(list.status).toBe(200);
      expect(list.body.results.map((s) => s.name)).toEqual([
        'Account child',
        'Account set',
        'Cloud standard',
        'Editor own',
        'Site set',
      ]);
      expect(list.body.results.find((s) => s.name === 'Account set')?.children).toEqual([
        ids['Account child'],
      ]);
      const managerView = await w.accountManager.client.get<Collection<KeySet>>(
        `/api/keyshortcuts?${context()}`,
      );
      expect(managerView.body.results.map((s) => s.name)).not.toContain('Editor own');
    });

    it('makes a default per account, shown as isDefault, and refuses hiding it', async () => {
      const made = await w.accountManager.client.post('/api/defaultKeyshortcuts', {
        data: { keyshortcutId: ids['Account set'], accountId: w.account.id },
      });
      expect(made.status).toBe(200);
      const list = await w.editor.client.get<Collection<KeySet>>(`/api/keyshortcuts?${context()}`);
      expect(list.body.results.filter((s) => s.isDefault).map((s) => s.name)).toEqual(['Account set']);
      const hide = await put<ErrorBody>(w.accountManager.client, `/api/keyshortcuts/${ids['Account set']}`, {
        name: 'Account set',
        parentId: null,
        visible: false,
        level: 'account',
        accountId: w.account.id,
      });
      expect(hide.status).toBe(400);
      expect(hide.body.error.message).toBe(MSG_KEY_SHORTCUT_DEFAULT_HIDDEN);
      expect(
        (
          await w.accountManager.client.post('/api/defaultKeyshortcuts', {
            data: { keyshortcutId: ids['Other account set'], accountId: w.account.id },
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await w.editor.client.post('/api/defaultKeyshortcuts', {
            data: { keyshortcutId: ids['Account set'], accountId: w.account.id },
          })
        ).status,
      ).toBe(403);
    });

    it('changes sets together, refusing a parent loop with nothing changed', async () => {
      const loop = await put<ErrorBody>(w.accountManager.client, '/api/keyshortcuts', [
        {
          id: ids['Account child'],
          name: 'Renamed child',
          parentId: ids['Account set'],
          visible: true,
          level: 'account',
          accountId: w.account.id,
        },
        {
          id: ids['Account set'],
          name: 'Account set',
          parentId: ids['Account child'],
          visible: true,
          level: 'account',
          accountId: w.account.id,
        },
      ]);
      expect(loop.status).toBe(400);
      expect(loop.body.error.message).toBe(MSG_KEY_SHORTCUT_PARENT_LOOP);
      const [child] = await t.ctx.db
        .select()
        .from(keyShortcutSets)
        .where(eq(keyShortcutSets.id, ids['Account child'] as number));
      expect(child?.name).toBe('Account child');
      const ok = await put(w.accountManager.client, '/api/keyshortcuts', [
        {
          id: ids['Account child'],
          name: 'Renamed child',
          parentId: ids['Cloud standard'],
          visible: false,
          level: 'account',
          accountId: w.account.id,
        },
      ]);
      expect(ok.status).toBe(200);
      const list = await w.accountManager.client.get<Collection<KeySet>>(`/api/keyshortcuts?${context()}`);
      expect(list.body.results.find((s) => s.id === ids['Account child'])).toMatchObject({
        name: 'Renamed child',
        parentId: ids['Cloud standard'],
        visible: false,
      });
    });

    it('moves a set between levels only with the right at both', async () => {
      const toSite = {
        name: 'Account child',
        parentId: null,
        visible: true,
        level: 'site',
        accountId: w.account.id,
        siteId: w.site.id,
      };
      expect(
        (await put(w.accountManager.client, `/api/keyshortcuts/${ids['Account child']}`, toSite)).status,
      ).toBe(403);
      expect(
        (await put(w.siteManager.client, `/api/keyshortcuts/${ids['Account child']}`, toSite)).status,
      ).toBe(200);
      const noSite = await put<ErrorBody>(w.admin.client, `/api/keyshortcuts/${ids['Cloud standard']}`, {
        name: 'Cloud standard',
        parentId: null,
        visible: true,
        level: 'site',
      });
      expect(noSite.status).toBe(400);
      expect(
        (
          await put(w.editor.client, `/api/keyshortcuts/${ids['Editor own']}`, {
            name: 'Mine',
            parentId: null,
            visible: true,
            level: 'user',
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await put(w.accountManager.client, `/api/keyshortcuts/${ids['Editor own']}`, {
            name: 'Theirs',
            parentId: null,
            visible: true,
            level: 'user',
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await put(w.admin.client, '/api/keyshortcuts/999999', {
            name: 'X',
            parentId: null,
            visible: true,
            level: 'cloud',
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await put(w.admin.client, `/api/keyshortcuts/${ids['Cloud standard']}`, {
            name: '',
            parentId: null,
            visible: true,
            level: 'cloud',
          })
        ).status,
      ).toBe(400);
      expect((await t.client().get(`/api/keyshortcuts?${context()}`)).status).toBe(401);
      expect((await w.outsider.client.get(`/api/keyshortcuts?${context()}`)).status).toBe(403);
    });

    it('tells the levels a user may change from a context', async () => {
      const levels = async (client: World['admin']['client']) =>
        (
          await client.get<Results<{ levels: string[]; defaultLevel: string }>>(
            `/api/keyshortcutsAccessLevel?${context()}`,
          )
        ).body.results;
      expect(await levels(w.editor.client)).toEqual({ levels: ['user'], defaultLevel: 'account' });
      expect((await levels(w.accountManager.client)).levels).toEqual(['user', 'account']);
      expect((await levels(w.siteManager.client)).levels).toEqual(['user', 'account', 'site']);
      expect((await levels(w.admin.client)).levels).toEqual(['user', 'account', 'site', 'cloud']);
    });

    it('deletes a set with the right at its level; its children lose the parent', async () => {
      expect((await w.editor.client.post(`/api/keyshortcuts/${ids['Site set']}/trash`)).status).toBe(403);
      expect((await w.siteManager.client.post(`/api/keyshortcuts/${ids['Site set']}/trash`)).status).toBe(
        200,
      );
      expect((await w.siteManager.client.post(`/api/keyshortcuts/${ids['Site set']}/trash`)).status).toBe(
        404,
      );
    });
  });

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

  it('clones an account with its columns, extra data, ingest formats, maps and key shortcuts', async () => {
    const [accountSet] = await t.ctx.db
      .select({ id: keyShortcutSets.id })
      .from(keyShortcutSets)
      .where(eq(keyShortcutSets.name, 'Account set'));
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

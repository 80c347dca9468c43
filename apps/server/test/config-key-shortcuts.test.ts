import { MSG_KEY_SHORTCUT_DEFAULT_HIDDEN, MSG_KEY_SHORTCUT_PARENT_LOOP } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyShortcutSets } from '../src/modules/config/tables.ts';
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

describe(`key shortcut sets (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const put = <T>(client: World['admin']['client'], url: string, body: unknown) =>
    client.request<T>({ method: 'PUT', url, body });

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
});

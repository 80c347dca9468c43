import { MSG_CONCURRENT_LIMIT_REACHED } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/modules/organisation/tables.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
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

describe(`entering accounts: the editor's lists, workflows, launch and largest video (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  describe('max video resolution in /api/me (spec1 §5)', () => {
    it('gives a user the largest maxVideo of their accounts, and 640x360 when none is set', async () => {
      const before = await w.editor.client.get<Results<{ editor: { maxVideo: string } }>>('/api/me');
      expect(before.body.results.editor.maxVideo).toBe('640x360');
      await w.admin.client.post(`/api/accounts/${w.account.id}`, { maxVideo: '1280x720' });
      await w.admin.client.post(`/api/accounts/${w.otherAccount.id}`, { maxVideo: '3840x2160' });
      const after = await w.editor.client.get<Results<{ editor: { maxVideo: string } }>>('/api/me');
      expect(after.body.results.editor.maxVideo).toBe('1280x720');
      expect((await w.admin.client.post(`/api/accounts/${w.account.id}`, { maxVideo: 'HD' })).status).toBe(
        400,
      );
    });
  });

  describe('editor lists, workflows and launch', () => {
    it('lists versions, skins with By Site, and launch modes', async () => {
      const skins = await w.editor.client.get<Results<string[]>>('/api/editor/skins');
      expect(skins.body.results[0]).toBe('By Site');
      expect(
        (await w.editor.client.get<Results<string[]>>('/api/editor/versions')).body.results.length,
      ).toBeGreaterThan(0);
      expect((await t.client().get('/api/editor/launchModes')).status).toBe(401);
    });

    it('answers workflows only to users of the account', async () => {
      expect((await w.editor.client.get(`/api/accounts/${w.account.id}/workflows`)).status).toBe(200);
      expect((await w.outsider.client.get(`/api/accounts/${w.account.id}/workflows`)).status).toBe(404);
    });

    it('enforces the concurrent user limit when entering an account, and 0 locks it', async () => {
      const account = await makeAccount(t.ctx.db, { siteId: w.site.id, concurrentUserLimit: 1 });
      const clients = [];
      for (let i = 0; i < 2; i++) {
        const user = await makeUser(t.ctx.db);
        await grantAccountAccess(t.ctx.db, user.id, account.id, 'Editor');
        clients.push(await t.client().signIn(user.username, user.password as string));
      }
      const [first, second] = clients as [NonNullable<(typeof clients)[0]>, NonNullable<(typeof clients)[0]>];
      expect((await first.post(`/api/accounts/${account.id}/launch`, {})).status).toBe(200);
      const refused = await second.post<ErrorBody>(`/api/accounts/${account.id}/launch`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(MSG_CONCURRENT_LIMIT_REACHED);
      // The site manager is never kept out.
      expect((await w.siteManager.client.post(`/api/accounts/${account.id}/launch`, {})).status).toBe(200);
      await t.ctx.db.update(accounts).set({ concurrentUserLimit: 0 }).where(eq(accounts.id, account.id));
      expect((await first.post(`/api/accounts/${account.id}/launch`, {})).status).toBe(403);
    });

    it('lets a manager act as another role, but not an editor', async () => {
      const roles = await w.admin.client.get<Collection<{ id: number; name: string }>>(
        `/api/account_roles?siteId=${w.site.id}`,
      );
      const viewer = roles.body.results.find((r) => r.name === 'Viewer');
      const launched = await w.accountManager.client.post<Results<{ roleId: number; url: string }>>(
        `/api/accounts/${w.account.id}/launch`,
        { roleId: viewer?.id },
      );
      expect(launched.body.results.roleId).toBe(viewer?.id);
      expect(launched.body.results.url).toContain(`/accounts/${w.account.name}/`);
      expect(
        (await w.editor.client.post(`/api/accounts/${w.account.id}/launch`, { roleId: viewer?.id })).status,
      ).toBe(403);
    });
  });
});

import {
  MSG_ACCOUNT_NAME_RESERVED_BY_OTHER,
  MSG_ACCOUNT_NAME_RESERVED_PATH,
  MSG_ACCOUNT_NAME_TAKEN,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG_BILLING_GROUP_NOT_FOUND } from '../src/modules/accounts/service.ts';
import { accounts, workflows } from '../src/modules/organisation/tables.ts';
import { grantAccountAccess, makeAccount, makeReseller, makeUser } from '../src/seed/factories.ts';
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

type Account = {
  id: number;
  name: string;
  siteId: number;
  productionName: string;
  notes: string | null;
  contactName: string;
  contactEmail: string;
  billingId: string;
  concurrentUserLimit: number | null;
  access: Record<string, boolean>;
};

describe(`accounts (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  describe('GET /api/accounts', () => {
    it('pages, searches and sorts the accounts a user can see, with its channel', async () => {
      const all = await w.admin.client.get<Collection<{ name: string }>>('/api/accounts?limit=2&sort=name');
      expect(all.status).toBe(200);
      expect(all.body.channel).toBe('cloud/accounts');
      expect(all.body.results).toHaveLength(2);
      expect(all.body.total).toBeGreaterThanOrEqual(3);
      const found = await w.admin.client.get<Collection<{ name: string }>>(
        `/api/accounts?searchText=${encodeURIComponent(w.account.name.slice(-6))}`,
      );
      expect(found.body.results.map((a) => a.name)).toEqual([w.account.name]);
      const desc = await w.admin.client.get<Collection<{ name: string }>>(
        '/api/accounts?sort=name&desc=1&limit=100',
      );
      const names = desc.body.results.map((a) => a.name.toLowerCase());
      expect(names).toEqual([...names].sort().reverse());
    });

    it('shows a site manager the accounts of their site only, and an editor their own account', async () => {
      const site = await w.siteManager.client.get<Collection<{ id: number }>>('/api/accounts?limit=100');
      expect(site.body.results.map((a) => a.id).sort()).toEqual([w.account.id, w.siblingAccount.id].sort());
      const editor = await w.editor.client.get<Collection<{ id: number }>>('/api/accounts');
      expect(editor.body.results.map((a) => a.id)).toEqual([w.account.id]);
      const outsider = await w.outsider.client.get<Collection<{ id: number }>>('/api/accounts');
      expect(outsider.body.total).toBe(0);
    });

    it('answers 400 for a bad sort and 401 when not signed in', async () => {
      expect((await w.admin.client.get('/api/accounts?sort=password')).status).toBe(400);
      expect((await t.client().get('/api/accounts')).status).toBe(401);
    });
  });

  describe('GET /api/accounts/{id} and byName', () => {
    it('answers the account with what the user may change', async () => {
      const manager = await w.accountManager.client.get<Results<Account>>(`/api/accounts/${w.account.id}`);
      expect(manager.status).toBe(200);
      expect(manager.body.results.access).toEqual({
        canManage: true,
        canChangeSite: false,
        canChangeReseller: false,
        canChangeBilling: false,
        canSeeNotes: false,
      });
      expect(manager.body.results.notes).toBeNull();
      const site = await w.siteManager.client.get<Results<Account>>(
        `/api/accounts/byName/${w.account.name.toUpperCase()}`,
      );
      expect(site.body.results.id).toBe(w.account.id);
      expect(site.body.results.access.canChangeBilling).toBe(true);
      expect(site.body.results.notes).toBe('');
    });

    it('keeps notes, billing and contact fields from account users without a manager role', async () => {
      const account = await makeAccount(t.ctx.db, {
        siteId: w.site.id,
        notes: 'Renewal due in May',
        billingId: 'B-77',
        billingGroupId: w.reseller.id,
        contactName: 'Cleo Contact',
        contactEmail: 'cleo@example.com',
        contactCompany: 'Northwind',
        contactPhone: '+44 20 7946 0000',
      });
      const viewer = await makeUser(t.ctx.db);
      await grantAccountAccess(t.ctx.db, viewer.id, account.id, 'Viewer');
      await grantAccountAccess(t.ctx.db, w.accountManager.user.id, account.id, 'Account Manager');
      const client = await t.client().signIn(viewer.username, viewer.password as string);
      const hidden = {
        notes: null,
        billingId: '',
        billingGroupId: null,
        billingGroupName: null,
        contactName: '',
        contactEmail: '',
        contactCompany: '',
        contactPhone: '',
      };
      const seen = await client.get<Results<Account>>(`/api/accounts/${account.id}`);
      expect(seen.status).toBe(200);
      expect(seen.body.results).toMatchObject({ name: account.name, ...hidden });
      const byName = await client.get<Results<Account>>(`/api/accounts/byName/${account.name}`);
      expect(byName.body.results).toMatchObject(hidden);
      // The account's managers see them (notes stay with site managers and above).
      const manager = await w.accountManager.client.get<Results<Account>>(`/api/accounts/${account.id}`);
      expect(manager.body.results).toMatchObject({
        notes: null,
        billingId: 'B-77',
        billingGroupId: w.reseller.id,
        contactName: 'Cleo Contact',
        contactEmail: 'cleo@example.com',
        contactCompany: 'Northwind',
        contactPhone: '+44 20 7946 0000',
      });
      const site = await w.siteManager.client.get<Results<Account>>(`/api/accounts/${account.id}`);
      expect(site.body.results).toMatchObject({ notes: 'Renewal due in May', billingId: 'B-77' });
    });

    it('answers 404 for a missing account and for one the user cannot see', async () => {
      expect((await w.admin.client.get('/api/accounts/999999')).status).toBe(404);
      expect((await w.editor.client.get(`/api/accounts/${w.otherAccount.id}`)).status).toBe(404);
      expect((await w.admin.client.get('/api/accounts/abc')).status).toBe(400);
    });
  });

  describe('POST /api/accounts/{id}', () => {
    it('saves the contact form and the data form for an account manager', async () => {
      const saved = await w.accountManager.client.post<Results<Account>>(`/api/accounts/${w.account.id}`, {
        contactName: 'Bea Contact',
        contactEmail: 'bea@example.com',
        productionName: 'Evening News',
      });
      expect(saved.status).toBe(200);
      expect(saved.body.results).toMatchObject({
        contactName: 'Bea Contact',
        productionName: 'Evening News',
      });
    });

    it('refuses invalid values with the field messages and changes nothing', async () => {
      const refused = await w.accountManager.client.post<ErrorBody>(`/api/accounts/${w.account.id}`, {
        contactName: '',
        contactEmail: 'not-an-email',
        productionName: 'x'.repeat(101),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields).toMatchObject({
        contactName: 'This field is required',
        contactEmail: 'Please enter a valid email address',
        productionName: 'At most 100 characters',
      });
      const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, w.account.id));
      expect(row?.contactName).toBe('Bea Contact');
      const tooLong = await w.accountManager.client.post<ErrorBody>(`/api/accounts/${w.account.id}`, {
        contactName: 'x'.repeat(51),
      });
      expect(tooLong.body.error.fields?.contactName).toBe('At most 50 characters');
      const unknown = await w.accountManager.client.post<ErrorBody>(`/api/accounts/${w.account.id}`, {
        owner: 1,
      });
      expect(unknown.status).toBe(400);
    });

    it('keeps billing, limit and disabled to site managers and above, and site and skin to administrators', async () => {
      const billing = await w.accountManager.client.post<ErrorBody>(`/api/accounts/${w.account.id}`, {
        billingId: 'B-1',
      });
      expect(billing.status).toBe(403);
      expect(billing.body.error.fields?.billingId).toBeDefined();
      const site = await w.siteManager.client.post<Results<Account>>(`/api/accounts/${w.account.id}`, {
        billingId: 'B-1',
        concurrentUserLimit: 3,
      });
      expect(site.status).toBe(200);
      expect(site.body.results).toMatchObject({ billingId: 'B-1', concurrentUserLimit: 3 });
      expect(
        (await w.siteManager.client.post(`/api/accounts/${w.account.id}`, { skin: 'Dark' })).status,
      ).toBe(403);
      expect(
        (await w.siteManager.client.post(`/api/accounts/${w.account.id}`, { billingGroupId: w.reseller.id }))
          .status,
      ).toBe(403);
      expect(
        (
          await w.resellerManager.client.post(`/api/accounts/${w.account.id}`, {
            billingGroupId: w.reseller.id,
          })
        ).status,
      ).toBe(200);
      // An unchanged read-only value sent back with the form is fine.
      expect(
        (await w.accountManager.client.post(`/api/accounts/${w.account.id}`, { billingId: 'B-1' })).status,
      ).toBe(200);
      const moved = await w.admin.client.post<Results<Account>>(`/api/accounts/${w.siblingAccount.id}`, {
        siteId: w.otherSite.id,
        skin: 'Dark',
      });
      expect(moved.body.results.siteId).toBe(w.otherSite.id);
      await w.admin.client.post(`/api/accounts/${w.siblingAccount.id}`, { siteId: w.site.id });
    });

    it("refuses another organisation's reseller as the billing group like a missing one (issue 30)", async () => {
      const theirs = await makeReseller(t.ctx.db);
      const path = `/api/accounts/${w.account.id}`;
      const before = (await w.admin.client.get<Results<Account & { billingGroupId: number | null }>>(path))
        .body.results.billingGroupId;
      for (const billingGroupId of [theirs.id, 999_999]) {
        const refused = await w.resellerManager.client.post<ErrorBody>(path, { billingGroupId });
        expect(refused.status).toBe(400);
        expect(refused.body.error.message).toBe(MSG_BILLING_GROUP_NOT_FOUND);
        expect(refused.body.error.fields?.billingGroupId).toBe(MSG_BILLING_GROUP_NOT_FOUND);
      }
      const after =
        await w.resellerManager.client.get<Results<Account & { billingGroupId: number | null }>>(path);
      expect(after.body.results.billingGroupId).toBe(before);
      // Their own reseller, sent back unchanged or chosen, is fine; an administrator sees every reseller.
      const own = await w.resellerManager.client.post(path, { billingGroupId: w.reseller.id });
      expect(own.status).toBe(200);
      expect((await w.resellerManager.client.post(path, { billingGroupId: w.reseller.id })).status).toBe(200);
      const admin = await w.admin.client.post<Results<{ billingGroupId: number }>>(path, {
        billingGroupId: theirs.id,
      });
      expect(admin.body.results.billingGroupId).toBe(theirs.id);
      // A value an administrator set comes back with the reseller manager's form unchanged.
      expect((await w.resellerManager.client.post(path, { billingGroupId: theirs.id })).status).toBe(200);
      await w.admin.client.post(path, { billingGroupId: before });
    });

    it('answers 403 to an editor and 404 for a missing account', async () => {
      expect((await w.editor.client.post(`/api/accounts/${w.account.id}`, { department: 'x' })).status).toBe(
        403,
      );
      expect((await w.admin.client.post('/api/accounts/999999', { department: 'x' })).status).toBe(404);
    });
  });

  describe('POST /api/accounts: create, clone, reserve', () => {
    it('creates an account in a site the user manages', async () => {
      const created = await w.siteManager.client.post<Results<Account>>('/api/accounts', {
        name: 'new-show',
        siteId: w.site.id,
      });
      expect(created.status).toBe(200);
      expect(created.body.results.name).toBe('new-show');
      // A site of another organisation is refused like a read of it: as a missing one (issue 30).
      const elsewhere = await w.siteManager.client.post<ErrorBody>('/api/accounts', {
        name: 'elsewhere',
        siteId: w.otherSite.id,
      });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error.message).toBe('Site not found');
      expect(
        (await w.accountManager.client.post('/api/accounts', { name: 'mine', siteId: w.site.id })).status,
      ).toBe(403);
    });

    it('refuses a taken name (409, any case) and a reserved path segment (400)', async () => {
      const taken = await w.admin.client.post<ErrorBody>('/api/accounts', {
        name: 'NEW-SHOW',
        siteId: w.site.id,
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error.message).toBe(MSG_ACCOUNT_NAME_TAKEN);
      const reserved = await w.admin.client.post<ErrorBody>('/api/accounts', {
        name: 'login',
        siteId: w.site.id,
      });
      expect(reserved.status).toBe(400);
      expect(reserved.body.error.fields?.name).toBe(MSG_ACCOUNT_NAME_RESERVED_PATH);
      expect(
        (await w.admin.client.post('/api/accounts', { name: 'bad name!', siteId: w.site.id })).status,
      ).toBe(400);
      expect((await w.admin.client.post('/api/accounts', { siteId: w.site.id })).status).toBe(400);
    });

    it('clones settings and workflows, not users, in one step', async () => {
      await t.ctx.db.insert(workflows).values({ accountId: w.account.id, name: 'Proxy and archive' });
      const clone = await w.siteManager.client.post<Results<Account>>('/api/accounts', {
        name: 'evening-clone',
        cloneFrom: w.account.id,
      });
      expect(clone.status).toBe(200);
      expect(clone.body.results).toMatchObject({
        contactName: 'Bea Contact',
        productionName: 'Evening News',
      });
      const cloneId = clone.body.results.id;
      const flows = await w.siteManager.client.get<Collection<{ name: string }>>(
        `/api/accounts/${cloneId}/workflows`,
      );
      expect(flows.body.results.map((f) => f.name)).toEqual(['Proxy and archive']);
      const users = await w.siteManager.client.get<Collection<unknown>>(
        `/api/accounts/${cloneId}/userAccess`,
      );
      expect(users.body.total).toBe(0);
    });

    it('reserves a name for one user, refuses it to others, and releases it', async () => {
      const reserve = await w.siteManager.client.post<Results<{ reserved: boolean }>>('/api/accounts', {
        reserveKey: true,
        name: 'held-name',
        cloneFrom: w.account.id,
      });
      expect(reserve.body.results.reserved).toBe(true);
      const other = await w.admin.client.post<ErrorBody>('/api/accounts', {
        name: 'held-name',
        siteId: w.site.id,
      });
      expect(other.status).toBe(409);
      expect(other.body.error.message).toBe(MSG_ACCOUNT_NAME_RESERVED_BY_OTHER);
      const release = await w.siteManager.client.post<Results<{ reserved: boolean }>>('/api/accounts', {
        unreserveKey: true,
        name: 'held-name',
        cloneFrom: w.account.id,
      });
      expect(release.body.results.reserved).toBe(false);
      expect(
        (await w.admin.client.post('/api/accounts', { name: 'held-name', siteId: w.site.id })).status,
      ).toBe(200);
      expect(
        (
          await w.editor.client.post('/api/accounts', {
            reserveKey: true,
            name: 'x1',
            cloneFrom: w.account.id,
          })
        ).status,
      ).toBe(403);
      expect(
        (await w.admin.client.post('/api/accounts', { reserveKey: true, name: 'x1', cloneFrom: 999999 }))
          .status,
      ).toBe(404);
    });
  });
});

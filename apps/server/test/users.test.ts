import {
  MSG_EMAIL_TAKEN,
  MSG_EMAIL_USED_IN_BATCH,
  MSG_EMAILVERIFIED_ONLY_RAISED,
  MSG_USER_WOULD_BE_CREATED,
  TOTAL_COUNT_CAP,
} from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/modules/users/tables.ts';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  eventually,
  makeWorld,
  type Results,
  readMailTexts,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Row = { fullname: string; email: string; username: string; success: boolean; message: string };

describe(`users (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    for (let i = 0; i < 25; i++) await makeUser(t.ctx.db, { fullname: `Zed Person ${i}` });
  });
  afterAll(() => t.close());

  describe('GET /api/users', () => {
    it('searches every user for an administrator, 20 a page by default', async () => {
      const page = await w.admin.client.get<Collection<{ fullname: string }>>(
        '/api/users?searchText=zed%20per',
      );
      expect(page.status).toBe(200);
      expect(page.body.results).toHaveLength(20);
      expect(page.body.total).toBe(25);
      expect(page.body.channel).toBe('cloud/users');
    });

    it('counts a search up to the cap, and says when the total is capped', async () => {
      // One set-based insert of more users than the cap, all matching 'crowd'.
      await t.ctx.db.execute(sql`insert into users (username, fullname)
        select 'crowd' || g, 'Crowd Member ' || g from generate_series(1, ${TOTAL_COUNT_CAP + 5}) g`);
      type Capped = Collection<unknown> & { totalCapped: boolean };
      const broad = await w.admin.client.get<Capped>('/api/users?searchText=crowd');
      expect(broad.body.results).toHaveLength(20);
      expect(broad.body.total).toBe(TOTAL_COUNT_CAP);
      expect(broad.body.totalCapped).toBe(true);
      // crowd1, crowd10–19, crowd100–199, crowd1000–1005: below the cap, exact.
      const narrow = await w.admin.client.get<Capped>('/api/users?searchText=crowd1');
      expect(narrow.body.total).toBe(1 + 10 + 100 + 6);
      expect(narrow.body.totalCapped).toBe(false);
    });

    it("searches the users of a site manager's site, 10 a page, and refuses other sites", async () => {
      const page = await w.siteManager.client.get<Collection<{ id: number }>>(
        `/api/users?siteId=${w.site.id}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.results.map((u) => u.id).sort()).toEqual(
        [w.accountManager.user.id, w.editor.user.id].sort(),
      );
      expect((await w.siteManager.client.get(`/api/users?siteId=${w.otherSite.id}`)).status).toBe(403);
      expect((await w.siteManager.client.get('/api/users?type=all')).status).toBe(403);
      const many = await w.admin.client.get<Collection<unknown>>(`/api/users?type=site&siteId=${w.site.id}`);
      expect(many.body.results.length).toBeLessThanOrEqual(10);
    });

    it('lets an account manager search the users of their site, and refuses an editor', async () => {
      const page = await w.accountManager.client.get<Collection<{ id: number }>>(
        '/api/users?searchText=user',
      );
      expect(page.status).toBe(200);
      expect((await w.editor.client.get('/api/users')).status).toBe(403);
      expect((await w.admin.client.get('/api/users?siteId=999999')).status).toBe(404);
      expect((await w.admin.client.get('/api/users?limit=0')).status).toBe(400);
      expect((await t.client().get('/api/users')).status).toBe(401);
    });
  });

  describe('GET and POST /api/users/{id}', () => {
    it('lets a user read and change themselves, and raises emailverified but never unsets it', async () => {
      const me = w.editor;
      const read = await me.client.get<Results<{ id: number }>>(`/api/users/${me.user.id}`);
      expect(read.body.results.id).toBe(me.user.id);
      const changed = await me.client.post<Results<{ fullname: string }>>(`/api/users/${me.user.id}`, {
        fullname: 'Eddie Editor',
      });
      expect(changed.body.results.fullname).toBe('Eddie Editor');
      const raised = await w.siteManager.client.post<Results<{ emailverified: boolean }>>(
        `/api/users/${me.user.id}`,
        { emailverified: true },
      );
      expect(raised.body.results.emailverified).toBe(true);
      const lowered = await w.admin.client.post<ErrorBody>(`/api/users/${me.user.id}`, {
        emailverified: false,
      });
      expect(lowered.status).toBe(400);
      expect(lowered.body.error.message).toBe(MSG_EMAILVERIFIED_ONLY_RAISED);
    });

    it('refuses a taken email (409), bad input (400), and strangers like missing users (404)', async () => {
      const taken = await w.editor.client.post<ErrorBody>(`/api/users/${w.editor.user.id}`, {
        email: w.accountManager.user.email.toUpperCase(),
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error.fields?.email).toBe(MSG_EMAIL_TAKEN);
      expect((await w.editor.client.post(`/api/users/${w.editor.user.id}`, { email: 'nope' })).status).toBe(
        400,
      );
      // A user one may not manage answers as if missing: the answer never tells that an id exists.
      expect((await w.editor.client.get(`/api/users/${w.accountManager.user.id}`)).status).toBe(404);
      expect((await w.editor.client.get('/api/users/999999')).status).toBe(404);
      expect((await w.outsider.client.post(`/api/users/${w.editor.user.id}`, { fullname: 'x' })).status).toBe(
        404,
      );
      expect((await w.admin.client.get('/api/users/999999')).status).toBe(404);
    });
  });

  describe('POST /api/users (batch creation)', () => {
    const rows = [
      { fullname: 'Ada One', company: 'Northwind', email: 'ada.one@example.com' },
      { fullname: 'Bob Two', company: 'Northwind', email: 'bob.two@example.com', username: 'bobby' },
      { fullname: 'Ada Again', company: 'Northwind', email: 'ADA.ONE@example.com' },
      { fullname: '', company: 'Northwind', email: 'nobody@example.com' },
    ];

    it('checks every row in a dry run and creates nothing', async () => {
      const dry = await w.siteManager.client.post<Results<Row[]>>('/api/users', {
        users: rows,
        dryRun: true,
        siteId: w.site.id,
      });
      expect(dry.status).toBe(200);
      expect(dry.body.results.map((r) => [r.success, r.message])).toEqual([
        [true, MSG_USER_WOULD_BE_CREATED],
        [true, MSG_USER_WOULD_BE_CREATED],
        [false, MSG_EMAIL_USED_IN_BATCH],
        [false, 'fullname is required'],
      ]);
      const [count] = await t.ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(users.email, 'ada.one@example.com'));
      expect(count?.n).toBe(0);
    });

    it('creates the rows that pass, as users of the site, and mails each a registration link', async () => {
      const made = await w.siteManager.client.post<Results<Row[]>>('/api/users', {
        users: rows,
        dryRun: false,
        siteId: w.site.id,
      });
      expect(made.body.results.filter((r) => r.success).map((r) => r.username)).toEqual(['ada.one', 'bobby']);
      const mail = await eventually(() =>
        readMailTexts(t.config).find(
          (m) => m.includes('ada.one@example.com') && m.includes('resetType=registration'),
        ),
      );
      expect(mail).toContain('/users/user_settings/');
      const site = await w.siteManager.client.get<Collection<{ username: string }>>(
        `/api/users?siteId=${w.site.id}&searchText=bobby`,
      );
      expect(site.body.results.map((u) => u.username)).toEqual(['bobby']);
      const again = await w.siteManager.client.post<Results<Row[]>>('/api/users', {
        users: [rows[0]],
        dryRun: true,
        siteId: w.site.id,
      });
      expect(again.body.results[0]?.message).toBe(MSG_EMAIL_TAKEN);
    });

    it('refuses more than 100 rows, missing fields, account managers and unknown sites', async () => {
      const many = Array.from({ length: 101 }, (_, i) => ({
        fullname: `P ${i}`,
        company: 'C',
        email: `p${i}@x.com`,
      }));
      const tooMany = await w.admin.client.post<ErrorBody>('/api/users', { users: many, siteId: w.site.id });
      expect(tooMany.status).toBe(400);
      expect(
        (await w.admin.client.post('/api/users', { users: [{ fullname: 'x' }], siteId: w.site.id })).status,
      ).toBe(400);
      expect(
        (await w.accountManager.client.post('/api/users', { users: [rows[0]], siteId: w.site.id })).status,
      ).toBe(403);
      expect((await w.admin.client.post('/api/users', { users: [rows[0]], siteId: 999999 })).status).toBe(
        404,
      );
    });
  });
});

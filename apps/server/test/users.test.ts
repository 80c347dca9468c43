import {
  MSG_EMAIL_TAKEN,
  MSG_EMAIL_USED_IN_BATCH,
  MSG_EMAILVERIFIED_ONLY_RAISED,
  MSG_USER_WOULD_BE_CREATED,
  MSG_USERNAME_TAKEN,
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
    it("refuses a user name that is another user's email or user name, and an email that is another user's user name (409)", async () => {
      // The probe: an account manager renamed a user they manage to a reseller manager's email, and a
      // password reset by that address then mailed the renamed user.
      const renamed = await w.accountManager.client.post<ErrorBody>(`/api/users/${w.editor.user.id}`, {
        username: w.resellerManager.user.email.toUpperCase(),
      });
      expect(renamed.status).toBe(409);
      expect(renamed.body.error.message).toBe(MSG_USERNAME_TAKEN);
      expect(renamed.body.error.fields?.username).toBe(MSG_USERNAME_TAKEN);
      const named = await w.accountManager.client.post<ErrorBody>(`/api/users/${w.editor.user.id}`, {
        username: w.resellerManager.user.username.toUpperCase(),
      });
      expect(named.status).toBe(409);
      expect(named.body.error.fields?.username).toBe(MSG_USERNAME_TAKEN);
      // A user name that looks like an email address blocks that address as another user's email.
      const carol = await makeUser(t.ctx.db, {
        username: 'carol@example.com',
        email: 'carol.work@example.com',
      });
      const email = await w.editor.client.post<ErrorBody>(`/api/users/${w.editor.user.id}`, {
        email: ' CAROL@example.com ',
      });
      expect(email.status).toBe(409);
      expect(email.body.error.fields?.email).toBe(MSG_EMAIL_TAKEN);
      const read = await w.admin.client.get<Results<{ username: string; email: string }>>(
        `/api/users/${w.editor.user.id}`,
      );
      expect(read.body.results).toMatchObject({
        username: w.editor.user.username,
        email: w.editor.user.email,
      });
      // One's own email is no other user's: a user may be named by it, and may keep both as they are.
      const own = await w.admin.client.post<Results<{ username: string }>>(`/api/users/${carol.id}`, {
        username: 'Carol.Work@example.com',
        email: 'carol.work@example.com',
      });
      expect(own.status).toBe(200);
      expect(own.body.results.username).toBe('Carol.Work@example.com');
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

    it("refuses a row whose user name is a user's email or whose email is a user's user name, in the cloud or the batch", async () => {
      const dave = await makeUser(t.ctx.db, { username: 'dave@example.com', email: 'dave.work@example.com' });
      const batch = [
        { fullname: 'Eve', company: 'C', email: 'eve@example.com', username: dave.email.toUpperCase() },
        { fullname: 'Dave Too', company: 'C', email: 'DAVE@example.com' },
        { fullname: 'Fay', company: 'C', email: 'fay@example.com' },
        { fullname: 'Gus', company: 'C', email: 'gus@example.com', username: 'FAY@example.com' },
        { fullname: 'Hal', company: 'C', email: 'hal@example.com', username: 'hal.h@example.com' },
        { fullname: 'Hal Two', company: 'C', email: 'HAL.H@example.com' },
      ];
      const made = await w.siteManager.client.post<Results<Row[]>>('/api/users', {
        users: batch,
        dryRun: false,
        siteId: w.site.id,
      });
      expect(made.body.results.map((r) => [r.success, r.message])).toEqual([
        [false, MSG_USERNAME_TAKEN],
        [false, MSG_EMAIL_TAKEN],
        [true, expect.any(String)],
        [false, MSG_USERNAME_TAKEN],
        [true, expect.any(String)],
        [false, MSG_EMAIL_TAKEN],
      ]);
      const [count] = await t.ctx.db
        .select({ n: sql<number>`count(*)::int` })
        .from(users)
        .where(sql`lower(${users.email}) in ('eve@example.com', 'dave@example.com', 'gus@example.com')`);
      expect(count?.n).toBe(0);
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

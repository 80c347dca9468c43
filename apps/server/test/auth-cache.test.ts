import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAccess, roles } from '../src/modules/access/tables.ts';
import { sessions } from '../src/modules/auth/tables.ts';
import { accounts, siteGroups, sites } from '../src/modules/organisation/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import type { DbOrTx } from '../src/platform/db/client.ts';
import { grantAccountAccess, makeAccount, makeReseller, makeUser } from '../src/seed/factories.ts';
import {
  buildSecondInstance,
  buildTestApp,
  makeWorld,
  signedInUser,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';

/**
 * Sessions and rights are cached per instance (platform/auth/auth-epoch.ts). Each change below is written
 * straight into the database, as any code path might write it, after a request has cached the answer; the
 * very next request must see it.
 */
type AccountsPage = { results: { id: number; name: string; siteName: string }[]; total: number };
/** The accounts a client's list shows (cached per session and query), by id. */
const listedAccounts = async (client: TestClient) => {
  const page = await client.get<AccountsPage>('/api/accounts?limit=500&includeDisabled=1');
  expect(page.status).toBe(200);
  return new Map(page.body.results.map((row) => [row.id, row]));
};

const signedInWith = (t: TestApp, grant?: (db: DbOrTx, userId: number) => Promise<void>) =>
  signedInUser(t, grant && ((userId) => grant(t.ctx.db, userId)));

describe(`cached sessions and rights (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('ends a cached session at once when its user is disabled, renamed or its session ended', async () => {
    const disabled = await signedInWith(t);
    expect((await disabled.client.get('/api/me')).status).toBe(200);
    expect((await disabled.client.get('/api/me')).status).toBe(200);
    await t.ctx.db.update(users).set({ disabled: true }).where(eq(users.id, disabled.user.id));
    expect((await disabled.client.get('/api/me')).status).toBe(401);

    const renamed = await signedInWith(t);
    expect((await renamed.client.get<{ results: { username: string } }>('/api/me')).status).toBe(200);
    await t.ctx.db
      .update(users)
      .set({ username: `${renamed.user.username}-2` })
      .where(eq(users.id, renamed.user.id));
    const me = await renamed.client.get<{ results: { username: string } }>('/api/me');
    expect(me.body.results.username).toBe(`${renamed.user.username}-2`);

    const ended = await signedInWith(t);
    expect((await ended.client.get('/api/me')).status).toBe(200);
    await t.ctx.db
      .update(sessions)
      .set({ endedAt: sql`now()`, disconnectMessage: 'Disconnected by the test' })
      .where(eq(sessions.userId, ended.user.id));
    const refused = await ended.client.get<{ error: { message: string } }>('/api/me');
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.body)).toContain('Disconnected by the test');
  });

  it("shows a change of the user's own fields and of an account's largest video size in the next /api/me", async () => {
    type Me = {
      results: { fullname: string; email: string; mfaEnabled: boolean; editor: { maxVideo: string } };
    };
    const person = await signedInWith(t, (db, id) => grantAccountAccess(db, id, w.account.id, 'Editor'));
    const read = async () => (await person.client.get<Me>('/api/me')).body.results;
    const before = await read();
    expect(await read()).toEqual(before);
    await t.ctx.db
      .update(users)
      .set({ fullname: 'Changed Name', email: 'changed@example.com', mfaSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(users.id, person.user.id));
    expect(await read()).toMatchObject({
      fullname: 'Changed Name',
      email: 'changed@example.com',
      mfaEnabled: true,
    });
    const [account] = await t.ctx.db
      .select({ maxVideo: accounts.maxVideo })
      .from(accounts)
      .where(eq(accounts.id, w.account.id));
    const larger = account?.maxVideo === '3840x2160' ? '1920x1080' : '3840x2160';
    await t.ctx.db.update(accounts).set({ maxVideo: larger }).where(eq(accounts.id, w.account.id));
    try {
      expect((await read()).editor.maxVideo).toBe(larger);
    } finally {
      await t.ctx.db
        .update(accounts)
        .set({ maxVideo: account?.maxVideo })
        .where(eq(accounts.id, w.account.id));
    }
  });

  it('shows a role added, renamed or removed in the next cached /api/roles', async () => {
    const person = await signedInWith(t);
    const names = async () =>
      (await person.client.get<{ results: { name: string }[] }>('/api/roles?limit=500')).body.results.map(
        (role) => role.name,
      );
    expect(await names()).not.toContain('Cached role');
    expect(await names()).not.toContain('Cached role');
    const [role] = await t.ctx.db.insert(roles).values({ name: 'Cached role' }).returning({ id: roles.id });
    if (!role) throw new Error('no role');
    expect(await names()).toContain('Cached role');
    await t.ctx.db.update(roles).set({ name: 'Cached role, renamed' }).where(eq(roles.id, role.id));
    expect(await names()).toContain('Cached role, renamed');
    await t.ctx.db.delete(roles).where(eq(roles.id, role.id));
    expect(await names()).not.toContain('Cached role, renamed');
  });

  it("shows an account's and a site's change, and a site or site group that moves, in the next cached accounts list", async () => {
    const client = w.resellerManager.client;
    const listed = () => listedAccounts(client);
    expect((await listed()).get(w.account.id)?.name).toBe(w.account.name);
    expect((await listed()).has(w.otherAccount.id)).toBe(false);

    await t.ctx.db.update(accounts).set({ name: 'Cached list rename' }).where(eq(accounts.id, w.account.id));
    try {
      expect((await listed()).get(w.account.id)?.name).toBe('Cached list rename');
    } finally {
      await t.ctx.db.update(accounts).set({ name: w.account.name }).where(eq(accounts.id, w.account.id));
    }
    await t.ctx.db.update(sites).set({ name: 'Cached list site' }).where(eq(sites.id, w.site.id));
    try {
      expect((await listed()).get(w.account.id)?.siteName).toBe('Cached list site');
    } finally {
      await t.ctx.db.update(sites).set({ name: w.site.name }).where(eq(sites.id, w.site.id));
    }

    const added = await makeAccount(t.ctx.db, { siteId: w.site.id });
    expect((await listed()).has(added.id)).toBe(true);
    await t.ctx.db.delete(accounts).where(eq(accounts.id, added.id));
    expect((await listed()).has(added.id)).toBe(false);

    // The other site moves into the manager's site group, and back.
    const [otherSite] = await t.ctx.db.select().from(sites).where(eq(sites.id, w.otherSite.id));
    if (!otherSite) throw new Error('no site');
    await t.ctx.db.update(sites).set({ siteGroupId: w.siteGroup.id }).where(eq(sites.id, otherSite.id));
    try {
      expect((await listed()).has(w.otherAccount.id)).toBe(true);
    } finally {
      await t.ctx.db
        .update(sites)
        .set({ siteGroupId: otherSite.siteGroupId })
        .where(eq(sites.id, otherSite.id));
    }
    expect((await listed()).has(w.otherAccount.id)).toBe(false);

    // The manager's site group goes to another reseller: its accounts leave the list, and come back.
    const elsewhere = await makeReseller(t.ctx.db);
    await t.ctx.db
      .update(siteGroups)
      .set({ resellerId: elsewhere.id })
      .where(eq(siteGroups.id, w.siteGroup.id));
    try {
      expect((await listed()).has(w.account.id)).toBe(false);
    } finally {
      await t.ctx.db
        .update(siteGroups)
        .set({ resellerId: w.reseller.id })
        .where(eq(siteGroups.id, w.siteGroup.id));
    }
    expect((await listed()).has(w.account.id)).toBe(true);
  });

  it('shows a new user, a changed company or home site, and a removed user in the next cached users list', async () => {
    type UsersPage = { results: { id: number; company: string }[] };
    const listed = async (client: TestClient, query: string) => {
      const page = await client.get<UsersPage>(`/api/users?searchText=cachedlist&${query}`);
      expect(page.status).toBe(200);
      return new Map(page.body.results.map((row) => [row.id, row]));
    };
    const admin = w.admin.client;
    const ofSite = `type=site&siteId=${w.site.id}`;
    expect((await listed(admin, 'type=all')).size).toBe(0);
    expect((await listed(w.siteManager.client, ofSite)).size).toBe(0);
    const user = await makeUser(t.ctx.db, { username: 'cachedlist-person' });
    expect((await listed(admin, 'type=all')).get(user.id)?.company).toBe('Example Productions');
    await t.ctx.db.update(users).set({ company: 'Another company' }).where(eq(users.id, user.id));
    expect((await listed(admin, 'type=all')).get(user.id)?.company).toBe('Another company');
    // A user of the site (its home site) is one the site manager may list.
    expect((await listed(w.siteManager.client, ofSite)).has(user.id)).toBe(false);
    await t.ctx.db.update(users).set({ homeSiteId: w.site.id }).where(eq(users.id, user.id));
    expect((await listed(w.siteManager.client, ofSite)).has(user.id)).toBe(true);
    await t.ctx.db.delete(users).where(eq(users.id, user.id));
    expect((await listed(admin, 'type=all')).has(user.id)).toBe(false);
    expect((await listed(w.siteManager.client, ofSite)).has(user.id)).toBe(false);
  });

  it('gives and takes account access at once, and a role that stops managing takes its manager rights', async () => {
    const person = await signedInWith(t);
    const account = `/api/accounts/${w.account.id}`;
    expect((await person.client.get(account)).status).not.toBe(200);
    expect((await person.client.get(account)).status).not.toBe(200);
    await grantAccountAccess(t.ctx.db, person.user.id, w.account.id, 'Editor');
    expect((await person.client.get(account)).status).toBe(200);
    await t.ctx.db.delete(accountAccess).where(eq(accountAccess.userId, person.user.id));
    expect((await person.client.get(account)).status).not.toBe(200);

    const manager = await signedInWith(t, (db, id) =>
      grantAccountAccess(db, id, w.account.id, 'Account Manager'),
    );
    const folders = `/api/accounts/${w.account.id}/arrivalsFolders`;
    expect((await manager.client.get(folders)).status).toBe(200);
    const [role] = await t.ctx.db
      .select({ id: roles.id })
      .from(roles)
      .innerJoin(accountAccess, eq(accountAccess.roleId, roles.id))
      .where(and(eq(accountAccess.userId, manager.user.id), eq(accountAccess.accountId, w.account.id)));
    if (!role) throw new Error('no role');
    await t.ctx.db.update(roles).set({ isManager: false }).where(eq(roles.id, role.id));
    try {
      expect((await manager.client.get(folders)).status).toBe(403);
    } finally {
      await t.ctx.db.update(roles).set({ isManager: true }).where(eq(roles.id, role.id));
    }
    expect((await manager.client.get(folders)).status).toBe(200);
  });
});

// Several instances share one PostgreSQL database; PGlite is one process's database by design.
describe.skipIf(testDriver() !== 'postgres')('cached sessions and rights on two instances', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildSecondInstance>>;
  let w: World;

  beforeAll(async () => {
    a = await buildTestApp();
    w = await makeWorld(a);
    b = await buildSecondInstance(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });
  /** The same person's session, on instance B. */
  const onB = (client: TestClient) => b.clientLike(client);

  it('a disconnect through instance A, and a user disabled, end the session cached on instance B at once', async () => {
    const person = await signedInWith(a, (db, id) => grantAccountAccess(db, id, w.account.id, 'Editor'));
    // A session opened in the account is one its managers may end.
    expect((await person.client.post(`/api/accounts/${w.account.id}/launch`, {})).status).toBe(200);
    const b1 = onB(person.client);
    expect((await b1.get('/api/me')).status).toBe(200);
    expect((await b1.get('/api/me')).status).toBe(200);
    const [session] = await a.ctx.db
      .select({ publicId: sessions.publicId })
      .from(sessions)
      .where(eq(sessions.userId, person.user.id));
    const admin = await a.admin();
    const disconnected = await admin.post(
      `/api/accounts/${w.account.id}/sessions/${session?.publicId}/trash`,
      {
        disconnectmessage: 'Bye',
      },
    );
    expect(disconnected.status).toBe(200);
    const refused = await b1.get('/api/me');
    expect(refused.status).toBe(401);
    expect(JSON.stringify(refused.body)).toContain('Bye');

    const other = await signedInWith(a);
    const b2 = onB(other.client);
    expect((await b2.get('/api/me')).status).toBe(200);
    await a.ctx.db.update(users).set({ disabled: true }).where(eq(users.id, other.user.id));
    expect((await b2.get('/api/me')).status).toBe(401);
  });

  it('account access given and taken through instance A counts on instance B at once', async () => {
    const person = await signedInWith(a);
    const b1 = onB(person.client);
    const account = `/api/accounts/${w.account.id}`;
    expect((await b1.get(account)).status).not.toBe(200);
    await grantAccountAccess(a.ctx.db, person.user.id, w.account.id, 'Editor');
    expect((await b1.get(account)).status).toBe(200);
    await a.ctx.db.delete(accountAccess).where(eq(accountAccess.userId, person.user.id));
    expect((await b1.get(account)).status).not.toBe(200);
  });

  it('an account renamed through instance A shows in the accounts list cached on instance B at once', async () => {
    const b1 = onB(w.siteManager.client);
    expect((await listedAccounts(b1)).get(w.account.id)?.name).toBe(w.account.name);
    expect((await listedAccounts(b1)).get(w.account.id)?.name).toBe(w.account.name);
    await a.ctx.db.update(accounts).set({ name: 'Renamed on A' }).where(eq(accounts.id, w.account.id));
    try {
      expect((await listedAccounts(b1)).get(w.account.id)?.name).toBe('Renamed on A');
    } finally {
      await a.ctx.db.update(accounts).set({ name: w.account.name }).where(eq(accounts.id, w.account.id));
    }
  });
});

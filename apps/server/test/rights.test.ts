import type { Right } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRights, requireRight, requireUserManagement } from '../src/modules/access/service.ts';
import type { Actor } from '../src/platform/auth/actor.ts';
import { AppError } from '../src/platform/errors.ts';
import type { EntityRef } from '../src/platform/permissions.ts';
import {
  grantAccountAccess,
  grantManagerOf,
  makeAccount,
  makeReseller,
  makeSite,
  makeSiteGroup,
  makeUser,
} from '../src/seed/factories.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

/** What requireRight answers: 'ok', or the HTTP status of the refusal. */
const outcome = async (t: TestApp, actor: Actor, right: Right, entity: EntityRef) => {
  try {
    await requireRight(t.ctx.db, actor, right, entity);
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
};

const actorFor = (t: TestApp, userId: number): Actor => ({
  userId,
  username: `u${userId}`,
  sessionIdHash: 'h',
  sessionPublicId: 'p',
  generation: 0,
  rights: () => loadRights(t.ctx.db, userId),
});

describe(`rights: cloud → reseller → site group → site → account (${testDriver()})`, () => {
  let t: TestApp;
  const world = {} as {
    reseller: number;
    otherReseller: number;
    siteGroup: number;
    site: number;
    siblingSite: number;
    otherSite: number;
    account: number;
    siblingAccount: number;
    otherAccount: number;
    users: Record<
      'admin' | 'reseller' | 'siteGroup' | 'site' | 'accountManager' | 'accountUser' | 'nobody',
      Actor
    >;
    accountUserId: number;
    outsiderId: number;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.ctx.db;
    const reseller = await makeReseller(db);
    const otherReseller = await makeReseller(db);
    const siteGroup = await makeSiteGroup(db, { resellerId: reseller.id });
    const site = await makeSite(db, { siteGroupId: siteGroup.id });
    const siblingSite = await makeSite(db, { siteGroupId: siteGroup.id });
    const otherSite = await makeSite(db, {
      siteGroupId: (await makeSiteGroup(db, { resellerId: otherReseller.id })).id,
    });
    const account = await makeAccount(db, { siteId: site.id });
    const siblingAccount = await makeAccount(db, { siteId: siblingSite.id });
    const otherAccount = await makeAccount(db, { siteId: otherSite.id });
    const make = async () => (await makeUser(db)).id;
    const ids = {
      admin: await make(),
      reseller: await make(),
      siteGroup: await make(),
      site: await make(),
      accountManager: await make(),
      accountUser: await make(),
      nobody: await make(),
    };
    await grantManagerOf(db, ids.admin, 'admin');
    await grantManagerOf(db, ids.reseller, 'reseller', reseller.id);
    await grantManagerOf(db, ids.siteGroup, 'sitegroup', siteGroup.id);
    await grantManagerOf(db, ids.site, 'site', site.id);
    await grantAccountAccess(db, ids.accountManager, account.id, 'Account Manager');
    await grantAccountAccess(db, ids.accountUser, account.id, 'Editor');
    const outsider = await make();
    await grantAccountAccess(db, outsider, otherAccount.id, 'Viewer');
    Object.assign(world, {
      reseller: reseller.id,
      otherReseller: otherReseller.id,
      siteGroup: siteGroup.id,
      site: site.id,
      siblingSite: siblingSite.id,
      otherSite: otherSite.id,
      account: account.id,
      siblingAccount: siblingAccount.id,
      otherAccount: otherAccount.id,
      users: Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, actorFor(t, id)])),
      accountUserId: ids.accountUser,
      outsiderId: outsider,
    });
  });
  afterAll(() => t.close());

  const who = ['admin', 'reseller', 'siteGroup', 'site', 'accountManager', 'accountUser', 'nobody'] as const;

  // Expected answers per level, in the order of `who`.
  const cases: { right: Right; entity: () => EntityRef; expected: (string | number)[] }[] = [
    {
      right: 'cloud.admin',
      entity: () => ({ kind: 'cloud' }),
      expected: ['ok', 403, 403, 403, 403, 403, 403],
    },
    {
      right: 'reseller.manage',
      entity: () => ({ kind: 'reseller', id: world.reseller }),
      expected: ['ok', 'ok', 403, 403, 403, 403, 403],
    },
    {
      right: 'reseller.manage',
      entity: () => ({ kind: 'reseller', id: world.otherReseller }),
      expected: ['ok', 403, 403, 403, 403, 403, 403],
    },
    {
      right: 'siteGroup.manage',
      entity: () => ({ kind: 'siteGroup', id: world.siteGroup }),
      expected: ['ok', 'ok', 'ok', 403, 403, 403, 403],
    },
    {
      right: 'site.manage',
      entity: () => ({ kind: 'site', id: world.site }),
      expected: ['ok', 'ok', 'ok', 'ok', 403, 403, 403],
    },
    {
      right: 'site.manage',
      entity: () => ({ kind: 'site', id: world.siblingSite }),
      expected: ['ok', 'ok', 'ok', 403, 403, 403, 403],
    },
    {
      right: 'site.manage',
      entity: () => ({ kind: 'site', id: world.otherSite }),
      expected: ['ok', 403, 403, 403, 403, 403, 403],
    },
    {
      right: 'account.changeReseller',
      entity: () => ({ kind: 'account', id: world.account }),
      expected: ['ok', 'ok', 403, 403, 403, 403, 403],
    },
    {
      right: 'account.manage',
      entity: () => ({ kind: 'account', id: world.account }),
      expected: ['ok', 'ok', 'ok', 'ok', 'ok', 403, 403],
    },
    {
      right: 'account.manage',
      entity: () => ({ kind: 'account', id: world.siblingAccount }),
      expected: ['ok', 'ok', 'ok', 403, 403, 403, 403],
    },
    {
      right: 'account.use',
      entity: () => ({ kind: 'account', id: world.account }),
      expected: ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 403],
    },
    {
      right: 'account.use',
      entity: () => ({ kind: 'account', id: world.otherAccount }),
      expected: ['ok', 403, 403, 403, 403, 403, 403],
    },
  ];

  for (const c of cases) {
    it(`${c.right} is granted exactly to the levels above the entity (${c.expected.join(' ')})`, async () => {
      const answers = [];
      for (const level of who) answers.push(await outcome(t, world.users[level], c.right, c.entity()));
      expect(answers).toEqual(c.expected);
    });
  }

  it('answers 404 for an entity that does not exist, whoever asks', async () => {
    for (const level of who) {
      expect(await outcome(t, world.users[level], 'account.use', { kind: 'account', id: 999_999 })).toBe(404);
      expect(await outcome(t, world.users[level], 'site.manage', { kind: 'site', id: 999_999 })).toBe(404);
    }
  });

  it('lets users manage themselves, site managers the users of their sites, administrators everyone', async () => {
    const manage = async (actor: Actor, userId: number) =>
      requireUserManagement(t.ctx.db, actor, userId).then(
        () => 'ok',
        (error: AppError) => error.status,
      );
    expect(await manage(world.users.accountUser, world.accountUserId)).toBe('ok');
    expect(await manage(world.users.site, world.accountUserId)).toBe('ok');
    expect(await manage(world.users.reseller, world.accountUserId)).toBe('ok');
    expect(await manage(world.users.admin, world.outsiderId)).toBe('ok');
    // Refused like a missing user (404), so that the answer never tells that an id exists.
    expect(await manage(world.users.site, world.outsiderId)).toBe(404);
    expect(await manage(world.users.accountManager, world.outsiderId)).toBe(404);
    expect(await manage(world.users.nobody, world.accountUserId)).toBe(404);
    expect(await manage(world.users.nobody, 999_999)).toBe(404);
  });

  it('reports the rights sets through GET /api/me', async () => {
    const db = t.ctx.db;
    const user = await makeUser(db);
    await grantManagerOf(db, user.id, 'site', world.site);
    await grantAccountAccess(db, user.id, world.siblingAccount, 'Account Manager');
    await grantAccountAccess(db, user.id, world.otherAccount, 'Viewer');
    const client = await t.client().signIn(user.username, user.password as string);
    const me = await client.get<{ results: { rights: Record<string, number[]> } }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.rights).toEqual({
      admin: [],
      resellers: [],
      siteGroups: [],
      sites: [world.site],
      accountManager: [world.siblingAccount],
      accounts: expect.arrayContaining([world.siblingAccount, world.otherAccount]),
    });
  });
});

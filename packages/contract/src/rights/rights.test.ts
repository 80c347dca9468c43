import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Ancestry,
  emptyRights,
  hasRight,
  type ManagerStanding,
  mayChangeManagerStanding,
  RIGHTS,
  type Right,
  type RightsSnapshot,
} from './rights.ts';

const rightsWith = (changes: Partial<RightsSnapshot>): RightsSnapshot => ({ ...emptyRights(7), ...changes });
const granted = (rights: RightsSnapshot, ancestry?: Ancestry) =>
  RIGHTS.filter((right) => hasRight(rights, right, ancestry));

/** Account 1000 in site 100, in site group 10, under reseller 1. */
const account: Ancestry = { resellerId: 1, siteGroupId: 10, siteId: 100, accountId: 1000 };

const levels = {
  administrator: rightsWith({ admin: true }),
  'reseller manager': rightsWith({ resellers: new Set([1]) }),
  'site group manager': rightsWith({ siteGroups: new Set([10]) }),
  'site manager': rightsWith({ sites: new Set([100]) }),
  'account manager': rightsWith({ accountManager: new Set([1000]), accounts: new Set([1000]) }),
  'account user': rightsWith({ accounts: new Set([1000]) }),
  'no rights': emptyRights(7),
} satisfies Record<string, RightsSnapshot>;
type Level = keyof typeof levels;

describe('rights matrix (DESIGN.md, spec1 §6) on an account of their own', () => {
  const expected: Record<Level, Right[]> = {
    administrator: [...RIGHTS],
    'reseller manager': [
      'reseller.manage',
      'siteGroup.manage',
      'site.manage',
      'account.changeReseller',
      'account.manage',
      'account.use',
    ],
    'site group manager': ['siteGroup.manage', 'site.manage', 'account.manage', 'account.use'],
    'site manager': ['site.manage', 'account.manage', 'account.use'],
    'account manager': ['account.manage', 'account.use'],
    'account user': ['account.use'],
    'no rights': [],
  };
  for (const [level, rights] of Object.entries(levels) as [Level, RightsSnapshot][]) {
    it(`grants a ${level} exactly its rights`, () => {
      expect(granted(rights, account)).toEqual(expected[level]);
    });
  }
});

describe('rights matrix on an account of someone else', () => {
  /** Account 2000 in site 200, in site group 20, under reseller 2: none of the grants above. */
  const other: Ancestry = { resellerId: 2, siteGroupId: 20, siteId: 200, accountId: 2000 };
  for (const [level, rights] of Object.entries(levels) as [Level, RightsSnapshot][]) {
    const expected = level === 'administrator' ? [...RIGHTS] : [];
    it(`grants a ${level} ${level === 'administrator' ? 'everything' : 'nothing'}`, () => {
      expect(granted(rights, other)).toEqual(expected);
    });
  }

  it('keeps a site manager to their own site within the same site group', () => {
    const sibling: Ancestry = { ...account, siteId: 101, accountId: 1001 };
    expect(granted(levels['site manager'], sibling)).toEqual([]);
    expect(granted(levels['site group manager'], sibling)).toEqual([
      'siteGroup.manage',
      'site.manage',
      'account.manage',
      'account.use',
    ]);
  });
});

describe('rights above the account level', () => {
  it('gives only an administrator the cloud', () => {
    for (const [level, rights] of Object.entries(levels) as [Level, RightsSnapshot][]) {
      expect(granted(rights, {}), level).toEqual(level === 'administrator' ? [...RIGHTS] : []);
      expect(granted(rights), level).toEqual(level === 'administrator' ? [...RIGHTS] : []);
    }
  });

  it('gives a site manager their site but not its site group, and no account use on the site itself', () => {
    const site: Ancestry = { resellerId: 1, siteGroupId: 10, siteId: 100 };
    expect(granted(levels['site manager'], site)).toEqual(['site.manage', 'account.manage', 'account.use']);
    expect(granted(levels['account manager'], site)).toEqual([]);
    expect(granted(levels['account user'], site)).toEqual([]);
  });

  it('does not match a missing or null id against a grant', () => {
    const blank: Ancestry = { resellerId: null, siteGroupId: null, siteId: null, accountId: null };
    for (const [level, rights] of Object.entries(levels) as [Level, RightsSnapshot][]) {
      expect(granted(rights, blank), level).toEqual(level === 'administrator' ? [...RIGHTS] : []);
    }
  });
});

describe('rights, properties', () => {
  const id = fc.integer({ min: 1, max: 20 });
  const maybeId = fc.option(id, { nil: undefined });
  const ancestryArb: fc.Arbitrary<Ancestry> = fc.record({
    resellerId: maybeId,
    siteGroupId: maybeId,
    siteId: maybeId,
    accountId: maybeId,
  });
  const ids = fc.uniqueArray(id, { maxLength: 3 }).map((list) => new Set(list));
  const rightsArb: fc.Arbitrary<RightsSnapshot> = fc.record({
    userId: id,
    admin: fc.boolean(),
    resellers: ids,
    siteGroups: ids,
    sites: ids,
    accountManager: ids,
    accounts: ids,
  });

  it('gives an administrator every right anywhere', () => {
    fc.assert(
      fc.property(ancestryArb, fc.constantFrom(...RIGHTS), (a, right) => {
        expect(hasRight(rightsWith({ admin: true }), right, a)).toBe(true);
      }),
    );
  });

  it('gives a user without rights nothing anywhere', () => {
    fc.assert(
      fc.property(ancestryArb, fc.constantFrom(...RIGHTS), id, (a, right, userId) => {
        expect(hasRight(emptyRights(userId), right, a)).toBe(false);
      }),
    );
  });

  it('lets a reseller manager manage sites and accounts under their reseller, not under another', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer(),
        id,
        id,
        id,
        (reseller, otherReseller, groupId, siteId, accountId) => {
          fc.pre(reseller !== otherReseller);
          const rights = rightsWith({ resellers: new Set([reseller]) });
          const under: Ancestry = { resellerId: reseller, siteGroupId: groupId, siteId, accountId };
          const elsewhere: Ancestry = { ...under, resellerId: otherReseller };
          for (const right of [
            'site.manage',
            'account.manage',
            'account.use',
            'account.changeReseller',
          ] as const) {
            expect(hasRight(rights, right, under), right).toBe(true);
            expect(hasRight(rights, right, elsewhere), right).toBe(false);
          }
        },
      ),
    );
  });

  it('follows the hierarchy: each management right implies the ones below it', () => {
    const chain: Right[] = [
      'cloud.admin',
      'reseller.manage',
      'siteGroup.manage',
      'site.manage',
      'account.manage',
      'account.use',
    ];
    fc.assert(
      fc.property(rightsArb, ancestryArb, (rights, a) => {
        chain.forEach((right, i) => {
          const below = chain[i + 1];
          if (below && hasRight(rights, right, a))
            expect(hasRight(rights, below, a), `${right} ⇒ ${below}`).toBe(true);
        });
        expect(hasRight(rights, 'cloud.admin', a)).toBe(rights.admin);
        expect(hasRight(rights, 'account.changeReseller', a)).toBe(hasRight(rights, 'reseller.manage', a));
      }),
    );
  });

  it('never takes a right away when a grant is added', () => {
    const scopes = ['resellers', 'siteGroups', 'sites', 'accountManager', 'accounts'] as const;
    fc.assert(
      fc.property(rightsArb, ancestryArb, fc.constantFrom(...scopes), id, (rights, a, scope, extra) => {
        const more: RightsSnapshot = { ...rights, [scope]: new Set([...rights[scope], extra]) };
        for (const right of granted(rights, a)) expect(hasRight(more, right, a), right).toBe(true);
      }),
    );
  });

  it('grants a non-administrator nothing on an entity outside all of their grants', () => {
    // Grants hold ids 1..20; the same ancestry moved by 1000 lies outside every one of them.
    fc.assert(
      fc.property(rightsArb, ancestryArb, (rights, a) => {
        const outside: Ancestry = Object.fromEntries(
          Object.entries(a).map(([key, value]) => [key, value == null ? value : value + 1000]),
        );
        expect(granted({ ...rights, admin: false }, outside)).toEqual([]);
        expect(granted({ ...rights, admin: true }, outside)).toEqual([...RIGHTS]);
      }),
    );
  });
});

describe('manager standings: given and taken by the same right, never by a peer (issue 30)', () => {
  const mayChange = (level: Level, standing: ManagerStanding) =>
    mayChangeManagerStanding(levels[level], standing, account);

  it("keeps an account's manager role to its site's managers and above, not to the account's managers", () => {
    const allowed = (Object.keys(levels) as Level[]).filter((level) => mayChange(level, 'account'));
    expect(allowed).toEqual(['administrator', 'reseller manager', 'site group manager', 'site manager']);
  });

  it("gives each grant to that scope's managers, and the administrators' list to administrators", () => {
    expect(mayChange('site manager', 'site')).toBe(true);
    expect(mayChange('site manager', 'sitegroup')).toBe(false);
    expect(mayChange('site group manager', 'sitegroup')).toBe(true);
    expect(mayChange('site group manager', 'reseller')).toBe(false);
    expect(mayChange('reseller manager', 'reseller')).toBe(true);
    expect(mayChange('reseller manager', 'admin')).toBe(false);
    expect(mayChange('administrator', 'admin')).toBe(true);
  });

  it('never lets an account manager change a manager standing anywhere', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ManagerStanding>('admin', 'reseller', 'sitegroup', 'site', 'account'),
        fc.record({ resellerId: fc.nat(3), siteGroupId: fc.nat(3), siteId: fc.nat(3), accountId: fc.nat(3) }),
        (standing, place) => {
          const manager = rightsWith({
            accountManager: new Set([0, 1, 2, 3]),
            accounts: new Set([0, 1, 2, 3]),
          });
          expect(mayChangeManagerStanding(manager, standing, place)).toBe(false);
        },
      ),
    );
  });
});

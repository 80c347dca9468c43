import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Ancestry, emptyRights, hasRight, RIGHTS, type RightsSnapshot } from './rights.ts';

const ancestry: Ancestry = { resellerId: 1, siteGroupId: 10, siteId: 100, accountId: 1000 };
const rightsWith = (changes: Partial<RightsSnapshot>): RightsSnapshot => ({ ...emptyRights(7), ...changes });

describe('rights matrix (DESIGN.md)', () => {
  const levels: Record<string, RightsSnapshot> = {
    administrator: rightsWith({ admin: true }),
    'reseller manager': rightsWith({ resellers: new Set([1]) }),
    'site group manager': rightsWith({ siteGroups: new Set([10]) }),
    'site manager': rightsWith({ sites: new Set([100]) }),
    'account manager': rightsWith({ accountManager: new Set([1000]), accounts: new Set([1000]) }),
    'account user': rightsWith({ accounts: new Set([1000]) }),
    'no rights': emptyRights(7),
  };
  const expected: Record<string, string[]> = {
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
  for (const [level, rights] of Object.entries(levels)) {
    it(`grants a ${level} exactly its rights`, () => {
      expect(RIGHTS.filter((right) => hasRight(rights, right, ancestry))).toEqual(expected[level]);
    });
  }

  const id = fc.integer({ min: 1, max: 50 });
  const ancestryArb = fc.record({ resellerId: id, siteGroupId: id, siteId: id, accountId: id });

  it('gives an administrator every right anywhere', () => {
    fc.assert(
      fc.property(ancestryArb, fc.constantFrom(...RIGHTS), (a, right) =>
        hasRight(rightsWith({ admin: true }), right, a),
      ),
    );
  });

  it('gives a user without rights nothing anywhere', () => {
    fc.assert(
      fc.property(ancestryArb, fc.constantFrom(...RIGHTS), (a, right) => !hasRight(emptyRights(1), right, a)),
    );
  });

  it('lets a reseller manager manage sites and accounts under their reseller only', () => {
    fc.assert(
      fc.property(ancestryArb, id, (a, reseller) => {
        const rights = rightsWith({ resellers: new Set([reseller]) });
        const under = a.resellerId === reseller;
        return (
          hasRight(rights, 'site.manage', a) === under && hasRight(rights, 'account.manage', a) === under
        );
      }),
    );
  });
});

import type { Me, Site } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { hashId, managedSites, reasonOf, temporaryId } from './edge-page.ts';

const site = (id: number, siteGroupId: number, resellerId: number): Site => ({
  id,
  name: `Site ${id}`,
  siteGroupId,
  siteGroupName: `Group ${siteGroupId}`,
  resellerId,
  resellerName: `Reseller ${resellerId}`,
  disabled: false,
  accountCount: 0,
});

const me = (rights: Partial<Me['rights']>): Me =>
  ({
    id: 7,
    rights: {
      admin: [],
      resellers: [],
      siteGroups: [],
      sites: [],
      accountManager: [],
      accounts: [],
      ...rights,
    },
  }) as unknown as Me;

describe('edge page helpers', () => {
  const sites = [site(1, 10, 100), site(2, 10, 100), site(3, 20, 100), site(4, 30, 200)];

  it('offers the sites a user manages: directly, through a site group or a reseller, or all for administrators', () => {
    expect(managedSites(sites, me({ admin: [1] })).map((s) => s.id)).toEqual([1, 2, 3, 4]);
    expect(managedSites(sites, me({ sites: [3] })).map((s) => s.id)).toEqual([3]);
    expect(managedSites(sites, me({ siteGroups: [10] })).map((s) => s.id)).toEqual([1, 2]);
    expect(managedSites(sites, me({ resellers: [200] })).map((s) => s.id)).toEqual([4]);
    expect(managedSites(sites, me({ accounts: [5] }))).toEqual([]);
  });

  it('reads the selected card from #/{id} and nothing else', () => {
    expect(hashId('#/42')).toBe(42);
    expect(hashId('')).toBeUndefined();
    expect(hashId('#42')).toBeUndefined();
    expect(hashId('#/forEdge/3')).toBeUndefined();
  });

  it('gives drafts distinct temporary ids', () => {
    const a = temporaryId();
    const b = temporaryId();
    expect(a).toMatch(/^new-\d+$/);
    expect(a).not.toBe(b);
  });

  it("words a reason as the server's message and code once, else the plain message", () => {
    expect(reasonOf(new ApiError('Name too long (validation)', 400, 'validation'))).toBe(
      'Name too long (validation)',
    );
    expect(reasonOf(new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(reasonOf(undefined)).toBe('an error has occurred');
  });
});

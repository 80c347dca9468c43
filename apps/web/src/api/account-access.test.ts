import { describe, expect, it } from 'vitest';
import { userSearchQuery } from './account-access.ts';

describe('user search (spec1 §6, §7)', () => {
  it('asks for 20 of every user as an administrator, 10 of a site otherwise', () => {
    expect(Object.fromEntries(new URLSearchParams(userSearchQuery('ann', { admin: true })))).toEqual({
      searchText: 'ann',
      limit: '20',
      type: 'all',
    });
    expect(
      Object.fromEntries(new URLSearchParams(userSearchQuery('ann', { admin: false, siteId: 4 }))),
    ).toEqual({
      searchText: 'ann',
      limit: '10',
      type: 'site',
      siteId: '4',
    });
  });
});

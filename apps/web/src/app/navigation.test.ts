import type { Me } from '@media/contract';
import { describe, expect, it } from 'vitest';
import { NAVIGATION, pageNotForRole } from './navigation.ts';

const person = (rights: Partial<Me['rights']>): Me =>
  ({
    id: 7,
    username: 'someone',
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

describe('pages by role (issue 18)', () => {
  const accountManager = person({ accounts: [3] });
  const admin = person({ admin: [1] });

  it("answers the page a role may not use, by the navigation's own rule", () => {
    for (const path of [
      '/admin/passwordRules',
      '/admin/lockouts/',
      '/admin/sessions',
      '/admin/managers',
      '/admin/edge',
      '/admin/webhooks',
      '/admin/activity',
      '/diagnostic',
    ])
      expect(pageNotForRole(path, accountManager)?.label, path).toBeDefined();
    expect(pageNotForRole('/admin/passwordRules', accountManager)?.label).toBe('Password rules');
  });

  it('shows Activity to administrators and to managers of any place, not to account users', () => {
    const activity = NAVIGATION.find((item) => item.label === 'Activity');
    for (const rights of [
      { admin: [1] },
      { resellers: [1] },
      { siteGroups: [1] },
      { sites: [1] },
      { accountManager: [3] },
    ])
      expect(activity?.visible(person(rights)), JSON.stringify(rights)).toBe(true);
    expect(activity?.visible(person({ accounts: [3] }))).toBe(false);
  });

  it('lets a role use the pages its navigation shows, and every page of an account it reaches', () => {
    for (const item of NAVIGATION) expect(pageNotForRole(item.to(admin), admin)).toBeUndefined();
    for (const path of ['/', '/accounts/evening-news/media', '/users/7/edge', '/users/user_settings/7/'])
      expect(pageNotForRole(path, accountManager)).toBeUndefined();
  });
});

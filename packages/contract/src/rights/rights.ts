/**
 * The rights matrix of DESIGN.md as one pure rule, so that the server's permission module and the
 * web app's navigation decide the same way.
 */
export type RightsSnapshot = {
  userId: number;
  admin: boolean;
  resellers: ReadonlySet<number>;
  siteGroups: ReadonlySet<number>;
  sites: ReadonlySet<number>;
  accountManager: ReadonlySet<number>;
  accounts: ReadonlySet<number>;
};

/** Where an entity sits in cloud → reseller → site group → site → account. */
export type Ancestry = {
  resellerId?: number | null;
  siteGroupId?: number | null;
  siteId?: number | null;
  accountId?: number | null;
};

export const RIGHTS = [
  'cloud.admin',
  'reseller.manage',
  'siteGroup.manage',
  'site.manage',
  'account.changeReseller',
  'account.manage',
  'account.use',
] as const;
export type Right = (typeof RIGHTS)[number];

const has = (set: ReadonlySet<number>, id: number | null | undefined) => id != null && set.has(id);

const managesReseller = (r: RightsSnapshot, a: Ancestry) => r.admin || has(r.resellers, a.resellerId);
const managesSiteGroup = (r: RightsSnapshot, a: Ancestry) =>
  managesReseller(r, a) || has(r.siteGroups, a.siteGroupId);
const managesSite = (r: RightsSnapshot, a: Ancestry) => managesSiteGroup(r, a) || has(r.sites, a.siteId);
const managesAccount = (r: RightsSnapshot, a: Ancestry) =>
  managesSite(r, a) || has(r.accountManager, a.accountId);

export const hasRight = (rights: RightsSnapshot, right: Right, ancestry: Ancestry = {}): boolean => {
  switch (right) {
    case 'cloud.admin':
      return rights.admin;
    case 'reseller.manage':
      return managesReseller(rights, ancestry);
    case 'siteGroup.manage':
      return managesSiteGroup(rights, ancestry);
    case 'site.manage':
      return managesSite(rights, ancestry);
    case 'account.changeReseller':
      return managesReseller(rights, ancestry);
    case 'account.manage':
      return managesAccount(rights, ancestry);
    case 'account.use':
      return managesAccount(rights, ancestry) || has(rights.accounts, ancestry.accountId);
  }
};

export const emptyRights = (userId: number): RightsSnapshot => ({
  userId,
  admin: false,
  resellers: new Set(),
  siteGroups: new Set(),
  sites: new Set(),
  accountManager: new Set(),
  accounts: new Set(),
});

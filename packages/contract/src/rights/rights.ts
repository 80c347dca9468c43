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

/** Where a manager stands: the types of the managers API (an account's manager role, or a grant). */
export type ManagerStanding = 'admin' | 'reseller' | 'sitegroup' | 'site' | 'account';

/**
 * DESIGN.md "Managing people", among managers: the one right that gives a manager standing also changes
 * and takes it away, whichever API does it (the managers API, an account's user access). An account's
 * manager role is given by the account's site managers and above (spec1 §6: manager roles cannot be
 * chosen in the access list), so it is taken by them too, never by the account's other managers: a peer
 * is not below them. A site, site group or reseller grant is given and taken by that scope's managers (the
 * site page offers its managers the site's managers), the administrators' list by administrators.
 */
export const MANAGER_STANDING_RIGHT: Record<ManagerStanding, Right> = {
  admin: 'cloud.admin',
  reseller: 'reseller.manage',
  sitegroup: 'siteGroup.manage',
  site: 'site.manage',
  account: 'site.manage',
};

/** May these rights give, change or take a manager standing at this place (MANAGER_STANDING_RIGHT)? */
export const mayChangeManagerStanding = (
  rights: RightsSnapshot,
  standing: ManagerStanding,
  ancestry: Ancestry,
): boolean => hasRight(rights, MANAGER_STANDING_RIGHT[standing], ancestry);

/** Why a manager's standing may not be changed: they are not below the actor (a peer, or above). */
export const MSG_MANAGER_NOT_BELOW = "A manager's role is changed only by the managers above them";

export const emptyRights = (userId: number): RightsSnapshot => ({
  userId,
  admin: false,
  resellers: new Set(),
  siteGroups: new Set(),
  sites: new Set(),
  accountManager: new Set(),
  accounts: new Set(),
});

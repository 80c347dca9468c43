import { DIAGNOSTIC_PAGE_PATH, type Me, webhooksPageLink } from '@media/contract';

export type NavigationItem = {
  label: string;
  to: (me: Me) => string;
  section: 'user' | 'cloud';
  visible: (me: Me) => boolean;
};

/** Every page reachable from the shell, with who may see it; later areas add their entries here. */
export const NAVIGATION: NavigationItem[] = [
  { section: 'user', label: 'Home', to: () => '/', visible: () => true },
  {
    section: 'user',
    label: 'Your settings',
    to: (me) => `/users/user_settings/${me.id}/`,
    visible: () => true,
  },
  {
    section: 'user',
    label: 'Accounts',
    to: () => '/accounts',
    visible: (me) =>
      me.rights.admin.length > 0 ||
      me.rights.accounts.length > 0 ||
      me.rights.sites.length > 0 ||
      me.rights.siteGroups.length > 0 ||
      me.rights.resellers.length > 0,
  },
  {
    section: 'user',
    label: 'Edge servers',
    to: (me) => `/users/${me.id}/edge`,
    visible: () => true,
  },
  {
    section: 'cloud',
    label: 'Organisation',
    to: () => '/admin/organisation',
    visible: (me) =>
      me.rights.admin.length > 0 ||
      me.rights.resellers.length > 0 ||
      me.rights.siteGroups.length > 0 ||
      me.rights.sites.length > 0,
  },
  {
    section: 'cloud',
    label: 'Administrators',
    to: () => '/admin/managers',
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Edge servers',
    to: () => '/admin/edge',
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Diagnostics',
    to: () => DIAGNOSTIC_PAGE_PATH,
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Password rules',
    to: () => '/admin/passwordRules',
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Sign-in lock-outs',
    to: () => '/admin/lockouts',
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Sessions and API tokens',
    to: () => '/admin/sessions',
    visible: (me) => me.rights.admin.length > 0,
  },
  {
    section: 'cloud',
    label: 'Activity',
    to: () => '/admin/activity',
    // Administrators read everything; managers of resellers, site groups, sites and accounts their places.
    visible: (me) =>
      me.rights.admin.length > 0 ||
      me.rights.resellers.length > 0 ||
      me.rights.siteGroups.length > 0 ||
      me.rights.sites.length > 0 ||
      me.rights.accountManager.length > 0,
  },
  {
    section: 'cloud',
    label: 'Webhooks',
    to: () => webhooksPageLink(null),
    visible: (me) => me.rights.admin.length > 0,
  },
];

export const SECTION_LABELS: Record<NavigationItem['section'], string> = { user: 'You', cloud: 'Cloud' };

/**
 * The page of the shell's navigation at `pathname` that `me` may not see (its rule is the one the navigation
 * hides it by), if any: reached by address, it says so instead of offering controls the server refuses.
 */
export const pageNotForRole = (pathname: string, me: Me) =>
  NAVIGATION.find(
    (item) => pathname.replace(/\/$/, '') === item.to(me).replace(/\/$/, '') && !item.visible(me),
  );

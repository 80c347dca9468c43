/**
 * spec3 §5: first path segments that cannot be names (the spec's list), plus the product's own first
 * segments `config`, `assets` and `furniture` (the icon sprites, spec3 §7), which the server serves.
 */
export const RESERVED_FIRST_PATH_SEGMENTS: readonly string[] = [
  'admin',
  'api',
  'login',
  'logout',
  'register',
  'accounts',
  'users',
  'site',
  'sitegroup',
  'edge',
  'invite',
  'accept',
  'reset',
  'create',
  'update',
  'contact',
  'cloud',
  'search',
  'webhook',
  'help',
  'tutorial',
  'diagnostic',
  'mfaenrol',
  'mobile',
  'sms',
  'proxy',
  'jobs',
  'batch',
  'control',
  'cc',
  'config',
  'assets',
  'furniture',
];

const RESERVED = new Set(RESERVED_FIRST_PATH_SEGMENTS);

export const isReservedName = (name: string) => RESERVED.has(name.trim().toLowerCase());

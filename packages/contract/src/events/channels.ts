/**
 * Every live-update channel, named in one place: a collection response names its channel from here and
 * the service that changes it publishes on the same name, so a list and its updates cannot disagree.
 */
export const CHANNELS = {
  roles: 'cloud/roles',
  loginLockouts: 'cloud/loginLockouts',
  passwordRules: 'cloud/passwordRules',
  userNotifications: (userId: number) => `users/${userId}/notifications`,
  resellers: 'cloud/resellers',
  siteGroups: 'cloud/siteGroups',
  sites: 'cloud/sites',
  accounts: 'cloud/accounts',
  users: 'cloud/users',
  account: (accountId: number) => `accounts/${accountId}`,
  userAccess: (accountId: number) => `accounts/${accountId}/userAccess`,
  invites: (accountId: number) => `accounts/${accountId}/invites`,
  sessions: (accountId: number) => `accounts/${accountId}/sessions`,
  accountWorkflows: (accountId: number) => `accounts/${accountId}/workflows`,
  siteRoles: (siteId: number) => `sites/${siteId}/roles`,
  /** Extra data of an account, site or user: the scope is the path segment of its route. */
  extraData: (scope: 'accounts' | 'sites' | 'users', id: number) => `${scope}/${id}/extraData`,
  columns: (scope: 'accounts' | 'sites', id: number) => `${scope}/${id}/columns`,
  uploads: (accountId: number) => `accounts/${accountId}/uploads`,
  ingestFormats: (accountId: number) => `accounts/${accountId}/ingestFormats`,
  keyboardExpansions: (accountId: number) => `accounts/${accountId}/keyboardExpansions`,
  keyShortcuts: 'cloud/keyShortcuts',
  /** spec2 §4: the edge pages subscribe to the collections EdgeServers and EdgeServices. */
  edgeServers: (context: 'cloud' | 'site' | 'user', id?: number) =>
    context === 'cloud' ? 'cloud/admin/EdgeServers' : `${context}s/${id}/EdgeServers`,
  edgeServices: (edgeServerId: number) => `edgeServers/${edgeServerId}/EdgeServices`,
  endpoints: (edgeServerId: number) => `edgeServers/${edgeServerId}/endpoints`,
  /** Endpoints assigned to an account (its arrivals pages list them). */
  accountEndpoints: (accountId: number) => `accounts/${accountId}/endpoints`,
  arrivalsFolders: (accountId: number) => `accounts/${accountId}/arrivalsFolders`,
  publishButtons: (scope: 'sites' | 'accounts', id: number) => `${scope}/${id}/publishButtons`,
  publishIcons: (scope: 'sites' | 'accounts', id: number) => `${scope}/${id}/publishIcons`,
  /** An account's published items: a run's status, progress and log. */
  publishes: (accountId: number) => `accounts/${accountId}/publishes`,
  /** One channel per account's queue, plus one per edge server for queues seen from the edge. */
  accountIngestQueue: (accountId: number) => `accounts/${accountId}/ingestQueue`,
  edgeIngestQueue: (edgeServerId: number) => `edgeServers/${edgeServerId}/ingestQueue`,
  unprocessedFiles: (edgeServerId: number) => `edgeServers/${edgeServerId}/unprocessedFiles`,
  /** The media tree of an account: `modified` names the node ids that changed. */
  nodes: (accountId: number) => `accounts/${accountId}/nodes`,
  /** An account's webhooks (its managers) or the cloud's (administrators), and their deliveries. */
  webhooks: (accountId: number | null) =>
    accountId === null ? 'cloud/admin/webhooks' : `accounts/${accountId}/webhooks`,
  /** Managers of a type; admin managers live on an admin-only cloud channel. */
  managers: (type: string, scopeId?: number) =>
    type === 'admin'
      ? 'cloud/admin/managers'
      : type === 'account'
        ? `accounts/${scopeId}/managers`
        : type === 'site'
          ? `sites/${scopeId}/managers`
          : `cloud/${type}/${scopeId}/managers`,
} as const;

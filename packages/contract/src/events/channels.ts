/**
 * Every live-update channel, named in one place: a collection response names its channel from here and
 * the service that changes it publishes on the same name, so a list and its updates cannot disagree.
 */
export const CHANNELS = {
  roles: 'cloud/roles',
  loginLockouts: 'cloud/loginLockouts',
  passwordRules: 'cloud/passwordRules',
  userNotifications: (userId: number) => `users/${userId}/notifications`,
} as const;

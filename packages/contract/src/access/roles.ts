import { z } from 'zod';

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  isManager: z.boolean(),
});
export type Role = z.infer<typeof roleSchema>;

export const ROLE_ACCOUNT_MANAGER = 'Account Manager';
export const ROLE_EDITOR = 'Editor';
export const ROLE_LOGGER = 'Logger';
export const ROLE_VIEWER = 'Viewer';

/** Created on first start, offered on every site. */
export const DEFAULT_ROLES: { name: string; isManager: boolean; permissions: readonly string[] }[] = [
  {
    name: ROLE_ACCOUNT_MANAGER,
    isManager: true,
    permissions: [
      'canEdit',
      'canLog',
      'canView',
      'canPublish',
      'canUpload',
      'canDelete',
      'canManageAccount',
      'canSearchSiteUsers',
    ],
  },
  {
    name: ROLE_EDITOR,
    isManager: false,
    permissions: ['canEdit', 'canLog', 'canView', 'canPublish', 'canUpload'],
  },
  { name: ROLE_LOGGER, isManager: false, permissions: ['canLog', 'canView'] },
  { name: ROLE_VIEWER, isManager: false, permissions: ['canView'] },
];

import {
  FOLDER_ACCESS,
  FOLDER_ACCESS_LABELS,
  type FolderAccess,
  type FolderPermission,
} from '@media/contract';

/** No entry for the role: the folder inherits what its parents say. */
export const INHERIT = 'inherit';
export type PermissionChoice = FolderAccess | typeof INHERIT;

export const PERMISSION_OPTIONS = [
  { value: INHERIT, label: 'Inherit' },
  ...FOLDER_ACCESS.map((access) => ({ value: access, label: FOLDER_ACCESS_LABELS[access] })),
];

/** One choice per role of the account's site, from the folder's own entries. */
export const permissionChoices = (
  roles: readonly { id: number }[],
  permissions: readonly FolderPermission[],
): Record<number, PermissionChoice> =>
  Object.fromEntries(
    roles.map((role) => [role.id, permissions.find((entry) => entry.roleId === role.id)?.access ?? INHERIT]),
  );

/** The permissions saved: one entry per role that does not inherit, roles in the given order. */
export const permissionsPayload = (
  roles: readonly { id: number }[],
  choices: Readonly<Record<number, PermissionChoice>>,
): FolderPermission[] =>
  roles.flatMap((role) => {
    const choice = choices[role.id] ?? INHERIT;
    return choice === INHERIT ? [] : [{ roleId: role.id, access: choice }];
  });

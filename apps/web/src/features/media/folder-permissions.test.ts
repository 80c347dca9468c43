import { describe, expect, it } from 'vitest';
import { INHERIT, PERMISSION_OPTIONS, permissionChoices, permissionsPayload } from './folder-permissions.ts';

const roles = [{ id: 1 }, { id: 2 }, { id: 3 }];

describe('the folder permissions dialog', () => {
  it("offers 'Inherit' and the folder access labels", () => {
    expect(PERMISSION_OPTIONS.map((option) => option.label)).toEqual([
      'Inherit',
      'Hidden',
      'View only',
      'As the role allows',
    ]);
  });

  it("starts each role at the folder's own entry, else Inherit", () => {
    expect(permissionChoices(roles, [{ roleId: 2, access: 'none' }])).toEqual({
      1: INHERIT,
      2: 'none',
      3: INHERIT,
    });
  });

  it('saves an entry for each role that does not inherit', () => {
    expect(permissionsPayload(roles, { 1: INHERIT, 2: 'none', 3: 'view' })).toEqual([
      { roleId: 2, access: 'none' },
      { roleId: 3, access: 'view' },
    ]);
    expect(permissionsPayload(roles, {})).toEqual([]);
  });
});

import { DEFAULT_ROLES } from '@media/contract';
import { asc, count, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { managerGrants, roles } from './tables.ts';

export const findCloudRolesPage = async (db: DbOrTx, offset: number, limit: number) => {
  const rows = await db
    .select({ id: roles.id, name: roles.name, isManager: roles.isManager })
    .from(roles)
    .where(isNull(roles.siteId))
    .orderBy(asc(roles.name))
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(roles).where(isNull(roles.siteId));
  return { rows, total: total?.n ?? 0 };
};

export const insertMissingDefaultRoles = async (db: DbOrTx) => {
  await db
    .insert(roles)
    .values(DEFAULT_ROLES.map((role) => ({ name: role.name, isManager: role.isManager })))
    .onConflictDoNothing();
};

export const insertManagerGrant = async (
  db: DbOrTx,
  grant: {
    userId: number;
    scope: 'admin' | 'reseller' | 'sitegroup' | 'site';
    scopeId?: number | null;
    roleId?: number | null;
  },
) => {
  await db.insert(managerGrants).values(grant).onConflictDoNothing();
};

import { DEFAULT_ROLES } from '@media/contract';
import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { pageTotal } from '../../platform/db/paging.ts';
import { users } from '../users/tables.ts';
import { accountAccess, managerGrants, roles } from './tables.ts';

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

/** Roles offered on a site: the cloud-wide ones and the site's own, by name. */
export const findSiteRoles = (db: DbOrTx, siteId: number) =>
  db
    .select({ id: roles.id, name: roles.name, isManager: roles.isManager, permissions: roles.permissions })
    .from(roles)
    .where(or(isNull(roles.siteId), eq(roles.siteId, siteId)))
    .orderBy(asc(sql`lower(${roles.name})`));

export const findRole = async (db: DbOrTx, id: number) => {
  const [row] = await db.select().from(roles).where(eq(roles.id, id));
  return row;
};

export const insertMissingDefaultRoles = async (db: DbOrTx) => {
  await db
    .insert(roles)
    .values(
      DEFAULT_ROLES.map((role) => ({
        name: role.name,
        isManager: role.isManager,
        permissions: [...role.permissions],
      })),
    )
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

/**
 * An account's users by user name. Each access row looks its user up by primary key: the LIMIT 1 (one
 * row anyway, by primary key) keeps the lateral subquery from being flattened into a hash join, which
 * reads the whole users table (twice as slow at 50,000 users, measured by bench/lists).
 */
export const findAccountUsersPage = async (db: DbOrTx, accountId: number, offset: number, limit: number) => {
  const user = db
    .select({
      username: users.username,
      fullname: users.fullname,
      email: users.email,
      sortKey: sql<string>`lower(${users.username})`.as('sort_key'),
    })
    .from(users)
    .where(eq(users.id, accountAccess.userId))
    .limit(1)
    .as('account_user');
  const rows = await db
    .select({
      id: accountAccess.userId,
      username: user.username,
      fullname: user.fullname,
      email: user.email,
      roleId: accountAccess.roleId,
      version: accountAccess.version,
      skin: accountAccess.skin,
    })
    .from(accountAccess)
    .innerJoinLateral(user, sql`true`)
    .where(eq(accountAccess.accountId, accountId))
    .orderBy(asc(user.sortKey))
    .offset(offset)
    .limit(limit);
  const total = await pageTotal({ rows: rows.length, offset, limit }, async () => {
    const [all] = await db
      .select({ n: count() })
      .from(accountAccess)
      .where(eq(accountAccess.accountId, accountId));
    return all?.n ?? 0;
  });
  return { rows, total };
};

export const findAccess = async (db: DbOrTx, accountId: number, userIds: number[]) =>
  db
    .select({ userId: accountAccess.userId, roleId: accountAccess.roleId, isManager: roles.isManager })
    .from(accountAccess)
    .innerJoin(roles, eq(roles.id, accountAccess.roleId))
    .where(and(eq(accountAccess.accountId, accountId), inArray(accountAccess.userId, [...userIds, -1])));

export const upsertAccess = (
  db: DbOrTx,
  row: { accountId: number; userId: number; roleId: number; version?: string | null; skin?: string | null },
) =>
  db
    .insert(accountAccess)
    .values(row)
    .onConflictDoUpdate({
      target: [accountAccess.accountId, accountAccess.userId],
      set: {
        roleId: row.roleId,
        ...(row.version !== undefined ? { version: row.version } : {}),
        ...(row.skin !== undefined ? { skin: row.skin } : {}),
      },
    });

export const deleteAccess = (db: DbOrTx, accountId: number, userId: number) =>
  db
    .delete(accountAccess)
    .where(and(eq(accountAccess.accountId, accountId), eq(accountAccess.userId, userId)))
    .returning({ userId: accountAccess.userId });

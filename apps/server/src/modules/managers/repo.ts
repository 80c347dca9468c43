import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accountAccess, managerGrants, roles } from '../access/tables.ts';
import { users } from '../users/tables.ts';

export type GrantScope = 'admin' | 'reseller' | 'sitegroup' | 'site';

const managerColumns = {
  id: users.id,
  username: users.username,
  fullname: users.fullname,
  email: users.email,
  emailverified: sql<'0' | '1'>`case when ${users.emailverified} then '1' else '0' end`,
};

const grantWhere = (
  scope: GrantScope,
  scopeId: number | undefined,
  roleId: number | undefined,
): SQL | undefined =>
  and(
    eq(managerGrants.scope, scope),
    scope === 'admin' ? undefined : eq(managerGrants.scopeId, scopeId ?? -1),
    roleId ? eq(managerGrants.roleId, roleId) : undefined,
  );

export const findGrantManagersPage = async (
  db: DbOrTx,
  options: { scope: GrantScope; scopeId?: number; roleId?: number; offset: number; limit: number },
) => {
  const where = grantWhere(options.scope, options.scopeId, options.roleId);
  const rows = await db
    .select({ ...managerColumns, roleId: managerGrants.roleId, rolename: roles.name })
    .from(managerGrants)
    .innerJoin(users, eq(users.id, managerGrants.userId))
    .leftJoin(roles, eq(roles.id, managerGrants.roleId))
    .where(where)
    .orderBy(asc(sql`lower(${users.username})`))
    .offset(options.offset)
    .limit(options.limit);
  const [total] = await db.select({ n: count() }).from(managerGrants).where(where);
  return { rows, total: total?.n ?? 0 };
};

const accountManagerWhere = (accountId: number, roleId: number | undefined) =>
  and(
    eq(accountAccess.accountId, accountId),
    eq(roles.isManager, true),
    roleId ? eq(roles.id, roleId) : undefined,
  );

export const findAccountManagersPage = async (
  db: DbOrTx,
  options: { accountId: number; roleId?: number; offset: number; limit: number },
) => {
  const where = accountManagerWhere(options.accountId, options.roleId);
  const rows = await db
    .select({ ...managerColumns, roleId: accountAccess.roleId, rolename: roles.name })
    .from(accountAccess)
    .innerJoin(users, eq(users.id, accountAccess.userId))
    .innerJoin(roles, eq(roles.id, accountAccess.roleId))
    .where(where)
    .orderBy(asc(sql`lower(${users.username})`))
    .offset(options.offset)
    .limit(options.limit);
  const [total] = await db
    .select({ n: count() })
    .from(accountAccess)
    .innerJoin(roles, eq(roles.id, accountAccess.roleId))
    .where(where);
  return { rows, total: total?.n ?? 0 };
};

export const findGrant = async (db: DbOrTx, userId: number, scope: GrantScope, scopeId?: number) => {
  const [row] = await db
    .select({ id: managerGrants.id })
    .from(managerGrants)
    .where(and(eq(managerGrants.userId, userId), grantWhere(scope, scopeId, undefined)));
  return row;
};

export const insertGrant = (db: DbOrTx, grant: typeof managerGrants.$inferInsert) =>
  db.insert(managerGrants).values(grant);

export const deleteGrant = (db: DbOrTx, id: number) =>
  db.delete(managerGrants).where(eq(managerGrants.id, id));

export const countAdmins = async (db: DbOrTx) => {
  const [row] = await db.select({ n: count() }).from(managerGrants).where(eq(managerGrants.scope, 'admin'));
  return row?.n ?? 0;
};

export const findAccountAccess = async (db: DbOrTx, accountId: number, userId: number) => {
  const [row] = await db
    .select({ roleId: accountAccess.roleId, isManager: roles.isManager })
    .from(accountAccess)
    .innerJoin(roles, eq(roles.id, accountAccess.roleId))
    .where(and(eq(accountAccess.accountId, accountId), eq(accountAccess.userId, userId)));
  return row;
};

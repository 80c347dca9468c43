import { eq } from 'drizzle-orm';
import { accountAccess, managerGrants, roles } from '../modules/access/tables.ts';
import { accounts, resellers, siteGroups, sites } from '../modules/organisation/tables.ts';
import { users } from '../modules/users/tables.ts';
import { hashPassword } from '../platform/auth/password-hash.ts';
import type { DbOrTx } from '../platform/db/client.ts';

/**
 * Entity factories with overrides, shared by integration tests, e2e tests and the demo seed, so that
 * demo data is always valid data.
 */
let sequence = 0;
const next = () => {
  sequence += 1;
  return `${Date.now().toString(36)}${sequence}`;
};

export const makeReseller = async (db: DbOrTx, overrides: Partial<typeof resellers.$inferInsert> = {}) => {
  const [row] = await db
    .insert(resellers)
    .values({ name: `Reseller ${next()}`, ...overrides })
    .returning();
  if (!row) throw new Error('reseller not created');
  return row;
};

export const makeSiteGroup = async (db: DbOrTx, overrides: Partial<typeof siteGroups.$inferInsert> = {}) => {
  const resellerId = overrides.resellerId ?? (await makeReseller(db)).id;
  const [row] = await db
    .insert(siteGroups)
    .values({ name: `Site group ${next()}`, ...overrides, resellerId })
    .returning();
  if (!row) throw new Error('site group not created');
  return row;
};

export const makeSite = async (db: DbOrTx, overrides: Partial<typeof sites.$inferInsert> = {}) => {
  const siteGroupId = overrides.siteGroupId ?? (await makeSiteGroup(db)).id;
  const [row] = await db
    .insert(sites)
    .values({ name: `Site ${next()}`, ...overrides, siteGroupId })
    .returning();
  if (!row) throw new Error('site not created');
  return row;
};

export const makeAccount = async (db: DbOrTx, overrides: Partial<typeof accounts.$inferInsert> = {}) => {
  const siteId = overrides.siteId ?? (await makeSite(db)).id;
  const [row] = await db
    .insert(accounts)
    .values({ name: `account-${next()}`, ...overrides, siteId })
    .returning();
  if (!row) throw new Error('account not created');
  return row;
};

export const DEFAULT_TEST_PASSWORD = 'Passw0rd!';

export const makeUser = async (
  db: DbOrTx,
  overrides: Partial<typeof users.$inferInsert> & { password?: string | null } = {},
) => {
  const { password = DEFAULT_TEST_PASSWORD, ...rest } = overrides;
  const name = next();
  const [row] = await db
    .insert(users)
    .values({
      username: `user${name}`,
      fullname: `User ${name}`,
      email: `user${name}@example.com`,
      company: 'Example Productions',
      passwordHash: password === null ? null : await hashPassword(password),
      ...rest,
    })
    .returning();
  if (!row) throw new Error('user not created');
  return { ...row, password };
};

export const findRoleByName = async (db: DbOrTx, name: string) => {
  const [role] = await db.select().from(roles).where(eq(roles.name, name));
  if (!role) throw new Error(`role ${name} missing`);
  return role;
};

export const grantAccountAccess = async (db: DbOrTx, userId: number, accountId: number, roleName: string) => {
  const role = await findRoleByName(db, roleName);
  await db.insert(accountAccess).values({ userId, accountId, roleId: role.id });
};

export const grantManagerOf = async (
  db: DbOrTx,
  userId: number,
  scope: 'admin' | 'reseller' | 'sitegroup' | 'site',
  scopeId: number | null = null,
) => {
  await db.insert(managerGrants).values({ userId, scope, scopeId });
};

import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { accountAccess, invites, roles } from '../access/tables.ts';
import { accounts } from '../organisation/tables.ts';
import { users } from '../users/tables.ts';

const inviteColumns = {
  id: invites.id,
  email: invites.email,
  roleId: invites.roleId,
  username: invites.username,
  createdAt: invites.createdAt,
};

export const findInvitesPage = async (db: DbOrTx, accountId: number, offset: number, limit: number) => {
  const rows = await db
    .select(inviteColumns)
    .from(invites)
    .where(eq(invites.accountId, accountId))
    .orderBy(asc(sql`lower(${invites.email})`))
    .offset(offset)
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(invites).where(eq(invites.accountId, accountId));
  return { rows, total: total?.n ?? 0 };
};

export const findInvite = async (db: DbOrTx, accountId: number, inviteId: number) => {
  const [row] = await db
    .select(inviteColumns)
    .from(invites)
    .where(and(eq(invites.accountId, accountId), eq(invites.id, inviteId)));
  return row;
};

/** Lower-cased emails of the account's users, to refuse inviting someone who is already in. */
export const linkedEmails = async (db: DbOrTx, accountId: number, emails: string[]) =>
  new Set(
    (
      await db
        .select({ email: sql<string>`lower(${users.email})` })
        .from(accountAccess)
        .innerJoin(users, eq(users.id, accountAccess.userId))
        .where(
          and(eq(accountAccess.accountId, accountId), inArray(sql`lower(${users.email})`, [...emails, ''])),
        )
    ).map((row) => row.email),
  );

/** A fresh invitation; one already open for the same email is replaced (new link, new role). */
export const replaceInvite = async (db: DbOrTx, values: typeof invites.$inferInsert) => {
  await db
    .delete(invites)
    .where(
      and(
        eq(invites.accountId, values.accountId),
        eq(sql`lower(${invites.email})`, values.email.toLowerCase()),
      ),
    );
  const [row] = await db.insert(invites).values(values).returning({ id: invites.id });
  return row?.id as number;
};

export const updateInviteRole = (db: DbOrTx, inviteId: number, roleId: number) =>
  db.update(invites).set({ roleId }).where(eq(invites.id, inviteId));

export const deleteInvite = (db: DbOrTx, inviteId: number) =>
  db.delete(invites).where(eq(invites.id, inviteId));

/** An invitation by its token's hash, if it has not expired. */
export const findInvitation = async (db: DbOrTx, tokenHash: string) => {
  const [row] = await db
    .select({
      id: invites.id,
      accountId: invites.accountId,
      email: invites.email,
      username: invites.username,
      roleId: invites.roleId,
      roleName: roles.name,
      accountName: accounts.name,
    })
    .from(invites)
    .innerJoin(roles, eq(roles.id, invites.roleId))
    .innerJoin(accounts, eq(accounts.id, invites.accountId))
    .where(and(eq(invites.tokenHash, tokenHash), gt(invites.expiresAt, sql`now()`)));
  return row;
};

export const findUserByEmail = async (db: DbOrTx, email: string) => {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row;
};

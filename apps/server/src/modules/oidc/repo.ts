import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { oidcLogins, userIdentities } from './tables.ts';

export const insertLogin = async (db: DbOrTx, row: typeof oidcLogins.$inferInsert) => {
  await db.insert(oidcLogins).values(row);
};

/** Takes a sign-in under way (once: a second callback with the same state finds nothing). */
export const takeLogin = async (db: DbOrTx, stateHash: string, notBefore: Date) => {
  const [row] = await db.delete(oidcLogins).where(eq(oidcLogins.stateHash, stateHash)).returning();
  return row && row.createdAt >= notBefore ? row : undefined;
};

export const pruneLogins = (db: DbOrTx, before: Date) =>
  db.delete(oidcLogins).where(lt(oidcLogins.createdAt, before));

export const findIdentity = async (db: DbOrTx, issuer: string, subject: string) => {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
  return row;
};

export const insertIdentity = async (
  db: DbOrTx,
  row: { userId: number; issuer: string; subject: string; email: string },
) => {
  await db
    .insert(userIdentities)
    .values({ ...row, lastUsedAt: sql`now()` })
    .onConflictDoNothing();
};

export const touchIdentity = (db: DbOrTx, id: number) =>
  db.update(userIdentities).set({ lastUsedAt: sql`now()` }).where(eq(userIdentities.id, id));

export const listIdentities = (db: DbOrTx, userId: number) =>
  db.select().from(userIdentities).where(eq(userIdentities.userId, userId)).orderBy(asc(userIdentities.id));

export const deleteIdentity = async (db: DbOrTx, userId: number, id: number) => {
  const removed = await db
    .delete(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.id, id)))
    .returning({ id: userIdentities.id });
  return removed.length > 0;
};

import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/tables.ts';
import { mfaRecoveryCodes } from './tables.ts';

export const findMfaState = async (db: DbOrTx, userId: number) => {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      mfaSecret: users.mfaSecret,
      mfaPendingSecret: users.mfaPendingSecret,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
};

export const setPendingSecret = (db: DbOrTx, userId: number, secret: string | null) =>
  db.update(users).set({ mfaPendingSecret: secret }).where(eq(users.id, userId));

export const setSecret = (
  db: DbOrTx,
  userId: number,
  secret: string | null,
  lastTimeStep: number | null = null,
) =>
  db
    .update(users)
    .set({ mfaSecret: secret, mfaPendingSecret: null, mfaLastTimeStep: lastTimeStep })
    .where(eq(users.id, userId));

export const findLastTimeStep = async (db: DbOrTx, userId: number) => {
  const [row] = await db.select({ step: users.mfaLastTimeStep }).from(users).where(eq(users.id, userId));
  return row?.step ?? null;
};

/**
 * Records the time step of an accepted code, only if it is later than the last one: false means another
 * request used this step (or a later one) first, so the code is a replay.
 */
export const advanceLastTimeStep = async (db: DbOrTx, userId: number, step: number) =>
  (
    await db
      .update(users)
      .set({ mfaLastTimeStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.mfaLastTimeStep), lt(users.mfaLastTimeStep, step))))
      .returning({ id: users.id })
  ).length > 0;

export const replaceRecoveryCodes = async (db: DbOrTx, userId: number, codeHashes: string[]) => {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  if (codeHashes.length > 0)
    await db.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
};

export const countUnusedRecoveryCodes = async (db: DbOrTx, userId: number) => {
  const [row] = await db
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return row?.n ?? 0;
};

/** Marks a recovery code used; true only the first time, so each code works once. */
export const useRecoveryCode = async (db: DbOrTx, userId: number, codeHash: string) => {
  const used = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return used.length > 0;
};

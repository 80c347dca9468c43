import {
  DEFAULT_PASSWORD_RULES,
  PASSWORD_RULE_NAMES,
  type PasswordRuleName,
  type PasswordRules,
} from '@media/contract';
import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/tables.ts';
import { passwordRules, passwordTokens } from './tables.ts';

export const findRules = async (db: DbOrTx): Promise<PasswordRules> => {
  const rows = await db.select().from(passwordRules);
  const rules: PasswordRules = structuredClone(DEFAULT_PASSWORD_RULES);
  for (const row of rows) {
    if ((PASSWORD_RULE_NAMES as readonly string[]).includes(row.rule)) {
      rules[row.rule as PasswordRuleName] = { enabled: row.enabled, value: row.value };
    }
  }
  return rules;
};

export const upsertRules = async (db: DbOrTx, rules: Partial<PasswordRules>) => {
  for (const [rule, setting] of Object.entries(rules)) {
    if (!setting) continue;
    await db
      .insert(passwordRules)
      .values({ rule, enabled: setting.enabled, value: setting.value })
      .onConflictDoUpdate({
        target: passwordRules.rule,
        set: { enabled: setting.enabled, value: setting.value },
      });
  }
};

/** Writes the default rules that are missing; leaves an administrator's choices alone. */
export const insertMissingDefaultRules = async (db: DbOrTx) => {
  await db
    .insert(passwordRules)
    .values(
      Object.entries(DEFAULT_PASSWORD_RULES).map(([rule, s]) => ({
        rule,
        enabled: s.enabled,
        value: s.value,
      })),
    )
    .onConflictDoNothing();
};

export const findUserForPassword = async (db: DbOrTx, userId: number) => {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      disabled: users.disabled,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
};

export const findUserByLogin = async (db: DbOrTx, login: string) => {
  const name = login.trim().toLowerCase();
  if (name === '') return undefined;
  const found = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      fullname: users.fullname,
      disabled: users.disabled,
    })
    .from(users)
    .where(
      or(
        eq(sql`lower(${users.username})`, name),
        and(ne(users.email, ''), eq(sql`lower(${users.email})`, name)),
      ),
    )
    .limit(2);
  // An identifier of two users (one's user name, another's email: made before they were kept apart)
  // names nobody: a sign-in or a password reset by it must reach neither.
  return found.length === 1 ? found[0] : undefined;
};

export const updatePasswordHash = (db: DbOrTx, userId: number, passwordHash: string, verifyEmail: boolean) =>
  db
    .update(users)
    .set({ passwordHash, passwordChangedAt: new Date(), ...(verifyEmail ? { emailverified: true } : {}) })
    .where(eq(users.id, userId));

export const insertToken = (
  db: DbOrTx,
  token: { tokenHash: string; userId: number; resetType: 'just_reset' | 'registration'; expiresAt: Date },
) => db.insert(passwordTokens).values(token);

/** Spends a token; answers the row only when it was valid, unused and unexpired. */
export const consumeToken = async (db: DbOrTx, tokenHash: string, userId: number, resetType: string) => {
  const [row] = await db
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        eq(passwordTokens.userId, userId),
        eq(passwordTokens.resetType, resetType as 'just_reset' | 'registration'),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordTokens.userId });
  return row;
};

/** Spends every unused token of a user, so that no older link still works once the password changed. */
export const spendAllTokens = (db: DbOrTx, userId: number) =>
  db
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));

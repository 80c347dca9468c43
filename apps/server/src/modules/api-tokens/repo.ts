import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../users/tables.ts';
import { apiTokens } from './tables.ts';

const listed = {
  id: apiTokens.id,
  name: apiTokens.name,
  scope: apiTokens.scope,
  prefix: apiTokens.prefix,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  lastUsedAt: apiTokens.lastUsedAt,
};

/** A user's tokens not revoked, newest first. */
export const listOf = (db: DbOrTx, userId: number) =>
  db
    .select(listed)
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.trashedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));

export const insert = async (
  db: DbOrTx,
  values: {
    userId: number;
    tokenHash: string;
    prefix: string;
    name: string;
    scope: 'read' | 'write';
    expiresAt: Date | null;
  },
) => {
  const [row] = await db.insert(apiTokens).values(values).returning(listed);
  if (!row) throw new Error('The API token was not stored');
  return row;
};

/** Revokes one of the user's tokens; answers whether there was one to revoke. */
export const trash = async (db: DbOrTx, userId: number, id: number) => {
  const rows = await db
    .update(apiTokens)
    .set({ trashedAt: new Date() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.trashedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
};

/** What a bearer request needs of its token and its user, by the token's hash. */
export const findByHash = async (db: DbOrTx, tokenHash: string) => {
  const [row] = await db
    .select({
      id: apiTokens.id,
      userId: apiTokens.userId,
      scope: apiTokens.scope,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      trashedAt: apiTokens.trashedAt,
      username: users.username,
      disabled: users.disabled,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
};

/** Notes a use, unless one was noted in the last minute (by this instance or another). */
export const touch = (db: DbOrTx, id: number, now: Date, everyMs: number) =>
  db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiTokens.id, id),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - everyMs))),
      ),
    );

import {
  API_TOKEN_PREFIX,
  API_TOKEN_SHOWN_LENGTH,
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenScope,
  ERROR_CODES,
  MSG_API_TOKEN_BY_TOKEN,
  MSG_API_TOKEN_EXPIRY_PAST,
  MSG_API_TOKEN_NOT_FOUND,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import { requireRecentSignIn } from '../../platform/auth/reauth.ts';
import type { Config } from '../../platform/config.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { requireRight } from '../access/service.ts';
import { findUser } from '../users/repo.ts';
import * as repo from './repo.ts';

/** A use is noted at most this often per token. */
export const API_TOKEN_TOUCH_MS = 60_000;

type Row = Awaited<ReturnType<typeof repo.listOf>>[number];
const presented = (row: Row): ApiToken => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const tokenNotFound = () => new AppError(ERROR_CODES.notFound, MSG_API_TOKEN_NOT_FOUND);

/**
 * A token never makes or revokes tokens (one leaked write token could otherwise outlive its revocation), and
 * a person does it with a recent sign-in (ASVS 7.5.1).
 */
const requireSignedInPerson = (actor: Actor, config: ReauthConfig) => {
  if (actor.apiToken) throw forbidden(MSG_API_TOKEN_BY_TOKEN);
  requireRecentSignIn(actor, config);
};
type ReauthConfig = Pick<Config, 'reauthWindowSeconds'>;

/** GET /api/me/apiTokens: the signed-in user's tokens. */
export const listOwn = async (db: Db, actor: Actor) => (await repo.listOf(db, actor.userId)).map(presented);

/** POST /api/me/apiTokens: a new token of the signed-in user, answered with the token this once. */
export const create = async (db: Db, config: ReauthConfig, actor: Actor, input: ApiTokenCreate) => {
  requireSignedInPerson(actor, config);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now())
    throw badRequest(MSG_API_TOKEN_EXPIRY_PAST, { expiresAt: MSG_API_TOKEN_EXPIRY_PAST });
  const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
  const row = await repo.insert(db, {
    userId: actor.userId,
    tokenHash: sha256(token),
    prefix: token.slice(0, API_TOKEN_SHOWN_LENGTH),
    name: input.name,
    scope: input.scope,
    expiresAt,
  });
  return { ...presented(row), token };
};

/** POST /api/me/apiTokens/{id}/trash: revokes one of the signed-in user's tokens. */
export const trashOwn = async (db: Db, config: ReauthConfig, actor: Actor, id: number) => {
  requireSignedInPerson(actor, config);
  if (!(await repo.trash(db, actor.userId, id))) throw tokenNotFound();
};

/** An administrator's view of another user's tokens (the user must exist). */
const requireAdministratorOver = async (db: Db, actor: Actor, userId: number) => {
  await requireRight(db, actor, 'cloud.admin');
  if (!(await findUser(db, userId))) throw notFound('User');
};

/** GET /api/users/{id}/apiTokens: administrators only. */
export const listOfUser = async (db: Db, actor: Actor, userId: number) => {
  await requireAdministratorOver(db, actor, userId);
  return (await repo.listOf(db, userId)).map(presented);
};

/** POST /api/users/{id}/apiTokens/{tokenId}/trash: administrators only. */
export const trashOfUser = async (db: Db, actor: Actor, userId: number, id: number) => {
  // Revoking someone else's token protects them: no fresh sign-in asked, but never with a token.
  if (actor.apiToken) throw forbidden(MSG_API_TOKEN_BY_TOKEN);
  await requireAdministratorOver(db, actor, userId);
  if (!(await repo.trash(db, userId, id))) throw tokenNotFound();
};

export type ResolvedToken =
  | { ok: true; id: number; tokenHash: string; userId: number; username: string; scope: ApiTokenScope }
  | { ok: false };

/**
 * The token of a bearer request, read on every request (a revoked token, a disabled user stop at the next
 * request on every instance); its use is noted at most once a minute, off the request's path.
 */
export const resolveBearer = async (
  db: Db,
  token: string,
  onTouchError: (error: unknown) => void,
): Promise<ResolvedToken> => {
  if (!token.startsWith(API_TOKEN_PREFIX)) return { ok: false };
  const tokenHash = sha256(token);
  const row = await repo.findByHash(db, tokenHash);
  const now = new Date();
  if (!row || row.trashedAt || row.disabled || (row.expiresAt && row.expiresAt <= now)) return { ok: false };
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= API_TOKEN_TOUCH_MS)
    repo.touch(db, row.id, now, API_TOKEN_TOUCH_MS).catch(onTouchError);
  return { ok: true, id: row.id, tokenHash, userId: row.userId, username: row.username, scope: row.scope };
};

import { ERROR_CODES, MSG_REAUTH_BY_TOKEN, MSG_REAUTH_REQUIRED } from '@media/contract';
import type { Config } from '../config.ts';
import { AppError, forbidden } from '../errors.ts';
import type { Actor } from './actor.ts';

/**
 * A sensitive change (one's e-mail, second factor, API tokens, sessions) needs a sign-in from the last
 * `reauthWindowSeconds` (ASVS 5.0 7.5.1): else 401 `reauth`, and the page asks for the password
 * (POST /api/me/reauth) and sends the change again. An API token never makes such a change.
 */
export const requireRecentSignIn = (actor: Actor, config: Pick<Config, 'reauthWindowSeconds'>) => {
  if (actor.authenticatedAt === undefined) throw forbidden(MSG_REAUTH_BY_TOKEN);
  if (Date.now() - actor.authenticatedAt > config.reauthWindowSeconds * 1000)
    throw new AppError(ERROR_CODES.reauth, MSG_REAUTH_REQUIRED);
};

import {
  CHANNELS,
  failedRules,
  MSG_CURRENT_PASSWORD_WRONG,
  MSG_LOGIN_LOCKED,
  MSG_PASSWORD_CHANGED_AS_REQUESTED,
  MSG_PASSWORD_RESET_SENT,
  MSG_PASSWORD_RULES_FAILED,
  MSG_PASSWORD_UPDATED,
  MSG_RESET_TOKEN_INVALID,
  PASSWORD_RESET_TOKEN_MINUTES,
  type PasswordRules,
  REGISTRATION_TOKEN_DAYS,
  type ResetType,
  type SetPasswordRequest,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/password-hash.ts';
import type { SessionStore } from '../../platform/auth/sessions.ts';
import type { AppContext } from '../../platform/context.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound, unauthenticated } from '../../platform/errors.ts';
import type { Publish } from '../../platform/live/publish.ts';
import { requireRight } from '../access/service.ts';
import { checkPasswordAttempt } from '../auth/service.ts';
import * as repo from './repo.ts';

export const getRules = (options: { db: Db }) => repo.findRules(options.db);

export const updateRules = async (options: {
  db: Db;
  publish: Publish;
  actor: Actor;
  rules: Partial<PasswordRules>;
}) => {
  await requireRight(options.db, options.actor, 'cloud.admin');
  await options.db.transaction((tx) => repo.upsertRules(tx, options.rules));
  await options.publish(CHANNELS.passwordRules, Object.keys(options.rules));
  return repo.findRules(options.db);
};

export const enforceRules = async (db: Db, password: string, username: string) => {
  const failed = failedRules(password, username, await repo.findRules(db));
  if (failed.length > 0) {
    throw badRequest(`${MSG_PASSWORD_RULES_FAILED}: ${failed.map((f) => f.message).join(', ')}`, {
      newPassword: failed.map((f) => f.message).join(', '),
    });
  }
};

export const setPassword = async (options: {
  db: Db;
  publish: Publish;
  ip: string;
  sessions: SessionStore;
  actor: Actor | null;
  unauthenticatedMessage?: string;
  userId: number;
  request: SetPasswordRequest;
}) => {
  const { db, request, userId } = options;
  if ('currentPassword' in request) {
    if (!options.actor) throw unauthenticated(options.unauthenticatedMessage);
    // Only one's own password, refused before any lookup: the answer never tells that an id exists.
    if (options.actor.userId !== userId) throw forbidden();
    const user = await repo.findUserForPassword(db, userId);
    if (!user) throw notFound('User');
    // Counted like a sign-in of this user from this address, locked out alike.
    const attempt = await checkPasswordAttempt({
      db,
      publish: options.publish,
      username: user.username,
      ip: options.ip,
      check: () => verifyPassword(user.passwordHash, request.currentPassword),
    });
    if (attempt === 'locked') throw badRequest(MSG_LOGIN_LOCKED, undefined, 'locked');
    if (attempt === 'wrong')
      throw badRequest(MSG_CURRENT_PASSWORD_WRONG, { currentPassword: MSG_CURRENT_PASSWORD_WRONG });
    await enforceRules(db, request.newPassword, user.username);
    const passwordHash = await hashPassword(request.newPassword);
    const keep = options.actor.sessionIdHash;
    await db.transaction(async (tx) => {
      await repo.updatePasswordHash(tx, userId, passwordHash, false);
      await repo.spendAllTokens(tx, userId);
      await options.sessions.endOthers(tx, userId, keep);
    });
    // The current password proved who is there: it counts as a fresh sign-in (ASVS 7.5.1), as /me/reauth does.
    if (!options.actor.apiToken) await options.sessions.reauthenticated(keep);
    return { message: MSG_PASSWORD_UPDATED };
  }
  const user = await repo.findUserForPassword(db, userId);
  if (!user) throw notFound('User');
  await enforceRules(db, request.newPassword, user.username);
  const passwordHash = await hashPassword(request.newPassword);
  await db.transaction(async (tx) => {
    const token = await repo.consumeToken(tx, sha256(request.resetToken), userId, request.resetType);
    if (!token) throw badRequest(MSG_RESET_TOKEN_INVALID, { resetToken: MSG_RESET_TOKEN_INVALID });
    await repo.updatePasswordHash(tx, userId, passwordHash, true);
    await repo.spendAllTokens(tx, userId);
    await options.sessions.endOthers(tx, userId);
  });
  return { message: MSG_PASSWORD_CHANGED_AS_REQUESTED };
};

/** The Change password page in reset or registration mode, with its token. */
export const passwordLink = (publicUrl: string, userId: number, token: string, resetType: ResetType) =>
  `${publicUrl}/users/user_settings/${userId}/?${new URLSearchParams({ resetToken: token, resetType }).toString()}`;

/** A single-use token; other areas call this for registration mails (invites, imported users). */
export const createPasswordToken = async (db: DbOrTx, userId: number, resetType: ResetType) => {
  const token = randomToken(32);
  const lifetimeMs =
    resetType === 'registration'
      ? REGISTRATION_TOKEN_DAYS * 86_400_000
      : PASSWORD_RESET_TOKEN_MINUTES * 60_000;
  await repo.insertToken(db, {
    tokenHash: sha256(token),
    userId,
    resetType,
    expiresAt: new Date(Date.now() + lifetimeMs),
  });
  return token;
};

/** Always answers the same, and mails in the background, so it reveals neither existence nor timing. */
export const requestPasswordReset = async (options: { ctx: AppContext; login: string }) => {
  const { ctx } = options;
  const send = async () => {
    const user = await repo.findUserByLogin(ctx.db, options.login);
    if (!user || user.disabled || !user.email) return;
    const email = user.email;
    // The token and its mail commit together: no token without its mail, no mail without its token.
    await ctx.db.transaction(async (tx) => {
      const token = await createPasswordToken(tx, user.id, 'just_reset');
      const link = passwordLink(ctx.config.publicUrl, user.id, token, 'just_reset');
      await ctx.mail.enqueue(tx, [
        {
          to: email,
          subject: 'Reset your password',
          text: [
            `Hello ${user.fullname || user.username},`,
            '',
            'Someone asked to reset the password of your Media Cloud user. To choose a new password, open:',
            link,
            '',
            `The link works once and expires in ${PASSWORD_RESET_TOKEN_MINUTES} minutes. If you did not ask for this, ignore this mail.`,
          ].join('\n'),
        },
      ]);
    });
  };
  send().catch((error: unknown) => ctx.log.error({ err: error }, 'password reset mail failed'));
  return { message: MSG_PASSWORD_RESET_SENT };
};

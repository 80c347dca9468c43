import { randomBytes } from 'node:crypto';
import {
  MFA_ISSUER,
  MFA_RECOVERY_CODE_COUNT,
  MSG_MFA_ALREADY_ENABLED,
  MSG_MFA_CODE_INVALID,
  MSG_MFA_NOT_ENABLED,
  MSG_MFA_NOT_PENDING,
  MSG_MFA_RESET_NOTIFICATION,
} from '@media/contract';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Actor } from '../../platform/auth/actor.ts';
import { requireRecentSignIn } from '../../platform/auth/reauth.ts';
import type { Config } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { sha256 } from '../../platform/crypto.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { requireRight } from '../access/service.ts';
import { notifyUser } from '../notifications/service.ts';
import * as repo from './repo.ts';

/** One step either side, for clocks that drift a little. */
const EPOCH_TOLERANCE_SECONDS = 30;

const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

const newRecoveryCode = () => {
  const raw = randomBytes(5).toString('hex');
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
};

/** The time step a TOTP code belongs to, when it is valid and later than `afterTimeStep`. */
const totpTimeStep = async (secret: string, code: string, afterTimeStep: number | null) => {
  // Authenticator apps show "123 456"; people type it so.
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  try {
    const outcome = await verify({
      secret,
      token,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      ...(afterTimeStep !== null ? { afterTimeStep } : {}),
    });
    return outcome.valid && 'timeStep' in outcome ? outcome.timeStep : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A TOTP code of the enrolled secret that was not used before (each time step is accepted once, so a
 * code seen over someone's shoulder cannot be replayed), or an unused recovery code (then spent).
 */
export const verifySecondFactor = async (
  db: DbOrTx,
  user: { id: number; mfaSecret: string },
  code: string,
) => {
  const trimmed = code.trim();
  const step = await totpTimeStep(user.mfaSecret, trimmed, await repo.findLastTimeStep(db, user.id));
  if (step !== undefined) return repo.advanceLastTimeStep(db, user.id, step);
  return repo.useRecoveryCode(db, user.id, sha256(normaliseRecoveryCode(trimmed)));
};

/** Whose second factor changes, and how recent the change's sign-in must be. */
type SelfChange = { db: Db; config: Pick<Config, 'reauthWindowSeconds'>; actor: Actor; userId: number };

/**
 * Rights first, then existence, so that another user's id answers 403 whether it exists or not; a change of
 * one's own second factor needs a recent sign-in (ASVS 7.5.1).
 */
const requireSelf = async ({ db, config, actor, userId }: SelfChange) => {
  if (actor.userId !== userId) throw forbidden();
  requireRecentSignIn(actor, config);
  const state = await repo.findMfaState(db, userId);
  if (!state) throw notFound('User');
  return state;
};

export const getStatus = async (options: { db: Db; actor: Actor; userId: number }) => {
  // Another user's second factor: administrators only (they manage everyone, DESIGN.md Rights).
  if (options.actor.userId !== options.userId) await requireRight(options.db, options.actor, 'cloud.admin');
  const state = await repo.findMfaState(options.db, options.userId);
  if (!state) throw notFound('User');
  return {
    enabled: state.mfaSecret != null,
    pending: state.mfaPendingSecret != null,
    recoveryCodesLeft: await repo.countUnusedRecoveryCodes(options.db, options.userId),
  };
};

export const startEnrolment = async (options: SelfChange) => {
  const state = await requireSelf(options);
  if (state.mfaSecret) throw badRequest(MSG_MFA_ALREADY_ENABLED);
  const secret = generateSecret();
  await repo.setPendingSecret(options.db, options.userId, secret);
  const otpauthUri = generateURI({ issuer: MFA_ISSUER, label: state.username, secret });
  return { secret, otpauthUri, qrCode: await QRCode.toDataURL(otpauthUri) };
};

export const confirmEnrolment = async (options: SelfChange & { code: string }) => {
  const state = await requireSelf(options);
  if (state.mfaSecret) throw badRequest(MSG_MFA_ALREADY_ENABLED);
  if (!state.mfaPendingSecret) throw badRequest(MSG_MFA_NOT_PENDING);
  const step = await totpTimeStep(state.mfaPendingSecret, options.code, null);
  if (step === undefined) throw badRequest(MSG_MFA_CODE_INVALID, { code: MSG_MFA_CODE_INVALID });
  const recoveryCodes = Array.from({ length: MFA_RECOVERY_CODE_COUNT }, newRecoveryCode);
  const pending = state.mfaPendingSecret;
  await options.db.transaction(async (tx) => {
    // The confirming code's step is spent too: it cannot then sign in.
    await repo.setSecret(tx, options.userId, pending, step);
    await repo.replaceRecoveryCodes(
      tx,
      options.userId,
      recoveryCodes.map((c) => sha256(normaliseRecoveryCode(c))),
    );
  });
  return { recoveryCodes };
};

export const disable = async (options: SelfChange & { code: string }) => {
  const state = await requireSelf(options);
  if (!state.mfaSecret) throw badRequest(MSG_MFA_NOT_ENABLED);
  const secret = state.mfaSecret;
  await options.db.transaction(async (tx) => {
    if (!(await verifySecondFactor(tx, { id: options.userId, mfaSecret: secret }, options.code))) {
      throw badRequest(MSG_MFA_CODE_INVALID, { code: MSG_MFA_CODE_INVALID });
    }
    await repo.setSecret(tx, options.userId, null);
    await repo.replaceRecoveryCodes(tx, options.userId, []);
  });
};

/** An administrator removes a user's second factor, e.g. after a lost phone. */
export const reset = async (options: { ctx: AppContext; db: Db; actor: Actor; userId: number }) => {
  await requireRight(options.db, options.actor, 'cloud.admin');
  const state = await repo.findMfaState(options.db, options.userId);
  if (!state) throw notFound('User');
  await options.db.transaction(async (tx) => {
    await repo.setSecret(tx, options.userId, null);
    await repo.replaceRecoveryCodes(tx, options.userId, []);
  });
  await notifyUser(options.ctx, options.userId, {
    type: 'warning',
    message: MSG_MFA_RESET_NOTIFICATION,
    link: `/users/user_settings/${options.userId}/#second-factor`,
  });
};

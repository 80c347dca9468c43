import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';

/** Issuer shown in authenticator apps. */
export const MFA_ISSUER = 'Media Cloud';
export const MFA_RECOVERY_CODE_COUNT = 10;

export const mfaStatusResponseSchema = resultsOf(
  z.object({
    enabled: z.boolean(),
    pending: z.boolean().describe('An enrolment was started and waits for its first code'),
    recoveryCodesLeft: z.number().int(),
  }),
);

export const mfaEnrolResponseSchema = resultsOf(
  z.object({
    secret: z.string().describe('Base32 secret, for typing into an authenticator app'),
    otpauthUri: z.string().describe('otpauth:// URI'),
    qrCode: z.string().describe('The URI as a QR code, a data: URL of a PNG image'),
  }),
);

export const mfaCodeRequestSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe('A code from the authenticator app (or, to disable, a recovery code)'),
});

export const mfaConfirmResponseSchema = resultsOf(
  z.object({
    recoveryCodes: z.array(z.string()).describe('Shown once; each signs in once in place of a code'),
  }),
);

export const MSG_MFA_CODE_INVALID = 'The verification code is not valid';
export const MSG_MFA_NOT_PENDING = 'Start the enrolment first';
export const MSG_MFA_ALREADY_ENABLED = 'Two-factor authentication is already enabled';
export const MSG_MFA_NOT_ENABLED = 'Two-factor authentication is not enabled';
export const MSG_MFA_RESET_NOTIFICATION =
  'Your second factor was reset by an administrator. Set it up again from your user settings.';

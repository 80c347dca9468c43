import { z } from 'zod';

export const RESET_TYPES = ['just_reset', 'registration'] as const;
export type ResetType = (typeof RESET_TYPES)[number];

export const MSG_SET_PASSWORD_BODY = `Send {currentPassword, newPassword} or {resetToken, resetType, newPassword}, with resetType one of ${RESET_TYPES.join(', ')}`;

export const setPasswordRequestSchema = z.union(
  [
    z.strictObject({
      currentPassword: z.string().min(1).max(1000),
      newPassword: z.string().max(1000),
    }),
    z.strictObject({
      resetToken: z.string().min(1).max(200),
      resetType: z.enum(RESET_TYPES),
      newPassword: z.string().max(1000),
    }),
  ],
  { error: MSG_SET_PASSWORD_BODY },
);
export type SetPasswordRequest = z.infer<typeof setPasswordRequestSchema>;

export const passwordResetRequestSchema = z.strictObject({
  username: z.string().min(1).max(200).describe('User name or email address'),
});

/** How long a reset link stays valid. */
export const PASSWORD_RESET_TOKEN_MINUTES = 60;
/** How long a registration (Set Password) link stays valid. */
export const REGISTRATION_TOKEN_DAYS = 7;

export const MSG_PASSWORD_UPDATED = 'Password updated successfully';
export const MSG_PASSWORD_CHANGED_AS_REQUESTED = 'Your password has been changed as requested';
export const MSG_CURRENT_PASSWORD_WRONG = 'The current password is not correct';
export const MSG_RESET_TOKEN_INVALID = 'This link is not valid or has expired';
export const MSG_PASSWORD_RULES_FAILED = 'The new password does not meet the password rules';
export const MSG_PASSWORD_RESET_SENT =
  'If an account matches, we have sent an email with a link to reset the password';
export const MSG_FIELD_REQUIRED_EMPTY = 'This field cannot be empty';
export const MSG_PASSWORD_MISMATCH = 'This password does not match';

export const messageResponseSchema = z.object({ results: z.object({ message: z.string() }) });

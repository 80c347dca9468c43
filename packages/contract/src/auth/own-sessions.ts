import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';

/**
 * Sessions to ASVS 5.0 V7 level 2 (issue 32, DESIGN.md "Identity, tokens and the way out"): a user sees
 * and ends their own sessions; administrators end one user's or everyone's; a change of e-mail, password,
 * second factor, API tokens or linked identities needs a sign-in from the last REAUTH_WINDOW_MINUTES.
 */
export const ownSessionSchema = z.object({
  id: z.string().describe('The session’s public id (not its secret)'),
  device: z.string().describe('Browser and system, read from the user agent it signed in with'),
  ip: z.string().describe('The address it signed in from'),
  startedAt: z.string(),
  lastSeenAt: z.string().describe('Kept to the minute'),
  current: z.boolean().describe('The session this request came with'),
});
export type OwnSession = z.infer<typeof ownSessionSchema>;
/** The signed-in user's live sessions, the current first, then the most recently seen (a handful: not paged). */
export const ownSessionListSchema = resultsOf(z.array(ownSessionSchema));

export const ownSessionParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const sessionsEndedSchema = resultsOf(
  z.object({ ended: z.number().int().describe('How many sessions were ended') }),
);

export const reauthRequestSchema = z
  .strictObject({
    password: z.string().min(1).max(1000),
    mfaCode: z
      .string()
      .max(64)
      .optional()
      .describe('TOTP code or a recovery code, when the user has a second factor'),
  })
  .describe('Sign in again within the session, before a sensitive change');
export type ReauthRequest = z.infer<typeof reauthRequestSchema>;
export const reauthResponseSchema = resultsOf(z.object({ authenticatedAt: z.string() }));

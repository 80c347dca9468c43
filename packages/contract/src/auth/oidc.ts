import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';

/**
 * Sign-in with the company's identity provider (OpenID Connect, issue 32 item 1; DESIGN.md "Identity,
 * tokens and the way out"). A person is linked to a user by (issuer, subject) only, never by e-mail.
 */
export const OIDC_BUTTON_TEXT_DEFAULT = 'Sign in with SSO';
/** What the product asks the provider for. */
export const OIDC_SCOPES = 'openid email profile';
/** How long a sign-in may stay at the provider before its state is forgotten. */
export const OIDC_LOGIN_TTL_MINUTES = 10;

/** A local path to come back to: one leading slash, never `//host` nor a backslash (an open redirect). */
export const isLocalReturnPath = (path: string) =>
  path.startsWith('/') &&
  !path.startsWith('//') &&
  !path.includes('\\') &&
  [...path].every((character) => character.charCodeAt(0) >= 0x20);

export const oidcLoginQuerySchema = z.object({
  returnTo: z
    .string()
    .max(2000)
    .refine(isLocalReturnPath, 'returnTo must be a path of this site')
    .optional()
    .describe('Where to go after signing in: a path of this site'),
  invite: z.string().min(16).max(200).optional().describe('An invitation accepted through the provider'),
  prompt: z.enum(['login']).optional().describe('login: the provider asks for the password again'),
});
export const oidcCallbackQuerySchema = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  session_state: z.string().max(2000).optional(),
});

/** Why a sign-in through the provider ended on the sign-in page: `/login?oidcError=<code>`. */
export const OIDC_ERRORS = {
  unknown: 'Your sign-in is not linked to a user here. Please ask an administrator for an invitation.',
  disabled: 'Your user is disabled. Please ask an administrator.',
  failed: 'Signing in through your identity provider did not succeed. Please try again.',
  linkedElsewhere: 'This identity is already linked to another user.',
  off: 'Signing in through an identity provider is not set up here.',
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERRORS;

export const linkedIdentitySchema = z.object({
  id: z.number().int(),
  issuer: z.string(),
  subject: z.string(),
  email: z.string().describe('The e-mail the provider gave when it was linked (never used to link)'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type LinkedIdentity = z.infer<typeof linkedIdentitySchema>;
export const linkedIdentityListSchema = resultsOf(z.array(linkedIdentitySchema));
export const oidcRedirectSchema = resultsOf(
  z.object({ url: z.string().describe('Where the browser goes next') }),
);
export const logoutResponseSchema = resultsOf(
  z.object({
    ok: z.literal(true),
    endSessionUrl: z
      .string()
      .optional()
      .describe("The provider's end-session address, when the session came from it and it has one"),
  }),
);

export const MSG_OIDC_OFF = OIDC_ERRORS.off;
export const MSG_OIDC_IDENTITY_NOT_FOUND = 'No such linked sign-in';
export const MSG_PASSWORD_SIGN_IN_OFF =
  'Sign-in with a password is turned off here: please use your identity provider';

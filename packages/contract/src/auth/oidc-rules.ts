// No zod here: the sign-in page imports these, and zod would double its JavaScript.
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

/** Why a sign-in through the provider ended on the sign-in page: `/login?oidcError=<code>`. */
export const OIDC_ERRORS = {
  unknown: 'Your sign-in is not linked to a user here. Please ask an administrator for an invitation.',
  disabled: 'Your user is disabled. Please ask an administrator.',
  failed: 'Signing in through your identity provider did not succeed. Please try again.',
  linkedElsewhere: 'This identity is already linked to another user.',
  off: 'Signing in through an identity provider is not set up here.',
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERRORS;

export const MSG_OIDC_OFF = OIDC_ERRORS.off;
export const MSG_OIDC_IDENTITY_NOT_FOUND = 'No such linked sign-in';
export const MSG_PASSWORD_SIGN_IN_OFF =
  'Sign-in with a password is turned off here: please use your identity provider';
export const MSG_IDENTITY_LAST_WAY_IN =
  'This is your only way to sign in: set a password first (Forgot password on the sign-in page mails you a link), then unlink it';

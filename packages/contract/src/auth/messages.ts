export const MSG_LOGIN_INVALID = 'Invalid username or password';
export const MSG_LOGIN_MFA_REQUIRED = 'Please enter the verification code from your authenticator app';
export const MSG_LOGIN_MFA_INVALID = 'The verification code is not valid';
export const MSG_LOGIN_LOCKED = 'Too many failed sign-in attempts. Please try again later';
export const MSG_NOT_SIGNED_IN = 'You are not signed in';
export const MSG_FORBIDDEN = 'You do not have permission to do this';
export const MSG_CSRF = 'The anti-forgery token is missing or wrong; please reload the page';
export const MSG_RATE_LIMITED = 'Too many requests; please retry later';
export const MSG_API_VERSION = 'Unsupported API version';
export const MSG_GENERIC_ERROR = 'an error has occurred';

/** A sensitive change needs a sign-in this recent (ASVS 5.0 7.5.1; auth/own-sessions.ts). */
export const REAUTH_WINDOW_MINUTES = 5;
export const MSG_REAUTH_REQUIRED = `Please enter your password again: this change needs a sign-in from the last ${REAUTH_WINDOW_MINUTES} minutes`;
export const MSG_REAUTH_BY_TOKEN = 'This change needs a person signed in, not an API token';
export const MSG_SESSION_NOT_FOUND = 'No such session';
export const MSG_SESSION_IS_CURRENT = 'This is the session you are using: sign out to end it';
export const MSG_SESSIONS_ENDED_BY_ADMIN = 'An administrator has ended your session. Please sign in again.';
export const MSG_SESSION_ENDED_BY_USER =
  'You ended this session from another of your sessions. Please sign in again.';

import { OIDC_ERRORS, type OidcErrorCode } from '@media/contract';

/**
 * The product's start of a sign-in at the identity provider (GET /api/oidc/login), for a full-page visit:
 * `returnTo` a path of this site to come back to, `prompt: 'login'` to have the provider ask for the password
 * again, `invite` an invitation's token to accept.
 */
export const oidcLoginUrl = (options: { returnTo?: string; prompt?: 'login'; invite?: string } = {}) => {
  const query = new URLSearchParams();
  if (options.returnTo) query.set('returnTo', options.returnTo);
  if (options.prompt) query.set('prompt', options.prompt);
  if (options.invite) query.set('invite', options.invite);
  const search = query.toString();
  return `/api/oidc/login${search ? `?${search}` : ''}`;
};

/** Why a sign-in or a link through the provider came back (`?oidcError=`), in words; nothing for another value. */
export const oidcErrorText = (code: string | null) =>
  code && Object.hasOwn(OIDC_ERRORS, code) ? OIDC_ERRORS[code as OidcErrorCode] : undefined;

/** This page's address to come back to from the provider, without the `oidcError` it may be showing. */
export const returnPathOf = (location: { pathname: string; search: string; hash: string }) => {
  const query = new URLSearchParams(location.search);
  query.delete('oidcError');
  const search = query.toString();
  return `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
};

/** The provider as a person knows it: its issuer's host (`login.example.com`), or the issuer as it is. */
export const providerName = (issuer: string) => {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
};

/** Where the provider's window of a re-authentication comes back to: it tells this page and closes. */
export const REAUTH_DONE_PATH = '/reauth/done';
/**
 * The channel that window tells this site's pages on (a BroadcastChannel: the provider's pages may cut the
 * window off from its opener, Cross-Origin-Opener-Policy, so `window.opener` cannot be relied on).
 */
export const REAUTH_DONE_CHANNEL = 'media-reauth-done';

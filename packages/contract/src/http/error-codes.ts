/**
 * Error codes shared by server and client; a module of its own, free of zod, because the sign-in page's error
 * texts need it (http/error-text.ts) and must not load the schemas.
 */
export const ERROR_CODES = {
  validation: 'validation',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  csrf: 'csrf',
  /** 403: an API token's scope does not allow the request (a read token's write). */
  scope: 'scope',
  /** 401: the change needs a sign-in from the last REAUTH_WINDOW_MINUTES (POST /api/me/reauth, then again). */
  reauth: 'reauth',
  apiVersion: 'apiversion',
  rateLimited: 'rate_limited',
  tooLarge: 'too_large',
  unsupportedMediaType: 'unsupported_media_type',
  internal: 'internal',
  /** 503: the database connection was lost mid-request; the request may be repeated. */
  unavailable: 'unavailable',
} as const;

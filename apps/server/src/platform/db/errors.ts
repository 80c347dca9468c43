/** Whether a database error is a unique-index violation (both drivers put the SQLSTATE on `code` or its cause). */
export const isUniqueViolation = (error: unknown) => {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
};

/** The unique index is the last word when two requests race for a name: its violation becomes `conflict()`. */
export const translateUniqueViolation = (error: unknown, conflict: () => Error) =>
  isUniqueViolation(error) ? conflict() : error;

/** SQLSTATEs of a connection the server ended: admin_shutdown, crash_shutdown, cannot_connect_now. */
const CONNECTION_ENDED_STATES = new Set(['57P01', '57P02', '57P03']);
/** Socket errors of a connection that is gone or cannot be made. */
const SOCKET_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** What `pg` says when a connection ended under a query, or a query is sent on a client that lost its own. */
const CONNECTION_LOST_MESSAGE =
  /Connection terminated|is not queryable|timeout exceeded when trying to connect|Connection ended/i;

/**
 * Whether an error means the PostgreSQL connection was lost (the request it carried fails with 503 and may
 * be repeated), as opposed to a fault of the query. Drizzle wraps driver errors, so the causes are read too.
 * Only `pg`'s own errors (no code, no query) are judged by their message: a server's message or a wrapper's
 * may quote user data.
 */
export const isConnectionLost = (error: unknown): boolean => {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause, query } = current as Record<string, unknown>;
    if (typeof code === 'string') {
      if (CONNECTION_ENDED_STATES.has(code) || code.startsWith('08') || SOCKET_ERRORS.has(code)) return true;
    } else if (query === undefined && typeof message === 'string' && CONNECTION_LOST_MESSAGE.test(message)) {
      return true;
    }
    current = cause;
  }
  return false;
};

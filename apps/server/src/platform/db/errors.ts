import {
  MSG_NOTHING_TO_CHANGE,
  MSG_NUL_IN_TEXT,
  MSG_NUMBER_OUT_OF_RANGE,
  MSG_TEXT_TOO_LONG,
  MSG_VALUE_NOT_VALID,
} from '@media/contract';

/**
 * SQLSTATEs of a value its column cannot hold, with the message for the user: input the contract should
 * have refused, so it is a 400 and never a 500 (DESIGN "HTTP conventions").
 */
const REFUSED_VALUE_STATES: Record<string, string> = {
  '22003': MSG_NUMBER_OUT_OF_RANGE, // numeric_value_out_of_range: an id past int4
  '22P02': MSG_VALUE_NOT_VALID, // invalid_text_representation: '1e+20' for an integer
  '22021': MSG_NUL_IN_TEXT, // character_not_in_repertoire: NUL (or bad bytes) in text
  '22P05': MSG_NUL_IN_TEXT, // untranslatable_character: \u0000 in jsonb
  '22001': MSG_TEXT_TOO_LONG, // string_data_right_truncation
};
/** Drizzle's error for an update with an empty set, thrown before any SQL is sent. */
const EMPTY_UPDATE = 'No values to set';

/**
 * Why the database (or Drizzle) refused a value of a request: the SQLSTATE (or 'empty update') and the
 * message for the user; undefined for any other error. Drizzle wraps driver errors, so causes are read too.
 */
export const refusedValue = (error: unknown): { reason: string; message: string } | undefined => {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as Record<string, unknown>;
    if (typeof code === 'string' && Object.hasOwn(REFUSED_VALUE_STATES, code))
      return { reason: code, message: REFUSED_VALUE_STATES[code] as string };
    if (message === EMPTY_UPDATE) return { reason: 'empty update', message: MSG_NOTHING_TO_CHANGE };
    current = cause;
  }
  return undefined;
};

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

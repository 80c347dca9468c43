import { MSG_GENERIC_ERROR } from '../auth/messages.ts';
import { ERROR_CODES } from './error-codes.ts';

/** An answer without the shape the API promises (spec2 §5: no `results`). */
export const MSG_UNEXPECTED_RESPONSE = 'Unexpected response from cloud';

type ErrorLike = { message?: unknown; code?: unknown };

/**
 * The codes every error of a kind carries (not found, forbidden, a conflict, bad input...): the message says
 * it all, and the code is nothing a person can act on, so it is not shown. A code that names what happened
 * (notEnoughPublishData, timedOut) is, as spec2 §8 says: 'message (code)'.
 */
const CODES_OF_A_KIND: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));

const fromParts = (error: ErrorLike) => {
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : undefined;
  const code = typeof error.code === 'string' && error.code !== '' ? error.code : undefined;
  // A client error already reads 'message (code)': its code is not added twice.
  if (message && code && !CODES_OF_A_KIND.has(code) && !message.endsWith(`(${code})`))
    return `${message} (${code})`;
  return message;
};

/**
 * spec2 §8: the server error's message plus its code in brackets (a code that names what happened, see
 * CODES_OF_A_KIND); otherwise the plain message;
 * otherwise a string; otherwise 'an error has occurred'.
 */
export const errorText = (error: unknown): string => {
  if (typeof error === 'string' && error !== '') return error;
  if (error && typeof error === 'object') {
    const body = error as { error?: unknown };
    if (body.error && typeof body.error === 'object') {
      const text = fromParts(body.error as ErrorLike);
      if (text) return text;
    }
    if (typeof body.error === 'string' && body.error !== '') return body.error;
    const text = fromParts(error as ErrorLike);
    if (text) return text;
  }
  return MSG_GENERIC_ERROR;
};

/**
 * spec1 §8: 'An error occurred while {loading|action} {thing}: {message or unknown}'; the activity
 * defaults to 'fetching the data'.
 */
export const errorWhile = (error: unknown, activity = 'fetching the data') => {
  const text = error === undefined || error === null ? 'unknown' : errorText(error);
  return `An error occurred while ${activity}: ${text}`;
};

/** spec1 §8: a failed user search. */
export const MSG_USER_SEARCH_FAILED = 'There was an error fetching users';

import { z } from 'zod';

/**
 * Bounds and texts for input the database cannot hold (DESIGN "HTTP conventions": text containing NUL,
 * an update with nothing to change, or a number outside the column's range is a 400 with a message).
 */

/** The largest PostgreSQL `integer` (int4): every serial id and the other integer columns. */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

const idNumber = z.number().int().positive().max(INT4_MAX);
/**
 * An id, in a body, a path or a query: a serial column, so 1 to INT4_MAX. DESIGN.md "HTTP conventions": a
 * number or a numeric string (digits only: coercing would take `true` for 1 and '' for 0).
 */
export const idSchema = z.union([
  idNumber,
  z
    .string()
    .regex(/^\s*\d{1,10}\s*$/, { error: 'Expected an id' })
    .transform(Number)
    .pipe(idNumber),
]);
/** An id in a path or a query: the same as in a body. */
export const idTextSchema = idSchema;
/** Any other value of an `integer` column. */
export const int4Schema = z.number().int().min(INT4_MIN).max(INT4_MAX);

export const MSG_NUL_IN_TEXT = 'Text must not contain the NUL character';
export const MSG_NOTHING_TO_CHANGE = 'Nothing to change';
export const MSG_NUMBER_OUT_OF_RANGE = 'A number is outside the range the field can hold';
export const MSG_VALUE_NOT_VALID = 'A value is not valid for its field';
export const MSG_TEXT_TOO_LONG = 'A text is longer than the field can hold';

import { MSG_NUL_IN_TEXT } from '@media/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusedValue } from '../db/errors.ts';
import { type AppError, badRequest } from '../errors.ts';

const NUL = '\u0000';

/**
 * Whether `value` is a parsed shape to read: an object or array of a JSON body, a query or the path values
 * (whose prototypes vary by parser), not a raw body stream or buffer.
 */
const isReadable = (value: unknown): value is object =>
  value !== null &&
  typeof value === 'object' &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer) &&
  typeof (value as { pipe?: unknown }).pipe !== 'function';

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

/**
 * Where a text (or a key) in `value` holds NUL, as the dotted path of the error's `fields` ('' for the value
 * itself); undefined when none does. Without recursion, so deep junk cannot overflow the stack.
 */
export const nulPlace = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  const pending: [unknown, string][] = [[value, '']];
  const seen = new Set<object>();
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [at, path] = next;
    if (typeof at === 'string') {
      if (at.includes(NUL)) return path;
    } else if (isReadable(at) && !seen.has(at)) {
      seen.add(at);
      const entries = Array.isArray(at) ? [...at.entries()] : Object.entries(at);
      for (const [key] of entries)
        if (typeof key === 'string' && key.includes(NUL)) return join(path, key.replaceAll(NUL, '\\0'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string | number, unknown];
        pending.push([item, join(path, key)]);
      }
    }
  }
  return undefined;
};

const PARTS = [
  ['params', 'path'],
  ['query', 'query'],
  ['body', 'body'],
] as const satisfies readonly (readonly [keyof FastifyRequest, string])[];

/**
 * Refuses NUL in any text of a request (path values, query, JSON body) with a 400 naming the field:
 * PostgreSQL text cannot hold it (DESIGN "HTTP conventions"). A hook before validation, so every route,
 * signed in or not, is covered without each schema saying so.
 */
export const registerInputGuards = (app: FastifyInstance) => {
  // A callback hook, not an async one: it runs on every request and finds nothing on almost all of them.
  app.addHook('preValidation', (request, _reply, done) => {
    // The path values and the query come from the URL, which spells NUL as %00 if at all.
    const urlClean = !request.url.includes('%00') && !request.url.includes(NUL);
    for (const [part, context] of PARTS) {
      if (urlClean && part !== 'body') continue;
      const place = nulPlace(request[part]);
      if (place === undefined) continue;
      const field = place || '_';
      done(
        badRequest(`Invalid ${context}: ${place ? `${place}: ` : ''}${MSG_NUL_IN_TEXT}`, {
          [field]: MSG_NUL_IN_TEXT,
        }),
      );
      return;
    }
    done();
  });
};

/**
 * The backstop behind the contract's bounds: a value the database refused (a number past its column, NUL,
 * text too long) or an update with nothing to change, as a 400 with a message; undefined for other errors.
 */
export const refusedByDatabase = (error: unknown): { error: AppError; reason: string } | undefined => {
  const refused = refusedValue(error);
  return refused ? { error: badRequest(refused.message), reason: refused.reason } : undefined;
};

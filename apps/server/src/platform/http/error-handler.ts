import { ERROR_CODES, type ErrorBody, MSG_DATABASE_UNAVAILABLE, MSG_GENERIC_ERROR } from '@media/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConnectionLost } from '../db/errors.ts';
import { AppError } from '../errors.ts';
import { storageFaultOf } from '../storage/faults.ts';
import { refusedByDatabase } from './input-guards.ts';

const body = (code: string, message: string, fields?: Record<string, string>, data?: unknown): ErrorBody => ({
  error: {
    message,
    code,
    ...(fields && Object.keys(fields).length > 0 ? { fields } : {}),
    ...(data === undefined ? {} : { data }),
  },
});

type ValidationIssue = {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[] };
};

/** Turns zod issues into `fields` (by dotted path) and one summary message. */
const validationFields = (issues: ValidationIssue[]) => {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const base = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys' && issue.params?.keys) {
      for (const key of issue.params.keys) fields[base ? `${base}.${key}` : key] = 'Unknown field';
    } else {
      fields[base || '_'] = issue.message ?? 'Invalid value';
    }
  }
  return fields;
};

export const registerErrorHandler = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(body(error.code, error.message, error.fields, error.data));
    }
    if (isConnectionLost(error)) {
      // The database connection went away under this request: it failed as a whole and may be repeated.
      request.log.warn({ err: error }, 'database connection lost');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send(body(ERROR_CODES.unavailable, MSG_DATABASE_UNAVAILABLE));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = validationFields(error.validation as ValidationIssue[]);
      const summary = Object.entries(fields)
        .map(([field, message]) => (field === '_' ? message : `${field}: ${message}`))
        .join('; ');
      return reply
        .status(400)
        .send(
          body(ERROR_CODES.validation, `Invalid ${error.validationContext ?? 'request'}: ${summary}`, fields),
        );
    }
    // A file system error that reached here (a write to DATA_DIR outside the media storage): a full or
    // unwritable disk answers 507 or 503 in words a person can act on, as the storage's own writes do.
    const fault = 'syscall' in error ? storageFaultOf(error) : undefined;
    if (fault) {
      request.log.error({ err: error }, fault.message);
      return reply.status(fault.status).send(body(fault.code, fault.message));
    }
    const refused = refusedByDatabase(error);
    if (refused) {
      // A bound the contract lacks: the answer is a 400 all the same, the warning says which one to add.
      request.log.warn(
        { reason: refused.reason, url: request.routeOptions.url },
        'input refused by the database',
      );
      return reply.status(400).send(body(refused.error.code, refused.error.message));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) {
      return reply.status(429).send(body(ERROR_CODES.rateLimited, error.message));
    }
    if (status >= 400 && status < 500) {
      const code =
        status === 413
          ? ERROR_CODES.tooLarge
          : status === 415
            ? ERROR_CODES.unsupportedMediaType
            : ERROR_CODES.validation;
      return reply.status(status).send(body(code, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body(ERROR_CODES.internal, MSG_GENERIC_ERROR));
  });
};

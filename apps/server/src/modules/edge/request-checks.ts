import { EDGE_MESSAGES } from '@media/contract';
import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../platform/errors.ts';

// What the edge module's routes share: the type id in an address, and the name's own messages.

/** The id of a service type or endpoint type in an address. */
export const typeIdParamSchema = z.object({ id: z.string().min(1).max(60) });

/**
 * Bodies with a name answer the name's own message when the name is what is wrong (spec2 §5: exactly
 * 'Name too long'; 'This field is required' when empty or missing); other problems answer as usual.
 */
export const checkBody = (request: FastifyRequest) => {
  const error = request.validationError;
  if (!error) return;
  if (error.validationContext === 'body' && hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation.find(
      (candidate: { instancePath: string }) => candidate.instancePath === '/name',
    );
    if (issue) {
      const missing = (request.body as { name?: unknown } | undefined)?.name === undefined;
      const message = missing ? EDGE_MESSAGES.required : issue.message;
      throw badRequest(message, { name: message });
    }
  }
  throw error;
};

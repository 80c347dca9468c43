import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';
import { idTextSchema } from '../http/input.ts';

/**
 * API tokens (issue 32, DESIGN.md "Identity, tokens and the way out"): a script acts as its user with
 * `Authorization: Bearer <token>`; `read` allows GET only, `write` everything the user may do.
 */
export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Every token begins with this, so that a token pasted where it does not belong (an address) is recognised. */
export const API_TOKEN_PREFIX = 'mca_';
/** How much of a token its lists show: the prefix and a few characters, enough to tell tokens apart. */
export const API_TOKEN_SHOWN_LENGTH = 12;
export const API_TOKEN_NAME_MAX = 100;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  prefix: z.string().describe('The first characters of the token, to tell it apart; never the whole token'),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('Kept to the minute'),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
/** A user's tokens, newest first (a handful: not paged). */
export const apiTokenListSchema = resultsOf(z.array(apiTokenSchema));

export const apiTokenCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'A name is required').max(API_TOKEN_NAME_MAX),
  scope: z.enum(API_TOKEN_SCOPES),
  expiresAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe('When the token stops working; none: it works until revoked'),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;

export const apiTokenCreatedSchema = resultsOf(
  apiTokenSchema.extend({
    token: z.string().describe('The token itself: shown this once, stored only hashed'),
  }),
);

export const apiTokenParamsSchema = z.object({ id: idTextSchema });
export const userApiTokenParamsSchema = z.object({ id: idTextSchema, tokenId: idTextSchema });

export const MSG_API_TOKEN_EXPIRY_PAST = 'The expiry must be in the future';
export const MSG_API_TOKEN_INVALID = 'The API token is not valid: it is unknown, expired or revoked';
export const MSG_API_TOKEN_READ_ONLY = 'This API token may only read: it has the read scope';
export const MSG_API_TOKEN_IN_ADDRESS =
  'An API token is sent in the Authorization header (Bearer), never in the address';
export const MSG_API_TOKEN_NOT_FOUND = 'No such API token';
export const MSG_API_TOKEN_BY_TOKEN =
  'API tokens are made and revoked by a person signed in, not with a token';
export const MSG_API_TOKEN_CREATED =
  'Copy the token now: it is shown this once. Anyone who has it acts as you with its scope.';

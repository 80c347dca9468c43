import { z } from 'zod';
import { resultsOf } from '../http/envelope.ts';
import { isLocalReturnPath } from './oidc-rules.ts';

export const oidcLoginQuerySchema = z.object({
  returnTo: z
    .string()
    .max(2000)
    .refine(isLocalReturnPath, 'returnTo must be a path of this site')
    .optional()
    .describe('Where to go after signing in: a path of this site'),
  invite: z.string().min(16).max(200).optional().describe('An invitation accepted through the provider'),
  prompt: z.enum(['login']).optional().describe('login: the provider asks for the password again'),
});
export const oidcCallbackQuerySchema = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(2000).optional(),
  session_state: z.string().max(2000).optional(),
});

export const linkedIdentitySchema = z.object({
  id: z.number().int(),
  issuer: z.string(),
  subject: z.string(),
  email: z.string().describe('The e-mail the provider gave when it was linked (never used to link)'),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type LinkedIdentity = z.infer<typeof linkedIdentitySchema>;
export const linkedIdentityListSchema = resultsOf(z.array(linkedIdentitySchema));
export const oidcRedirectSchema = resultsOf(
  z.object({ url: z.string().describe('Where the browser goes next') }),
);
export const logoutResponseSchema = resultsOf(
  z.object({
    ok: z.literal(true),
    endSessionUrl: z
      .string()
      .optional()
      .describe("The provider's end-session address, when the session came from it and it has one"),
  }),
);

import { z } from 'zod';
import { pageQuerySchema, resultsOf } from '../http/envelope.ts';

export const LOGIN_STATUSES = ['valid', 'invalidmfa', 'invalid', 'locked'] as const;
export type LoginStatus = (typeof LOGIN_STATUSES)[number];

export const loginRequestSchema = z
  .strictObject({
    username: z.string().min(1).max(200).describe('User name or email address'),
    password: z.string().min(1).max(1000),
    mfaCode: z
      .string()
      .max(64)
      .optional()
      .describe('TOTP code or a recovery code, when the user has a second factor'),
  })
  .describe('Sign-in');
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = resultsOf(
  z.object({
    status: z.enum(LOGIN_STATUSES),
    error: z.string().describe('Why sign-in failed; empty when valid'),
  }),
);
export type LoginResult = z.infer<typeof loginResponseSchema>['results'];

export const meSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  emailverified: z.boolean(),
  mfaEnabled: z.boolean(),
  hasPassword: z.boolean().describe('False for a user who only signs in through the identity provider'),
  signedInWith: z
    .enum(['password', 'oidc', 'token'])
    .describe("How this request's session was signed in (a re-authentication goes the same way)"),
  editor: z.object({
    maxVideo: z
      .string()
      .describe("The largest editor.maxVideo among the user's accounts (spec1 §5), at least 640x360"),
  }),
  rights: z.object({
    admin: z.array(z.number().int()).describe('Non-empty when the user is an administrator'),
    resellers: z.array(z.number().int()).describe('Resellers the user manages'),
    siteGroups: z.array(z.number().int()).describe('Site groups the user manages'),
    sites: z.array(z.number().int()).describe('Sites the user manages'),
    accountManager: z.array(z.number().int()).describe('Accounts where the user has a role with isManager'),
    accounts: z.array(z.number().int()).describe('Accounts the user has access to'),
  }),
});
export type Me = z.infer<typeof meSchema>;
export const meResponseSchema = resultsOf(meSchema);

export const LOCKOUT_KINDS = ['user', 'ip'] as const;

export const lockoutSchema = z.object({
  kind: z
    .enum(LOCKOUT_KINDS)
    .describe(
      'user: a user name at one client address; ip: a client address (an IPv6 /64), whatever the user',
    ),
  key: z.string().describe("user: '<user name> from <address>'; ip: the address"),
  failures: z.number().int(),
  lockedUntil: z.string().describe('ISO time when sign-in opens again by itself'),
});
export type Lockout = z.infer<typeof lockoutSchema>;

export const liftLockoutRequestSchema = z.strictObject({
  kind: z.enum(LOCKOUT_KINDS),
  key: z
    .string()
    .min(1)
    .max(300)
    .describe("A lock-out's key; for kind user, a user name alone lifts that user's locks at every address"),
});

export const LOCKOUT_SORT_FIELDS = ['kind', 'key', 'failures', 'lockedUntil'] as const;

export const lockoutsQuerySchema = pageQuerySchema.extend({
  sort: z.enum(LOCKOUT_SORT_FIELDS).default('lockedUntil'),
  desc: z.enum(['0', '1']).default('0').describe('1 sorts descending'),
});

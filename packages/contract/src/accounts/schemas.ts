import { z } from 'zod';
import { pageQuerySchema } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';
import { EDIT_MODES, EDITOR_SKINS, EDITOR_VERSIONS, LAUNCH_MODES } from './editor.ts';
import { CONCURRENT_USER_LIMIT_MAX } from './rules.ts';

/** spec1 §5 limits of the Account data and Account contact forms. */
export const ACCOUNT_LIMITS = {
  productionName: 100,
  department: 100,
  billingId: 100,
  contactName: 50,
  contactEmail: 60,
  contactCompany: 80,
  contactPhone: 40,
  welcomeMessage: 5000,
  notes: 10000,
  name: 100,
} as const;

export const MSG_MAX_LENGTH = (max: number) => `At most ${max} characters`;
export const MSG_EMAIL_INVALID = 'Please enter a valid email address';

const limited = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: MSG_MAX_LENGTH(max) });

/** What the signed-in user may change on this account (spec1 §6), so the forms can mark fields read-only. */
export const accountAccessFlagsSchema = z.object({
  canManage: z.boolean().describe('Account manager or above: the forms are editable'),
  canChangeSite: z.boolean().describe('Administrator: site, version, launch mode and skin'),
  canChangeReseller: z.boolean().describe('Reseller manager or administrator: Billing Group'),
  canChangeBilling: z.boolean().describe('Site manager and above: billing id, user limit, disabled'),
  canSeeNotes: z.boolean().describe('Site manager and above see and edit Notes'),
});
export type AccountAccessFlags = z.infer<typeof accountAccessFlagsSchema>;

export const accountSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  resellerId: z.number().int().describe("The site's reseller"),
  billingGroupId: z
    .number()
    .int()
    .nullable()
    .describe('Reseller that bills the account; null also when the user does not manage the account'),
  billingGroupName: z.string().nullable(),
  productionName: z.string(),
  department: z.string(),
  billingId: z.string().describe('Empty when the user does not manage the account'),
  editLimit: z.number().int().nullable(),
  welcomeMessage: z.string(),
  notes: z.string().nullable().describe('Null when the user may not see notes'),
  version: z.string(),
  launchMode: z.string(),
  skin: z.string(),
  defaultEditMode: z.string(),
  contactName: z.string().describe('Contact fields are empty when the user does not manage the account'),
  contactEmail: z.string(),
  contactCompany: z.string(),
  contactPhone: z.string(),
  concurrentUserLimit: z.number().int().nullable().describe('null: no limit; 0: access locked'),
  disabled: z.boolean(),
  editor: z.object({ maxVideo: z.string().describe('WxH, e.g. 1920x1080') }),
  createdAt: z.string(),
  access: accountAccessFlagsSchema,
});
export type Account = z.infer<typeof accountSchema>;

export const ACCOUNT_SORT_FIELDS = ['name', 'siteName', 'productionName', 'createdAt'] as const;

export const accountsQuerySchema = pageQuerySchema.extend({
  searchText: z.string().trim().max(200).optional(),
  siteId: idTextSchema.optional(),
  sort: z.enum(ACCOUNT_SORT_FIELDS).default('name'),
  desc: z.enum(['0', '1']).default('0'),
  includeDisabled: z.enum(['0', '1']).default('1'),
  managed: z.enum(['0', '1']).default('0').describe('1: only accounts the user manages'),
});
export type AccountsQuery = z.infer<typeof accountsQuerySchema>;

export const accountListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  productionName: z.string(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type AccountListItem = z.infer<typeof accountListItemSchema>;

/** Account data form + contact form; every field optional, rights checked per field on the server. */
export const accountUpdateSchema = z.strictObject({
  productionName: limited(ACCOUNT_LIMITS.productionName).optional(),
  department: limited(ACCOUNT_LIMITS.department).optional(),
  billingId: limited(ACCOUNT_LIMITS.billingId).optional(),
  billingGroupId: idSchema.nullable().optional(),
  editLimit: z.number().int().min(0).max(100000).nullable().optional(),
  welcomeMessage: limited(ACCOUNT_LIMITS.welcomeMessage).optional(),
  notes: limited(ACCOUNT_LIMITS.notes).optional(),
  siteId: idSchema.optional(),
  version: z.enum(EDITOR_VERSIONS).optional(),
  launchMode: z.enum(LAUNCH_MODES).optional(),
  skin: z.enum(EDITOR_SKINS).optional(),
  defaultEditMode: z.enum(EDIT_MODES).optional(),
  contactName: z
    .string()
    .trim()
    .min(1, { error: 'This field is required' })
    .max(ACCOUNT_LIMITS.contactName, { error: MSG_MAX_LENGTH(ACCOUNT_LIMITS.contactName) })
    .optional(),
  contactEmail: z
    .string()
    .trim()
    .min(1, { error: 'This field is required' })
    .max(ACCOUNT_LIMITS.contactEmail, { error: MSG_MAX_LENGTH(ACCOUNT_LIMITS.contactEmail) })
    .pipe(z.email({ error: MSG_EMAIL_INVALID }))
    .optional(),
  contactCompany: limited(ACCOUNT_LIMITS.contactCompany).optional(),
  contactPhone: limited(ACCOUNT_LIMITS.contactPhone).optional(),
  concurrentUserLimit: z.number().int().min(0).max(CONCURRENT_USER_LIMIT_MAX).nullable().optional(),
  disabled: z.boolean().optional(),
  maxVideo: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, { error: 'Use WxH, e.g. 1920x1080' })
    .optional(),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

const accountName = z
  .string()
  .trim()
  .min(1, { error: 'This field is required' })
  .max(ACCOUNT_LIMITS.name, { error: MSG_MAX_LENGTH(ACCOUNT_LIMITS.name) })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, {
    error: 'Use letters, digits, dots, dashes and underscores, starting with a letter or digit',
  });

/** POST /api/accounts: create, clone, or reserve / release a name for a clone. */
export const accountCreateSchema = z.union(
  [
    z.strictObject({
      name: accountName,
      siteId: idSchema,
      productionName: limited(ACCOUNT_LIMITS.productionName).optional(),
      contactName: z.string().trim().max(ACCOUNT_LIMITS.contactName).optional(),
      contactEmail: z.string().trim().max(ACCOUNT_LIMITS.contactEmail).optional(),
    }),
    z.strictObject({
      name: accountName,
      cloneFrom: idSchema,
      siteId: idSchema.optional(),
    }),
    z.strictObject({
      reserveKey: z.literal(true),
      name: accountName,
      cloneFrom: idSchema,
    }),
    z.strictObject({
      unreserveKey: z.literal(true),
      name: accountName,
      cloneFrom: idSchema,
    }),
  ],
  {
    error:
      'Send {name, siteId} to create, {name, cloneFrom} to clone, or {reserveKey|unreserveKey: true, name, cloneFrom}',
  },
);
export type AccountCreate = z.infer<typeof accountCreateSchema>;

export const reservationSchema = z.object({ name: z.string(), reserved: z.boolean() });

export const workflowSchema = z.object({ id: z.number().int(), name: z.string() });
export type Workflow = z.infer<typeof workflowSchema>;

export const launchRequestSchema = z.strictObject({
  roleId: idSchema.optional().describe('Act as this role of the account'),
});
export const launchResponseSchema = z.object({
  accountId: z.number().int(),
  roleId: z.number().int(),
  url: z.string(),
});

import { z } from 'zod';
import { pageQuerySchema } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

const orgName = z
  .string()
  .trim()
  .min(1, { error: 'This field is required' })
  .max(100, { error: 'At most 100 characters' });

export const resellerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  disabled: z.boolean(),
  siteGroupCount: z.number().int(),
});
export type Reseller = z.infer<typeof resellerSchema>;

export const siteGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  resellerId: z.number().int(),
  resellerName: z.string(),
  disabled: z.boolean(),
  siteCount: z.number().int(),
});
export type SiteGroup = z.infer<typeof siteGroupSchema>;

export const siteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteGroupId: z.number().int(),
  siteGroupName: z.string(),
  resellerId: z.number().int(),
  resellerName: z.string(),
  disabled: z.boolean(),
  accountCount: z.number().int(),
});
export type Site = z.infer<typeof siteSchema>;

/** What the signed-in user may do on a site (GET /api/sites/{id}/permissions). */
export const sitePermissionsSchema = z.object({
  canManage: z.boolean().describe('Site manager or above'),
  canImportUsers: z.boolean(),
  canManageManagers: z.boolean(),
  canSearchSiteUsers: z.boolean(),
  canCreateAccounts: z.boolean(),
});
export type SitePermissions = z.infer<typeof sitePermissionsSchema>;

export const orgQuerySchema = pageQuerySchema.extend({
  searchText: z.string().trim().max(200).optional(),
  includeDisabled: z.enum(['0', '1']).default('1'),
});
export const sitesQuerySchema = orgQuerySchema.extend({
  siteGroupId: idTextSchema.optional(),
});
export const siteGroupsQuerySchema = orgQuerySchema.extend({
  resellerId: idTextSchema.optional(),
});

export const resellerCreateSchema = z.strictObject({ name: orgName });
export const resellerUpdateSchema = z.strictObject({
  name: orgName.optional(),
  disabled: z.boolean().optional(),
});
export const siteGroupCreateSchema = z.strictObject({
  name: orgName,
  resellerId: idSchema,
});
export const siteGroupUpdateSchema = z.strictObject({
  name: orgName.optional(),
  resellerId: idSchema.optional(),
  disabled: z.boolean().optional(),
});
export const siteCreateSchema = z.strictObject({ name: orgName, siteGroupId: idSchema });
export const siteUpdateSchema = z.strictObject({
  name: orgName.optional(),
  siteGroupId: idSchema.optional(),
  disabled: z.boolean().optional(),
});

export const MSG_ORG_NAME_TAKEN = (kind: string) => `A ${kind} with this name already exists`;

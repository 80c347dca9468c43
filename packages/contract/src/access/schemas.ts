import { z } from 'zod';
import { pageQuerySchema } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

/** spec1 §9: manager, access, invite and session lists start at offset 0 with limit 100. */
export const ACCESS_PAGE_LIMIT = 100;

export const accessPageQuerySchema = pageQuerySchema;

export const accountUserSchema = z.object({
  id: z.number().int().describe('The user id'),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  roleId: z.number().int(),
  version: z.string().nullable(),
  skin: z.string().nullable(),
});
export type AccountUser = z.infer<typeof accountUserSchema>;

const accessChange = {
  roleId: idSchema,
  version: z.string().max(50).nullable().optional(),
  skin: z.string().max(50).nullable().optional(),
};
export const userAccessBatchSchema = z.strictObject({
  data: z
    .array(z.strictObject({ userId: idSchema, ...accessChange }))
    .min(1)
    .max(1000),
});
export const userAccessUpdateSchema = z.strictObject(accessChange);
export const userAccessParamsSchema = z.object({
  id: idTextSchema,
  userId: idTextSchema,
});

export const MSG_USER_ALREADY_LINKED = 'This username is already linked to the account';
export const MSG_USER_UPDATES_COMPLETED = 'User updates completed';
export const MSG_MANAGER_ROLE_NOT_SELECTABLE = 'Manager roles cannot be given from the access list';
/** DESIGN.md "Managing people": a manager gives access only to users they manage; anyone else is invited. */
export const MSG_ADD_USER_REFUSED =
  'You can give access only to users whose every site and account you manage; invite anyone else by email: they join by accepting';

export const inviteSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  roleId: z.number().int(),
  username: z.string().nullable(),
  createdAt: z.string(),
});
export type Invite = z.infer<typeof inviteSchema>;

const invitees = z
  .array(
    z.strictObject({
      email: z
        .string()
        .trim()
        .max(200)
        .pipe(z.email({ error: 'Please enter a valid email address' })),
      roleId: idSchema,
      username: z.string().trim().max(100).optional(),
    }),
  )
  .min(1)
  .max(100);
/** POST /api/accounts/{id}/invites: the list itself (spec1 §7), or the list as `data`. */
export const inviteCreateSchema = z.union([
  z.strictObject({ data: invitees }),
  invitees.transform((data) => ({ data })),
]);
export const inviteUpdateSchema = z.strictObject({ roleId: idSchema });
export const inviteParamsSchema = z.object({
  id: idTextSchema,
  inviteId: idTextSchema,
});
export const MSG_ALREADY_INVITED = 'already invited';
export const MSG_ALREADY_ROLE = (role: string) => `already ${role}`;
export const INVITE_DAYS = 14;

/** What an invite link shows before it is accepted (public, by token). */
export const invitationSchema = z.object({
  email: z.string(),
  accountName: z.string(),
  roleName: z.string(),
  registered: z.boolean().describe('A user with this email exists: accept; else register'),
});
export const invitationAcceptSchema = z.union([
  z.strictObject({}),
  z.strictObject({
    fullname: z.string().trim().min(1, { error: 'This field is required' }).max(200),
    username: z.string().trim().min(2).max(100).optional(),
    newPassword: z.string().max(1000),
  }),
]);
export const MSG_INVITE_INVALID = 'This invitation is not valid or has expired';
export const MSG_INVITE_ACCEPTED = 'You now have access to the account';

export const SESSION_STATUSES = ['active', 'idle'] as const;
export const accountSessionSchema = z.object({
  id: z.string().describe('Public session handle'),
  sessionId: z.string(),
  user: z.number().int(),
  username: z.string(),
  ip: z.string(),
  status: z.enum(SESSION_STATUSES),
  openedtime: z.string(),
  lastSeen: z.string(),
  disconnectmessage: z.string().nullable(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const MSG_DISCONNECT_REQUIRED = 'A message is required to disconnect a user';
export const DEFAULT_DISCONNECT_MESSAGE = 'Session ended by administrator, please relaunch or log in again.';
export const MSG_DISCONNECTED = (name: string) => `${name} has been disconnected`;
export const MSG_DISCONNECT_FAILED = (name: string) => `Sorry, unable to disconnect ${name}`;
export const MSG_DISCONNECTION_SUCCESSFUL = 'Disconnection successful';

const disconnectMessage = z
  .string({ error: MSG_DISCONNECT_REQUIRED })
  .trim()
  .min(1, { error: MSG_DISCONNECT_REQUIRED })
  .max(500);
export const sessionTrashSchema = z.strictObject({ disconnectmessage: disconnectMessage });
export const sessionParamsSchema = z.object({
  id: idTextSchema,
  sessionId: z.string().min(1).max(100),
});
export const disconnectionSchema = z.strictObject({
  byUserId: idSchema,
  accountId: idSchema,
  sessionId: z.string().min(1).max(100),
  message: disconnectMessage,
});

export const accountRoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  isManager: z.boolean(),
  permissions: z.array(z.string()),
});
export type AccountRole = z.infer<typeof accountRoleSchema>;
export const accountRolesQuerySchema = z.object({ siteId: idTextSchema });

/** Permission names a role can carry; canSearchSiteUsers offers the site-user search when adding managers. */
export const PERMISSIONS = [
  'canEdit',
  'canLog',
  'canView',
  'canPublish',
  'canUpload',
  'canDelete',
  'canManageAccount',
  'canSearchSiteUsers',
] as const;
/** spec1 §6: site-user search is offered only for these role names. */
export const SITE_USER_SEARCH_ROLE_NAMES = ['Account Manager', 'Site Manager', 'SiteManager SSO'] as const;

export const MANAGER_TYPES = ['admin', 'reseller', 'sitegroup', 'site', 'account'] as const;
export type ManagerType = (typeof MANAGER_TYPES)[number];

/** emailverified as the managers table shows it: '0' unverified, '1' verified, '2' raised in this session. */
export const managerSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  emailverified: z.enum(['0', '1']),
  roleId: z.number().int().nullable(),
  rolename: z.string().nullable(),
});
export type Manager = z.infer<typeof managerSchema>;

export const managerTypeParamsSchema = z.object({ type: z.enum(MANAGER_TYPES) });
export const managerParamsSchema = z.object({
  type: z.enum(MANAGER_TYPES),
  userId: idTextSchema,
});
export const managersQuerySchema = pageQuerySchema.extend({
  scopeId: idTextSchema.optional().describe('Reseller, site group, site or account id'),
  roleId: idTextSchema.optional(),
});
export const managerAddSchema = z.strictObject({
  scopeId: idSchema.optional(),
  roleId: idSchema.optional(),
});
export const managerDeleteQuerySchema = z.object({ scopeId: idTextSchema.optional() });

export const MSG_USERNAME_REQUIRED = 'User name required';
export const MSG_USERNAME_INVALID = 'User name invalid';
export const MSG_ALREADY_MANAGER = 'User already manager';
export const MSG_NO_MANAGERS = 'No managers defined';
export const MSG_MANAGERS_UPDATED = (type: string) => `Updated ${type} manager(s)`;
export const MSG_LAST_ADMIN = 'The last administrator cannot be removed';

/** The manager a user name refers to: exact user name, or full name case-insensitively (spec1 §5). */
export const matchesUserName = (typed: string, user: { username: string; fullname: string }) => {
  const text = typed.trim();
  if (!text) return false;
  return user.username === text || user.fullname.toLowerCase() === text.toLowerCase();
};

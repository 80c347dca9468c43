import { z } from 'zod';
import { collectionOf, pageQuerySchema, totalCappedSchema } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  company: z.string(),
  emailverified: z.boolean(),
  disabled: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** spec1 §9: user search pages hold 10, or 20 for administrators' all-user search and add-user search. */
export const USER_SEARCH_LIMIT = 10;
export const USER_SEARCH_LIMIT_WIDE = 20;
export const USER_SEARCH_MIN_CHARS = 2;
export const USERNAME_CHECK_DEBOUNCE_MS = 200;
export const USER_IMPORT_CHUNK = 100;
export const USER_SEARCH_TYPES = ['all', 'site', 'account'] as const;

export const usersQuerySchema = pageQuerySchema.extend({
  siteId: idTextSchema.optional(),
  accountId: idTextSchema.optional(),
  searchText: z.string().trim().max(200).optional(),
  type: z
    .enum(USER_SEARCH_TYPES)
    .optional()
    .describe('all: every user (administrators); site: users of siteId; account: users of accountId'),
  limit: z.coerce.number().int().min(1).max(10000).optional(),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

/** GET /api/users: with searchText the total is counted up to TOTAL_COUNT_CAP, totalCapped beyond. */
export const usersResponseSchema = collectionOf(userSchema).extend({ totalCapped: totalCappedSchema });

const email = z
  .string()
  .trim()
  .min(1, { error: 'This field is required' })
  .max(200)
  .pipe(z.email({ error: 'Please enter a valid email address' }));

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@+-]*$/;
const username = z
  .string()
  .trim()
  .min(2, { error: 'At least 2 characters' })
  .max(100)
  .regex(USERNAME_PATTERN, { error: 'Use letters, digits and . _ @ + -' });

export const userUpdateSchema = z.strictObject({
  username: username.optional(),
  fullname: z.string().trim().min(1, { error: 'This field is required' }).max(200).optional(),
  company: z.string().trim().max(200).optional(),
  email: email.optional(),
  emailverified: z.boolean().optional().describe('Can only be raised'),
  disabled: z.boolean().optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;
export const MSG_EMAILVERIFIED_ONLY_RAISED = 'Email verification can only be raised, never unset';
export const MSG_USERNAME_TAKEN = 'This user name is already taken';
export const MSG_EMAIL_TAKEN = 'A user with this email address already exists';

/** One row of a batch user creation (the CSV import sends up to 100 per call). */
export const userImportRowSchema = z.object({
  fullname: z.string().max(200),
  company: z.string().max(200),
  email: z.string().max(200),
  username: z.string().max(100).optional(),
});
export type UserImportRow = z.infer<typeof userImportRowSchema>;

export const userBatchCreateSchema = z.strictObject({
  users: z.array(userImportRowSchema).min(1).max(100, { error: 'At most 100 users per call' }),
  dryRun: z.boolean().default(false),
  siteId: idSchema,
});
export const userImportResultSchema = z.object({
  fullname: z.string(),
  company: z.string(),
  email: z.string(),
  username: z.string(),
  success: z.boolean(),
  message: z.string(),
});
export type UserImportResult = z.infer<typeof userImportResultSchema>;

export const MSG_EMAIL_USED_IN_BATCH = 'This email address was already used in this batch';
export const MSG_USER_WOULD_BE_CREATED = 'User will be created';
export const MSG_USER_CREATED = 'User created; a registration email has been sent';
export const MSG_CSV_FORMAT_ERROR = 'CSV Format Error: Columns required are fullname, company and email';
export const MSG_CSV_PARSE_ERROR = (error: string) => `CSV parse error: Failed: ${error}`;
export const CSV_REQUIRED_COLUMNS = ['fullname', 'company', 'email'] as const;
export const MSG_FILE_EXTENSION_WARNING_TITLE = 'File Extension Warning';
/** Whether a chosen file is named as a CSV; another name raises the File Extension Warning (spec1 §5). */
export const hasCsvExtension = (fileName: string) => fileName.toLowerCase().endsWith('.csv');
export const MSG_GDPR_WARNING_TITLE = 'GDPR Warning';
export const MSG_GDPR_WARNING =
  'By importing personal data you agree that you are the Data Controller for this data and that the provider of this service acts as the Data Processor on your behalf.';

/** Required-field checks of one imported row, before any database lookup; undefined when fine. */
export const userImportRowProblem = (row: UserImportRow): string | undefined => {
  if (!row.fullname.trim()) return 'fullname is required';
  if (!row.company.trim()) return 'company is required';
  if (!row.email.trim()) return 'email is required';
  if (!z.email().safeParse(row.email.trim()).success) return 'Please enter a valid email address';
  if (row.username?.trim() && !USERNAME_PATTERN.test(row.username.trim()))
    return 'Use letters, digits and . _ @ + - in user names';
  return undefined;
};

/** A user name from an email address when the row has none: the part before @, cleaned. */
export const usernameFromEmail = (emailAddress: string) =>
  emailAddress
    .trim()
    .toLowerCase()
    .split('@')[0]
    ?.replace(/[^a-z0-9._+-]/g, '')
    .replace(/^[._+-]+/, '') || 'user';

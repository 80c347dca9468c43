import { z } from 'zod';
import { totalCappedSchema } from '../http/envelope.ts';
import { idSchema, idTextSchema } from '../http/input.ts';
import { cleanName } from '../names/clean-name.ts';

/**
 * spec3 §3 Node, §4 Media tree / Transfers, §7 Nodes and media: the media tree of an account.
 *
 * A node's path is `/{accountName}/{name}/{name}…`; the account's root node is `/{accountName}`.
 */

/** spec3 §9 Node fetch limit. */
export const NODE_FETCH_LIMIT = 100;
export const NODE_NAME_MAX = 200;
export const NODE_METADATA_VALUE_MAX = 4000;
export const NODE_SEARCH_CLAUSES_MAX = 10;

export const NODE_TYPES = ['folder', 'source', 'sequence', 'media', 'edl'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export const DISPLAY_TYPES = ['source', 'folder', 'sequence'] as const;
export type DisplayType = (typeof DISPLAY_TYPES)[number];
/** spec3 §9 Default displayed node types. */
export const DEFAULT_DISPLAYED_NODE_TYPES: readonly DisplayType[] = ['source', 'folder', 'sequence'];

/** spec3 §2 Media manager: child order choice, Time by default. */
export const CHILD_ORDERS = ['time', 'alphabetical'] as const;
export type ChildOrder = (typeof CHILD_ORDERS)[number];
export const CHILD_ORDER_LABELS: Record<ChildOrder, string> = { time: 'Time', alphabetical: 'Alphabetical' };

/** spec3 §9 Default accumulate metadata keys. */
export const ACCUMULATE_METADATA_KEYS = [
  'ftv-format',
  'ftv-versions',
  'ftv-workflow',
  'videoname',
  'location',
  'filename',
  'filesize',
  'clipname',
  'sourcelocator',
] as const;

/** spec3 §3: artefact urls of this scheme become the metadata entry 'Field59 Key'. */
export const FIELD59_SCHEME = 'field59:';
export const FIELD59_METADATA_KEY = 'Field59 Key';
/** spec3 §3: stripped from names. */
export const SEARCH_RESULTS_SUFFIX = ' - Search results';

export const TRANSFER_OPERATIONS = ['move', 'copy', 'publish'] as const;
export type TransferOperation = (typeof TRANSFER_OPERATIONS)[number];

/** What a role may do below a folder (spec3 §6 folder permissions per node path); nearest entry wins. */
export const FOLDER_ACCESS = ['none', 'view', 'edit'] as const;
export type FolderAccess = (typeof FOLDER_ACCESS)[number];
export const FOLDER_ACCESS_LABELS: Record<FolderAccess, string> = {
  none: 'Hidden',
  view: 'View only',
  edit: 'As the role allows',
};

/** spec3 §8 and the media manager's texts. */
export const NODE_MESSAGES = {
  transferred: (path: string, operation: string, destination: string) =>
    `Node ${path} is ${operation} to ${destination} successfully!`,
  publishedOn: (path: string) => `Published on ${path} successfully!`,
  unexpectedNodeId: (id: string) => `Unexpected node id ${id} editor cannot open item`,
  fetchFailed: (message: string) => `An error occurred while fetching the data: ${message}`,
  fileOperationsFailed: (message: string) => `An error occurred while fetching file operations: ${message}`,
  notEnoughPublishData: 'notEnoughPublishData',
  publishUnavailable: 'Publishing to this location is not available',
  nameRequired: 'This field cannot be empty',
  nameTooLong: 'Character limit exceeded',
  nameHasSlash: 'A name cannot contain /',
  nameTaken: (name: string, parentPath: string) => `A node named ${name} already exists in ${parentPath}`,
  notAFolder: (path: string) => `${path} is not a folder`,
  intoItself: 'A folder cannot be moved or copied into itself',
  otherAccount: 'Nodes can be moved or copied only within their account',
  rootFixed: "The account's root folder cannot be moved or renamed",
  noOperations: 'Nothing can be done with these nodes here',
  permissionsSaved: (path: string) => `Permissions of ${path} saved`,
  fieldSaved: (key: string) => `${key} saved`,
  folderCreated: (path: string) => `Folder ${path} created`,
  actingAs: (role: string) => `You are acting as the role ${role}`,
  roleReset: 'Your own role is back',
  noChildren: 'This folder is empty',
  noResults: 'No nodes match this search',
} as const;

const nodeNameSchema = z
  .string()
  .overwrite(cleanName)
  .trim()
  .min(1, { error: NODE_MESSAGES.nameRequired })
  .max(NODE_NAME_MAX, { error: NODE_MESSAGES.nameTooLong })
  .refine((name) => !name.includes('/'), { error: NODE_MESSAGES.nameHasSlash });

export const nodePathSchema = z
  .string()
  .min(2)
  .max(4000)
  .regex(/^\/[^/]/, 'A path starts with /{accountName}')
  .describe('/{accountName}/{name}/…');

export const folderPermissionSchema = z.strictObject({
  roleId: idSchema,
  access: z.enum(FOLDER_ACCESS),
});
export type FolderPermission = z.infer<typeof folderPermissionSchema>;

export const folderPermissionsSchema = z
  .array(folderPermissionSchema)
  .max(100)
  .refine((list) => new Set(list.map((entry) => entry.roleId)).size === list.length, {
    error: 'A role can be listed once',
  });

/** An edl: the pieces of media a clip or a sequence plays, in frames at fps. */
export const edlSchema = z.strictObject({
  id: z.number().int().optional(),
  fps: z.number().positive().max(1000),
  events: z
    .array(
      z.strictObject({
        mediaId: idSchema,
        inFrame: z.number().int().min(0),
        outFrame: z.number().int().min(0),
      }),
    )
    .min(1)
    .max(1000)
    .refine((events) => events.every((event) => event.outFrame > event.inFrame), {
      error: 'An out point must come after its in point',
    }),
});
export type Edl = z.infer<typeof edlSchema>;

export const artefactSchema = z.object({ url: z.string() });

export const nodeSchema = z.object({
  id: z.string().describe('node,{accountId},{nodeId},{type},{mediaId or 0}: the editor needs 5 parts'),
  nodeId: z.number().int(),
  path: z.string(),
  name: z.string(),
  accountId: z.number().int(),
  mediaId: z.number().int().nullable(),
  type: z.enum(NODE_TYPES),
  displayType: z.enum(DISPLAY_TYPES),
  parentPath: z.string().nullable(),
  parentId: z.number().int().nullable(),
  level: z.number().int().describe('Number of path segments minus 1'),
  expandable: z.boolean(),
  childCount: z.number().int(),
  createdTime: z.string().describe('ISO 8601'),
  createdTimeStamp: z.number().describe('Milliseconds since 1970'),
  hereTime: z.string().describe('When the node arrived in its folder'),
  expiresTime: z.string().nullable(),
  thumbId: z.number().int().nullable(),
  duration: z.number().nullable().describe('Seconds, for media'),
  metadata: z.record(z.string(), z.string()),
  artefacts: z.array(artefactSchema),
  artefactMetadata: z.record(z.string(), z.string()),
  permissions: z.array(folderPermissionSchema).describe("The folder's own entries; descendants inherit"),
  sortKey: z.string(),
  searchKey: z
    .string()
    .nullable()
    .describe('The search this node was found by (searchKeyOf); null for a child of a folder'),
  /** What the caller may do here, after its role and the folder permissions. */
  access: z.object({ canEdit: z.boolean(), canLog: z.boolean(), canManage: z.boolean() }),
});
export type MediaNode = z.infer<typeof nodeSchema>;

/** One search clause: the key is name, text (name and metadata) or a metadata key. */
export const searchClauseSchema = z.strictObject({
  key: z.string().trim().min(1).max(100),
  value: z.string().trim().min(1).max(200),
  match: z.enum(['contains', 'exact']).default('contains'),
});
export type SearchClause = z.infer<typeof searchClauseSchema>;

const jsonClause = z.string().transform((text, context) => {
  try {
    const parsed = searchClauseSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    context.addIssue({
      code: 'custom',
      message: `Invalid search clause: ${parsed.error.issues[0]?.message}`,
    });
  } catch {
    context.addIssue({ code: 'custom', message: 'Invalid search clause: not JSON' });
  }
  return z.NEVER;
});

const dateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use yyyy-MM-dd');

/** GET /api/nodes (spec3 §7). */
export const nodesQuerySchema = z.strictObject({
  path: nodePathSchema.optional(),
  childOrder: z.enum(CHILD_ORDERS).default('time'),
  type: z
    .string()
    .optional()
    .transform((text) =>
      text ? text.split(',').map((part) => part.trim()) : [...DEFAULT_DISPLAYED_NODE_TYPES],
    )
    .pipe(z.array(z.enum(NODE_TYPES)).min(1)),
  nextChildOffset: z.coerce.number().int().min(0).default(0),
  childFilter: z.string().trim().max(200).optional(),
  search: z
    .union([jsonClause, z.array(jsonClause)])
    .optional()
    .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
    .refine((clauses) => clauses.length <= NODE_SEARCH_CLAUSES_MAX, {
      error: `At most ${NODE_SEARCH_CLAUSES_MAX} search clauses`,
    }),
  createdFrom: dateOnly.optional(),
  createdTo: dateOnly.optional(),
  limit: z.coerce.number().int().min(1).max(NODE_FETCH_LIMIT).default(NODE_FETCH_LIMIT),
  getDetails: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .transform((value) => value === '1' || value === 'true'),
  id: z.string().max(200).optional(),
  userId: idTextSchema.optional(),
});
export type NodesQuery = z.infer<typeof nodesQuerySchema>;

/** The answer of GET /api/nodes: the path from the root to the node, and a page of its children. */
export const nodeListingSchema = z.object({
  ancestors: z.array(nodeSchema).describe('From the root down to the parent of node'),
  node: nodeSchema,
  children: z.array(nodeSchema).describe('Children, or with search clauses the matching descendants'),
  nextChildOffset: z.number().int().nullable().describe('Offset of the next page; null on the last'),
  /** The role the session acts as in this account (Edit as role), null for its own. */
  actingRole: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type NodeListing = z.infer<typeof nodeListingSchema>;

export const nodesResponseSchema = z.object({
  results: nodeListingSchema,
  total: z
    .number()
    .int()
    .describe('Children (or matches) in all; with totalCapped a lower bound (at least TOTAL_COUNT_CAP)'),
  totalCapped: totalCappedSchema,
  channel: z.string(),
});

/** GET /api/nodes?getDetails=1&id=…: the node with its media and edl details. */
export const nodeDetailsSchema = nodeSchema.extend({
  mediaContent: z
    .object({
      duration: z.number().nullable(),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      size: z.number().nullable(),
      fps: z.number().nullable(),
    })
    .nullable(),
  edl: edlSchema.nullable(),
  edlSources: z.array(z.object({ mediaId: z.number().int(), name: z.string() })),
});
export type NodeDetails = z.infer<typeof nodeDetailsSchema>;

const jpegThumbSchema = z.strictObject({
  type: z.literal('jpeg'),
  data: z.base64().max(2_000_000, { error: 'The thumbnail is too large' }),
});

/** POST /api/nodes: create a folder, clip (edl) or sequence under parentPath (spec3 §3 Clip save payload). */
export const nodeCreateSchema = z.strictObject({
  parentPath: nodePathSchema,
  userId: idSchema.optional(),
  type: z.enum(['folder', 'edl', 'sequence']),
  name: nodeNameSchema,
  thumb: jpegThumbSchema.optional(),
  thumbPoint: z.number().min(0).optional(),
  edl: edlSchema.optional(),
});
/**
 * POST /api/media (spec3 §7): a clip or sequence made as media from its edl, in the folder at parentPath
 * (the same as POST /api/nodes for a clip, but the edl is required); answers its node, with its mediaId.
 */
export const mediaCreateSchema = nodeCreateSchema.extend({
  type: z.enum(['edl', 'sequence']),
  edl: edlSchema,
});
/** POST /api/media/{id}/data?path=: a clip's or sequence's new edl; the one it replaces is kept (spec3 §7). */
export const edlDataSchema = z.strictObject({ edl: edlSchema });
export const edlDataQuerySchema = z.object({ path: nodePathSchema, accountId: idTextSchema.optional() });
/** GET /api/edls/{id}/previousVersions?path=. */
export const edlVersionsQuerySchema = z.object({ path: nodePathSchema });

/** One piece of media an edl plays parts of (GET /api/edls/{id}/sources), in the edl's order. */
export const edlSourceSchema = z.object({
  mediaId: z.number().int(),
  name: z.string(),
  duration: z.number().nullable(),
  fps: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type EdlSource = z.infer<typeof edlSourceSchema>;

/** An edl a later save replaced (GET /api/edls/{id}/previousVersions), newest first. */
export const edlVersionSchema = z.object({
  version: z.number().int().describe('1 for the first edl saved'),
  edl: edlSchema,
  duration: z.number().nullable(),
  replacedTime: z.string().describe('ISO 8601: when a save replaced it'),
  replacedBy: z.string().nullable().describe('The user name of who replaced it'),
});
export type EdlVersion = z.infer<typeof edlVersionSchema>;

/** POST /api/nodes: set one metadata field (key, accountId, path). */
export const nodeFieldSchema = z.strictObject({
  key: z.string().trim().min(1).max(100),
  value: z.string().max(NODE_METADATA_VALUE_MAX),
  accountId: idSchema,
  path: nodePathSchema,
});
/** POST /api/nodes: save a folder's permissions (path and permissions). */
export const nodePermissionsSchema = z.strictObject({
  path: nodePathSchema,
  permissions: folderPermissionsSchema,
});
/** POST /api/nodes: rename a node. */
export const nodeRenameSchema = z.strictObject({ path: nodePathSchema, name: nodeNameSchema });

export const nodePostSchema = z.union([
  nodeCreateSchema,
  nodeFieldSchema,
  nodePermissionsSchema,
  nodeRenameSchema,
]);
export type NodePost = z.infer<typeof nodePostSchema>;

/** POST /api/nodesTransferType. */
export const nodesTransferTypeSchema = z.strictObject({
  srcPath: z.union([nodePathSchema, z.array(nodePathSchema).min(1).max(1000)]),
  dstPath: nodePathSchema,
  userId: idSchema.optional(),
});
export const transferTypesSchema = z.object({ operations: z.array(z.enum(TRANSFER_OPERATIONS)) });

/** POST /api/nodesTransfer. */
export const nodesTransferSchema = z.strictObject({
  srcPath: z.union([nodePathSchema, z.array(nodePathSchema).min(1).max(1000)]),
  dstPath: nodePathSchema,
  operation: z.enum(TRANSFER_OPERATIONS),
  userId: idSchema.optional(),
  userPublishData: z.record(z.string(), z.unknown()).optional(),
});
export type NodesTransfer = z.infer<typeof nodesTransferSchema>;

export const transferResultSchema = z.object({
  operation: z.enum(TRANSFER_OPERATIONS),
  nodes: z.array(z.object({ from: z.string(), to: z.string() })),
  message: z.string(),
  /** A publish answers the published items it queued, one per node. */
  publishIds: z.array(z.number().int()).optional(),
});
export type TransferResult = z.infer<typeof transferResultSchema>;

/** spec3 §3 Player media info (GET /api/media/{id}). */
export const PLAYABLE_MEDIA_TYPES = ['edl', 'media', 'lifestream', 'timecode', 'still'] as const;
export const playerMediaInfoSchema = z.object({
  name: z.string(),
  mediaId: z.number().int(),
  edl: edlSchema.nullable(),
  type: z.enum(PLAYABLE_MEDIA_TYPES),
  start: z.union([z.number(), z.literal('end')]).optional(),
  duration: z.number().nullable(),
  proxyWidth: z.number().int().nullable(),
  proxyHeight: z.number().int().nullable(),
  accountName: z.string(),
  accountId: z.number().int(),
  exportEnabled: z.boolean(),
});
export type PlayerMediaInfo = z.infer<typeof playerMediaInfoSchema>;

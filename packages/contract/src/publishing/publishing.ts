import { z } from 'zod';
import { formSchemaSchema } from '../forms/schema.ts';
import { idSchema, idTextSchema } from '../http/input.ts';

/** spec3 §3 Publish module types. */
export const PUBLISH_MODULE_TYPES = ['source', 'process', 'destination', 'post'] as const;
export type PublishModuleType = (typeof PUBLISH_MODULE_TYPES)[number];

/** spec3 §7: ctx is sites/{siteId} or accounts/{accountId}. */
export const PUBLISH_CONTEXTS = ['sites', 'accounts'] as const;
export type PublishContextKind = (typeof PUBLISH_CONTEXTS)[number];
export const publishContextParamsSchema = z.object({
  scope: z.enum(PUBLISH_CONTEXTS),
  scopeId: idTextSchema,
});

export const SECONDS_PER_DAY = 86_400;
/** spec3 §5 Keep-for choices: Ever (null), or 2 to 30 days, stored in seconds. */
export const KEEP_FOR_CHOICES: readonly { label: string; seconds: number | null }[] = [
  { label: 'Ever', seconds: null },
  ...Array.from({ length: 29 }, (_, index) => ({
    label: `${index + 2} days`,
    seconds: (index + 2) * SECONDS_PER_DAY,
  })),
];
export const isKeepForChoice = (seconds: number | null) =>
  KEEP_FOR_CHOICES.some((choice) => choice.seconds === seconds);

/** spec3 §9: network double-click delay; graph columns by module type; node box size. */
export const NETWORK_DOUBLE_CLICK_MS = 500;
export const NETWORK_GRAPH_COLUMNS: readonly PublishModuleType[] = [
  'source',
  'process',
  'destination',
  'post',
];
export const NETWORK_NODE_BOX = { width: 100, height: 50 } as const;

/** Ids of a new button's first network nodes (spec3 §3). */
export const SOURCE_NODE_ID = 0;
export const DESTINATION_NODE_ID = 1;
export const FIRST_INPUT_NODE_ID = 2;

export const BUTTON_NAME_MAX = 100;

/** spec3 §8 and §2: the texts of the publishing area. */
export const PUBLISH_MESSAGES = {
  addTitle: 'Add Publishing Button',
  sourceProcessing: 'Source Processing',
  destination: 'Destination',
  whereToRun: 'Where to run',
  uploadIconTitle: 'Upload Icon',
  chooseIcon: 'Choose icon',
  deleteWarning: 'Associated published items will be moved to the Recycle Bin.',
  iconUploadFailed: (error: string) => `Unable to upload icon - ${error}`,
  iconUploaded: 'Icon successfully uploaded -',
  fetchFailed: (activity: string, message: string) => `An error occurred while ${activity}: ${message}`,
  defaultActivity: 'fetching the data',
  buttonFailed: (verb: 'save' | 'create' | 'delete' | 'disable', reason: string) =>
    `Unable to ${verb} publishing button - ${reason}`,
  configurationUnreadable: 'Error reading publishing button configuration',
  buttonsSaved: (count: number) => `${count} publishing buttons saved`,
  created: 'Publishing button created',
  saved: 'Publishing button saved',
  deleted: 'Publishing button deleted',
  disabled: 'Publishing button disabled',
  nameSaved: 'Publishing button name saved',
  hangingConnection: (pair: string) => `Hanging connection ${pair}`,
  invalidModule: (id: string) => `Invalid module ${id}`,
  tooFewInputs: (module: string) => `Too few inputs for ${module}`,
  tooManyInputs: (module: string) => `Too many inputs for ${module}`,
  cannotConnect: (from: string, to: string) => `${from} cannot be connected to ${to}`,
  mustGoToDestination: (module: string) => `${module} must go to a destination`,
  unknownModule: 'Unknown module',
  locationNotRunnable: (location: string, reason: string) =>
    `${location} will not be able to run this publishing button because ${reason}`,
  locationUnavailable: 'the location is not available',
  moduleNeedsUpgrade: (name: string) => `the module ${name} must be upgraded`,
  moduleNotInstalled: (name: string) => `the module ${name} is not installed`,
  actionFailed: (action: string, reason: string) => `Unable to perform action "${action}" - ${reason}`,
  unexpectedAction: (action: string) => `Unexpected response from server "${action}"`,
  required: 'This field is required',
  nameTooLong: 'Character limit exceeded',
  iconTooLarge: 'The icon is too large (at most 1 MB)',
  iconType: 'An icon must be a PNG, JPEG, GIF, WebP or SVG image',
} as const;

export const publishModuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(PUBLISH_MODULE_TYPES),
  selectable: z.boolean(),
  version: z.string(),
  schema: formSchemaSchema.describe('The options form of a node of this module'),
  form: z.record(z.string(), z.unknown()).nullable().describe('Form settings (title, submit label)'),
  defaultInputModuleIds: z.array(z.string()),
  minInputModules: z.number().int().min(0),
  maxInputModules: z.number().int().min(0),
  selectableInputModuleIds: z.array(z.string()),
  nonSelectableInputModuleIds: z.array(z.string()),
  iconId: z.string().nullable(),
});
export type PublishModule = z.infer<typeof publishModuleSchema>;

export const PUBLISH_LOCATION_TYPES = ['cloud', 'edge'] as const;
export const publishLocationRefSchema = z.strictObject({
  type: z.enum(PUBLISH_LOCATION_TYPES),
  id: z.number().int().nullable().describe('The edge server id; null for the cloud'),
});
export type PublishLocationRef = z.infer<typeof publishLocationRefSchema>;

/** A place a button can run, with the module versions installed there. */
export const publishLocationSchema = publishLocationRefSchema.extend({
  name: z.string(),
  available: z.boolean(),
  modules: z.record(z.string(), z.string()).describe('moduleId → installed version'),
});
export type PublishLocation = z.infer<typeof publishLocationSchema>;

const optionValues = z.record(z.string().max(100), z.unknown());

export const networkNodeSchema = z.strictObject({
  nodeLocalId: z.number().int().min(0),
  moduleId: z.string().min(1).max(100),
  options: optionValues.default({}),
});
export type NetworkNode = z.infer<typeof networkNodeSchema>;

/** A connection is a pair of node ids: [from, to]. */
export const connectionSchema = z.tuple([z.number().int().min(0), z.number().int().min(0)]);
export type Connection = z.infer<typeof connectionSchema>;

export const publishNetworkSchema = z.strictObject({
  nodes: z.array(networkNodeSchema).max(200),
  connections: z.array(connectionSchema).max(1000),
});
export type PublishNetwork = z.infer<typeof publishNetworkSchema>;

const subNetworkSchema = z.strictObject({
  destinationNode: z.number().int().min(0),
  processNodes: z.array(z.number().int().min(0)),
});

export const phaseSchema = z.strictObject({
  phase: z.strictObject({
    id: z.number().int().min(0),
    primaryNetwork: subNetworkSchema,
    secondaryNetworks: z.array(subNetworkSchema).default([]),
    preNodes: z.array(z.number().int().min(0)).default([]),
    postNodes: z.array(z.number().int().min(0)).default([]),
    network: publishNetworkSchema,
  }),
  location: publishLocationRefSchema,
  inputs: optionValues.default({}),
});
export type Phase = z.infer<typeof phaseSchema>;

export const roleRestrictionSchema = z.strictObject({
  roleId: idSchema,
  roleName: z.string(),
  allow: z.boolean(),
});
export type RoleRestriction = z.infer<typeof roleRestrictionSchema>;

const buttonName = z
  .string()
  .trim()
  .min(1, { error: PUBLISH_MESSAGES.required })
  .max(BUTTON_NAME_MAX, { error: PUBLISH_MESSAGES.nameTooLong });
const keepFor = z
  .number()
  .int()
  .nullable()
  .refine(isKeepForChoice, { error: 'Keep for is Ever or 2 to 30 days' });

/** The fields a client sends for a button (POST …/publishButtons, POST /api/publishButtons/{id}). */
export const publishButtonBodySchema = z.strictObject({
  name: buttonName,
  description: z.string().max(2000).default(''),
  keepFor: keepFor.default(null),
  enabled: z.boolean().default(true),
  iconId: idSchema.nullable().default(null),
  phases: z.array(phaseSchema).min(1).max(10),
  restrictions: z.array(roleRestrictionSchema).max(200).default([]),
  location: publishLocationRefSchema.default({ type: 'cloud', id: null }),
});
export type PublishButtonBody = z.infer<typeof publishButtonBodySchema>;

export const publishButtonSchema = publishButtonBodySchema.extend({
  id: z.number().int(),
  accountId: z.number().int().nullable(),
  siteId: z.number().int().nullable(),
  /** Flags the client shows; computed by the server with the contract's rules. */
  complicated: z.boolean(),
  bad: z.boolean(),
  problems: z.array(z.string()),
  createdAt: z.string(),
});
export type PublishButton = z.infer<typeof publishButtonSchema>;

/** POST /api/publishButtons/{id}: the button, or {id, name} (rename), or {enabled}. */
export const publishButtonUpdateSchema = z.union([
  publishButtonBodySchema.extend({ id: idSchema.optional() }),
  z.strictObject({ id: idSchema, name: buttonName }),
  z.strictObject({ enabled: z.boolean() }),
]);

export const publishButtonsQuerySchema = z.object({
  phases: z.enum(['expand']).optional(),
  includeAll: z
    .enum(['1', '0', 'true', 'false'])
    .optional()
    .transform((value) => value === '1' || value === 'true'),
});
export const publishModulesQuerySchema = z.object({ kind: z.enum(PUBLISH_MODULE_TYPES).optional() });

export const publishButtonStatusSchema = z.object({ numberOfPublishedItems: z.number().int() });

export const publishIconSchema = z.object({
  id: z.number().int(),
  from: z.enum(['account', 'other']),
  name: z.string(),
  url: z.string().describe('Where the image is served'),
});
export type PublishIcon = z.infer<typeof publishIconSchema>;
export const PUBLISH_ICON_MAX_BYTES = 1_000_000;
export const PUBLISH_ICON_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
] as const;

/** POST /api/{ctx}/publishModules/{moduleId}/actions/{action}. */
export const moduleActionBodySchema = z.strictObject({
  options: optionValues,
  data: z.strictObject({ state: z.unknown() }).default({ state: null }),
});

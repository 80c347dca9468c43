import { z } from 'zod';
import { idSchema } from '../http/input.ts';

/** spec2 §5, §9: an edge server's name is at most 60 characters. */
export const EDGE_NAME_MAX = 60;

/** spec2 §8: the messages of the edge servers and services pages. */
export const EDGE_MESSAGES = {
  required: 'This field is required',
  nameTooLong: 'Name too long',
  invalidContext: (context: string) => `Invalid context: ${context}`,
  edgeSaveFailed: (reason: string) => `There was an error saving the edge: ${reason}`,
  edgeDeleteFailed: (reason: string) => `There was an error deleting the edge: ${reason}`,
  edgeSaved: (name: string) => `The edge server "${name}" has been saved`,
  edgeCreated: (name: string) => `The edge server "${name}" has been created`,
  edgeDeleted: 'The edge server has been deleted',
  serviceTypesLoadFailed: (reason: string) => `There was an error loading the service types: ${reason}`,
  serviceTemplatesLoadFailed: (reason: string) =>
    `There was an error loading the service templates: ${reason}`,
  serviceSaveFailed: (reason: string) => `There was an error saving the service: ${reason}`,
  serviceCreateFailed: (reason: string) => `There was an error creating the service: ${reason}`,
  serviceDeleteFailed: (reason: string) => `There was an error deleting the service: ${reason}`,
  serviceSaved: (name: string) => `The service "${name}" has been saved`,
  serviceCreated: (name: string) => `The service "${name}" has been created`,
  serviceDeleted: 'The service has been deleted',
  /** spec2 §9: the placeholder of every select in this area. */
  selectPlaceholder: '--- Select an option ---',
} as const;

/** spec2 §2: edge pages run in one of these contexts. */
export const EDGE_CONTEXTS = ['cloud', 'site', 'user'] as const;
export type EdgeContext = (typeof EDGE_CONTEXTS)[number];

/** Reads the context of an edge page address; anything else is the spec's error. */
export const parseEdgeContext = (value: string | null | undefined): EdgeContext => {
  const context = value ?? 'user';
  if ((EDGE_CONTEXTS as readonly string[]).includes(context)) return context as EdgeContext;
  throw new Error(EDGE_MESSAGES.invalidContext(context));
};

/** spec2 §2: the edge servers list shows this type when the address names none. */
export const DEFAULT_EDGE_TYPE = 'server';

export const edgeServerTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type EdgeServerType = z.infer<typeof edgeServerTypeSchema>;

/** The kinds of edge server (GET /api/edgeServerTypes); the spec leaves their fields to us. */
export const EDGE_SERVER_TYPES: readonly EdgeServerType[] = [
  { id: 'server', name: 'Edge server', description: 'Ingests files and live streams at a site' },
  { id: 'relay', name: 'Relay', description: 'Receives streams and forwards them to edge servers' },
];

export const EDGE_LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/** The advanced options of an edge card (spec2 §3); their fields are ours to choose. */
export const edgeAdvancedOptionsSchema = z.strictObject({
  logLevel: z.enum(EDGE_LOG_LEVELS).default('info'),
  maxConcurrentIngests: z.number().int().min(1).max(32).default(2),
  /** 0 means no limit. */
  uploadLimitMbps: z.number().int().min(0).max(100_000).default(0),
  /** The host name or address senders reach the edge server at: shown in its stream endpoints' push URLs. */
  streamAddress: z
    .string()
    .trim()
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]-]*$/, 'Give a host name or an IP address')
    .default(''),
});
export type EdgeAdvancedOptions = z.infer<typeof edgeAdvancedOptionsSchema>;
export const DEFAULT_EDGE_ADVANCED_OPTIONS: EdgeAdvancedOptions = edgeAdvancedOptionsSchema.parse({});

export const edgeNameSchema = z
  .string()
  .trim()
  .min(1, { error: EDGE_MESSAGES.required })
  .max(EDGE_NAME_MAX, { error: EDGE_MESSAGES.nameTooLong });

export const edgeServerSchema = z.object({
  id: z.number().int(),
  userId: z.number().int().describe('The owner'),
  userName: z.string(),
  siteId: z.number().int().nullable(),
  siteName: z.string().nullable(),
  name: z.string(),
  type: z.string(),
  endpointVersions: z.record(z.string(), z.string()).describe('Agent version per endpoint type'),
  advancedOptions: edgeAdvancedOptionsSchema,
  /** The agent called the cloud within the last minute. */
  connected: z.boolean(),
  lastSeen: z.string().nullable(),
  supportConnection: z.boolean(),
  serviceCount: z.number().int(),
});
export type EdgeServer = z.infer<typeof edgeServerSchema>;

/** A create answers the agent's token once; only its hash is stored. */
export const edgeServerCreatedSchema = edgeServerSchema.extend({ agentToken: z.string() });

export const edgeServersQuerySchema = z.object({
  type: z.string().trim().min(1).max(40).default(DEFAULT_EDGE_TYPE),
  searchText: z.string().trim().max(200).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const edgeServerCreateSchema = z.strictObject({
  name: edgeNameSchema,
  type: z.string().trim().min(1).max(40).default(DEFAULT_EDGE_TYPE),
  siteId: idSchema.nullable().optional(),
  advancedOptions: edgeAdvancedOptionsSchema.optional(),
  /** A draft card's temporary id; ignored. */
  id: z.union([z.string(), z.number()]).optional(),
});

/** POST /api/edgeServers/{id}: the whole edge, or only id and name (a rename). */
export const edgeServerUpdateSchema = z.strictObject({
  id: idSchema,
  name: edgeNameSchema,
  type: z.string().trim().min(1).max(40).optional(),
  siteId: idSchema.nullable().optional(),
  advancedOptions: edgeAdvancedOptionsSchema.optional(),
  supportConnection: z.boolean().optional(),
});

/** The answer of the machine load and speed test actions. */
export const edgeActionResultSchema = z.object({
  action: z.string(),
  requestedAt: z.string(),
  status: z.enum(['requested', 'done']),
  result: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
});
export const EDGE_ACTIONS = ['machineLoad', 'runNewEdgeSpeedTest', 'getEdgeSpeedTestResults'] as const;
export type EdgeAction = (typeof EDGE_ACTIONS)[number];

/** The figures an agent answers machine load and a speed test with (apps/edge-agent commands.ts), in words. */
const EDGE_RESULT_WORDS: Readonly<Record<string, { label: string; unit?: string }>> = {
  load1: { label: 'Load, last minute' },
  load5: { label: 'Load, last 5 minutes' },
  load15: { label: 'Load, last 15 minutes' },
  cpus: { label: 'Processor cores' },
  freeMemoryMb: { label: 'Free memory', unit: 'MB' },
  totalMemoryMb: { label: 'Memory', unit: 'MB' },
  latencyMs: { label: 'Time to reach the cloud', unit: 'ms' },
  rounds: { label: 'Requests timed' },
  done: { label: 'Done' },
  error: { label: 'Error' },
};

/** One figure of an edge action's result as a person reads it: a label and the value with its unit. */
export const edgeResultInWords = (name: string, value: string | number | boolean | null) => {
  const words = EDGE_RESULT_WORDS[name];
  // A figure a newer agent answers with reads as words too: 'diskFreeGb' → 'Disk free gb'.
  const label =
    words?.label ?? name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  const shown = value === null ? '–' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
  return { label, value: words?.unit && value !== null ? `${shown} ${words.unit}` : shown };
};

// ---- services -------------------------------------------------------------------------------

export const optionDefinitionSchema = z.object({
  name: z.string(),
  label: z.string(),
  kind: z.enum(['text', 'number', 'boolean', 'select']),
  choices: z.array(z.string()).optional(),
  default: z.string(),
  required: z.boolean(),
});
export type OptionDefinition = z.infer<typeof optionDefinitionSchema>;

/** spec2 §3: service options travel as a map of option name to `{ value }`. */
export const serviceOptionsSchema = z.record(z.string().max(60), z.object({ value: z.string().max(2000) }));
export type ServiceOptions = z.infer<typeof serviceOptionsSchema>;

export const serviceTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  options: z.array(optionDefinitionSchema),
  endpointTypeIds: z.array(z.string()),
});
export type ServiceType = z.infer<typeof serviceTypeSchema>;

export const serviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  edgeServerId: z.number().int(),
  typeId: z.string(),
  serviceGroupId: z.number().int(),
  options: serviceOptionsSchema,
  endpointCount: z.number().int(),
});
export type Service = z.infer<typeof serviceSchema>;

/** spec2 §3: templates carry a generated id `template-N` and are marked as templates. */
export const serviceTemplateSchema = z.object({
  id: z.string().regex(/^template-\d+$/),
  isTemplate: z.literal(true),
  name: z.string(),
  typeId: z.string(),
  options: serviceOptionsSchema,
});
export type ServiceTemplate = z.infer<typeof serviceTemplateSchema>;
export const templateId = (n: number) => `template-${n}`;

const serviceNameSchema = z
  .string()
  .trim()
  .min(1, { error: EDGE_MESSAGES.required })
  .max(100, { error: EDGE_MESSAGES.nameTooLong });

export const serviceCreateSchema = z.strictObject({
  edgeServerId: idSchema,
  name: serviceNameSchema,
  typeId: z.string().min(1).max(60),
  options: serviceOptionsSchema.default({}),
  /** Another service's group, to pair it for fail-over; a new group when absent. */
  serviceGroupId: idSchema.nullable().optional(),
  id: z.union([z.string(), z.number()]).optional(),
});

/**
 * A fail-over group a new service may join (`serviceGroupId` on create): the services of one type that share
 * a group id, on edge servers the caller manages (GET /api/edgeServers/{id}/serviceGroups?typeId=).
 */
export const serviceGroupSchema = z.object({
  serviceGroupId: z.number().int(),
  services: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      edgeServerId: z.number().int(),
      edgeServerName: z.string(),
    }),
  ),
});
export type ServiceGroup = z.infer<typeof serviceGroupSchema>;
export const serviceGroupsQuerySchema = z.object({
  typeId: z.string().min(1).max(60).describe('The service type of the new service'),
});

/** POST /api/services/{id}: the service, or `{ name }`. */
export const serviceUpdateSchema = z.strictObject({
  id: idSchema.optional(),
  edgeServerId: idSchema.optional(),
  name: serviceNameSchema,
  typeId: z.string().min(1).max(60).optional(),
  options: serviceOptionsSchema.optional(),
});

export const SERVICE_ACTIONS = ['restart', 'rescan'] as const;
export const SERVICE_QUERIES = ['summary'] as const;

// ---- endpoints ------------------------------------------------------------------------------

/** spec2 §3: the endpoint types of each category. */
export const SOURCE_ENDPOINT_TYPES = [
  'LocalFolderEndpoint',
  'SmbEndpoint',
  'AvidISISEndpoint',
  'S3Endpoint',
  'AzureBlobEndpoint',
] as const;
export const STREAM_ENDPOINT_TYPES = [
  'HlsEndpoint',
  'RtmpPushEndpoint',
  'SdiEndpoint',
  'SrtEndpoint',
  'TeststreamEndpoint',
  'ZixiEndpoint',
] as const;
export type EndpointCategory = 'source' | 'stream' | 'none';

/** spec2 §3: source when the type is on the source list, stream when on the stream list, else none. */
export const endpointCategory = (typeId: string): EndpointCategory =>
  (SOURCE_ENDPOINT_TYPES as readonly string[]).includes(typeId)
    ? 'source'
    : (STREAM_ENDPOINT_TYPES as readonly string[]).includes(typeId)
      ? 'stream'
      : 'none';

/** spec2 §3: a new endpoint is named after its type. */
export const newEndpointName = (typeName: string) => `New ${typeName}`;

export const ENDPOINT_STATUSES = ['ok', 'disabled', 'warning', 'error'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export const endpointTypeSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.enum(['source', 'stream', 'none']),
  options: z.array(optionDefinitionSchema),
});
export type EndpointType = z.infer<typeof endpointTypeSchema>;

export const endpointOptionsSchema = z.record(
  z.string().max(60),
  z.union([z.string().max(2000), z.number(), z.boolean()]),
);

/**
 * spec2 §4: when a stream endpoint records. `scheduled`: on Start or a schedule only (the default); `always`:
 * the agent records whenever the endpoint is online (Stop ends one recording and the next begins), and people
 * may start and stop it too; `ondemand`: the agent records whenever the endpoint is online and leaves people no
 * control (a push's signal decides what is in the recording).
 */
export const AUTO_CAPTURE_MODES = ['always', 'scheduled', 'ondemand'] as const;
export type AutoCaptureMode = (typeof AUTO_CAPTURE_MODES)[number];

/** Whether the agent starts an endpoint's recording by itself (autoCapture always or ondemand). */
export const capturesByItself = (options: Readonly<Record<string, unknown>>) =>
  options.autoCapture === 'always' || options.autoCapture === 'ondemand';

export const endpointSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  typeId: z.string(),
  category: z.enum(['source', 'stream', 'none']),
  accountId: z.number().int().nullable(),
  siteId: z.number().int().nullable(),
  serviceId: z.number().int(),
  edgeServerId: z.number().int(),
  arrivalsFolderId: z.number().int().nullable(),
  workflowId: z.number().int().nullable(),
  options: endpointOptionsSchema,
  online: z.boolean(),
  status: z.enum(ENDPOINT_STATUSES),
  bad: z.boolean(),
  pendingSettings: z.boolean(),
  queueItemId: z.number().int().nullable(),
  recording: z.boolean(),
});
export type Endpoint = z.infer<typeof endpointSchema>;

const endpointNameSchema = z
  .string()
  .trim()
  .min(1, { error: EDGE_MESSAGES.required })
  .max(100, { error: EDGE_MESSAGES.nameTooLong });

const endpointFields = {
  name: endpointNameSchema,
  typeId: z.string().min(1).max(60),
  accountId: idSchema.nullable().optional(),
  siteId: idSchema.nullable().optional(),
  serviceId: idSchema.optional(),
  arrivalsFolderId: idSchema.nullable().optional(),
  workflowId: idSchema.nullable().optional(),
  options: endpointOptionsSchema.optional(),
  online: z.boolean().optional(),
  pendingSettings: z.boolean().optional(),
};

export const endpointCreateSchema = z.strictObject({
  ...endpointFields,
  id: z.union([z.string(), z.number()]).optional(),
});

/** POST /api/endpoints/{id}: the endpoint, or `{ name }`. */
export const endpointUpdateSchema = z.strictObject({
  ...endpointFields,
  id: idSchema.optional(),
  typeId: endpointFields.typeId.optional(),
});

export const ENDPOINT_ACTIONS = ['enable', 'disable', 'reset'] as const;

export const accountEndpointsQuerySchema = z.object({ withSite: z.enum(['0', '1']).default('0') });

import { z } from 'zod';
import { idSchema } from '../http/input.ts';
import {
  AUTO_CAPTURE_MODES,
  type EndpointType,
  endpointCategory,
  type OptionDefinition,
  type ServiceOptions,
  type ServiceTemplate,
  type ServiceType,
  SOURCE_ENDPOINT_TYPES,
  STREAM_ENDPOINT_TYPES,
  templateId,
} from './edge.ts';

/**
 * The catalogue of what an edge server can run: service types, endpoint types with their option
 * definitions, and service templates. The spec leaves their fields to us (spec2 §3 "fields not shown");
 * the type ids of endpoints are the spec's.
 */

const text = (name: string, label: string, options: Partial<OptionDefinition> = {}): OptionDefinition => ({
  name,
  label,
  kind: 'text',
  default: '',
  required: false,
  ...options,
});
const number = (name: string, label: string, value: number, required = true): OptionDefinition => ({
  name,
  label,
  kind: 'number',
  default: String(value),
  required,
});
const flag = (name: string, label: string, value: boolean): OptionDefinition => ({
  name,
  label,
  kind: 'boolean',
  default: String(value),
  required: false,
});
const select = (
  name: string,
  label: string,
  choices: readonly string[],
  value: string,
): OptionDefinition => ({
  name,
  label,
  kind: 'select',
  choices: [...choices],
  default: value,
  required: true,
});

/** Every stream endpoint has a capture mode; spec2 §4: 'ondemand' leaves control to the agent. */
const autoCapture = select('autoCapture', 'Capture', AUTO_CAPTURE_MODES, 'scheduled');
const fileMask = text('fileMask', 'File mask', { default: '*' });

const ENDPOINT_TYPE_OPTIONS: Record<string, { name: string; options: OptionDefinition[] }> = {
  LocalFolderEndpoint: {
    name: 'Local folder',
    options: [
      text('path', 'Folder path', { required: true }),
      flag('recursive', 'Include sub-folders', true),
      fileMask,
    ],
  },
  SmbEndpoint: {
    name: 'SMB share',
    options: [
      text('share', 'Share (//server/share)', { required: true }),
      text('path', 'Folder in the share'),
      text('username', 'User name'),
      text('password', 'Password'),
      text('port', 'Port (empty for 445)'),
      flag('recursive', 'Include sub-folders', true),
      fileMask,
    ],
  },
  AvidISISEndpoint: {
    name: 'Avid ISIS workspace',
    options: [
      text('host', 'System director host', { required: true }),
      text('workspace', 'Workspace', { required: true }),
      text('mountPath', 'Workspace as mounted on the edge server', { required: true }),
      text('username', 'User name'),
      text('password', 'Password'),
    ],
  },
  S3Endpoint: {
    name: 'Amazon S3 bucket',
    options: [
      text('bucket', 'Bucket', { required: true }),
      text('region', 'Region', { default: 'us-east-1' }),
      text('prefix', 'Key prefix'),
      text('accessKeyId', 'Access key id'),
      text('secretAccessKey', 'Secret access key'),
      text('endpoint', 'Endpoint URL (S3-compatible stores; empty for AWS)'),
      flag('recursive', 'Include sub-folders', true),
      fileMask,
    ],
  },
  AzureBlobEndpoint: {
    name: 'Azure Blob container',
    options: [
      text('accountName', 'Storage account', { required: true }),
      text('container', 'Container', { required: true }),
      text('prefix', 'Blob prefix'),
      text('sasToken', 'SAS token'),
      text('blobEndpoint', 'Blob service URL (empty for the account’s own)'),
      flag('recursive', 'Include sub-folders', true),
      fileMask,
    ],
  },
  HlsEndpoint: {
    name: 'HLS stream',
    options: [text('url', 'Playlist URL', { required: true }), autoCapture],
  },
  RtmpPushEndpoint: {
    name: 'RTMP push',
    options: [
      number('port', 'Listen port', 1935),
      text('streamKey', 'Stream key', { required: true }),
      autoCapture,
    ],
  },
  SdiEndpoint: {
    name: 'SDI input',
    options: [
      text('device', 'Capture device', { default: '0' }),
      number('input', 'Input number', 1),
      select('videoFormat', 'Video format', ['1080i50', '1080i5994', '1080p25', '720p50'], '1080i50'),
      autoCapture,
    ],
  },
  SrtEndpoint: {
    name: 'SRT stream',
    options: [
      select('mode', 'Mode', ['listener', 'caller'], 'listener'),
      text('host', 'Host (caller mode)'),
      number('port', 'Port', 9000),
      number('latencyMs', 'Latency (ms)', 120),
      text('passphrase', 'Passphrase'),
      autoCapture,
    ],
  },
  TeststreamEndpoint: {
    name: 'Test stream',
    options: [
      select('pattern', 'Pattern', ['bars', 'smpte', 'countdown'], 'bars'),
      number('frameRate', 'Frame rate', 25),
      autoCapture,
    ],
  },
  ZixiEndpoint: {
    name: 'Zixi stream',
    options: [
      text('host', 'Broadcaster host', { required: true }),
      text('streamId', 'Stream id', { required: true }),
      text('password', 'Password'),
      number('latencyMs', 'Latency (ms)', 1000),
      autoCapture,
    ],
  },
};

/** Every endpoint type, source types first (spec2 §3). */
export const ENDPOINT_TYPES: readonly EndpointType[] = [
  ...SOURCE_ENDPOINT_TYPES,
  ...STREAM_ENDPOINT_TYPES,
].map((id) => {
  const entry = ENDPOINT_TYPE_OPTIONS[id] as { name: string; options: OptionDefinition[] };
  return { id, name: entry.name, category: endpointCategory(id), options: entry.options };
});

export const findEndpointType = (id: string) => ENDPOINT_TYPES.find((type) => type.id === id);

/** The kinds of service an edge server runs; each takes endpoints of some types. */
export const SERVICE_TYPES: readonly ServiceType[] = [
  {
    id: 'FileIngestService',
    name: 'File ingest',
    description: 'Watches folders and buckets and ingests the files that arrive',
    options: [
      number('scanIntervalSeconds', 'Scan interval (s)', 10),
      number('settleSeconds', 'Wait for files to settle (s)', 5),
      number('maxConcurrentFiles', 'Files at a time', 2),
    ],
    endpointTypeIds: [...SOURCE_ENDPOINT_TYPES],
  },
  {
    id: 'StreamIngestService',
    name: 'Stream ingest',
    description: 'Records live streams and SDI inputs into the ingest queue',
    options: [
      number('segmentSeconds', 'Segment length (s)', 6),
      number('signalLossSeconds', 'End a recording after a signal loss of (s)', 60),
      select('recordingFormat', 'Recording format', ['mp4', 'mxf', 'ts'], 'mp4'),
      flag('keepRecordings', 'Keep recordings on the edge', false),
    ],
    endpointTypeIds: [...STREAM_ENDPOINT_TYPES],
  },
];

export const findServiceType = (id: string) => SERVICE_TYPES.find((type) => type.id === id);

/** The service types an edge server of a type can run: relays only carry streams. */
export const serviceTypesForEdgeType = (edgeType: string): readonly ServiceType[] =>
  edgeType === 'relay'
    ? SERVICE_TYPES.filter((type) => type.endpointTypeIds.every((id) => endpointCategory(id) === 'stream'))
    : SERVICE_TYPES;

const TEMPLATES: readonly Omit<ServiceTemplate, 'id' | 'isTemplate'>[] = [
  {
    name: 'Watch folders',
    typeId: 'FileIngestService',
    options: { scanIntervalSeconds: { value: '10' } },
  },
  {
    name: 'Cloud buckets',
    typeId: 'FileIngestService',
    options: { scanIntervalSeconds: { value: '60' }, settleSeconds: { value: '30' } },
  },
  {
    name: 'Live recorder',
    typeId: 'StreamIngestService',
    options: { segmentSeconds: { value: '6' }, recordingFormat: { value: 'mp4' } },
  },
];

/** spec2 §3: templates get a generated id `template-N` (from 1) and are marked as templates. */
export const serviceTemplatesForEdgeType = (edgeType: string): ServiceTemplate[] => {
  const allowed = new Set(serviceTypesForEdgeType(edgeType).map((type) => type.id));
  return TEMPLATES.filter((template) => allowed.has(template.typeId)).map((template, index) => ({
    ...template,
    id: templateId(index + 1),
    isTemplate: true as const,
  }));
};

// ---- option values -------------------------------------------------------------------------------

export const OPTION_MESSAGES = {
  unknown: (name: string) => `Unknown option: ${name}`,
  required: (label: string) => `${label} is required`,
  notNumber: (label: string) => `${label} must be a number`,
  notBoolean: (label: string) => `${label} must be true or false`,
  notChoice: (label: string, choices: readonly string[]) => `${label} must be one of ${choices.join(', ')}`,
} as const;

type OptionValue = string | number | boolean;
export type OptionProblems = Record<string, string>;

const problemOf = (definition: OptionDefinition, value: OptionValue): string | undefined => {
  const textValue = String(value).trim();
  if (textValue === '') return definition.required ? OPTION_MESSAGES.required(definition.label) : undefined;
  switch (definition.kind) {
    case 'number':
      return Number.isFinite(Number(textValue)) ? undefined : OPTION_MESSAGES.notNumber(definition.label);
    case 'boolean':
      return textValue === 'true' || textValue === 'false'
        ? undefined
        : OPTION_MESSAGES.notBoolean(definition.label);
    case 'select':
      return definition.choices?.includes(textValue)
        ? undefined
        : OPTION_MESSAGES.notChoice(definition.label, definition.choices ?? []);
    case 'text':
      return undefined;
  }
};

/** Whether values fit their definitions: unknown names, missing required values, wrong kinds. */
export const optionProblems = (
  definitions: readonly OptionDefinition[],
  values: Record<string, OptionValue>,
): OptionProblems => {
  const problems: OptionProblems = {};
  const known = new Map(definitions.map((definition) => [definition.name, definition]));
  for (const name of Object.keys(values))
    if (!known.has(name)) problems[name] = OPTION_MESSAGES.unknown(name);
  for (const definition of definitions) {
    const value = values[definition.name] ?? definition.default;
    const problem = problemOf(definition, value);
    if (problem) problems[definition.name] = problem;
  }
  return problems;
};

/** Endpoint options with the defaults of the options not given, typed by their definitions. */
export const endpointOptionsWithDefaults = (
  definitions: readonly OptionDefinition[],
  values: Record<string, OptionValue>,
): Record<string, OptionValue> => {
  const result: Record<string, OptionValue> = {};
  for (const definition of definitions) {
    const value = values[definition.name] ?? definition.default;
    result[definition.name] =
      definition.kind === 'number' && String(value).trim() !== ''
        ? Number(value)
        : definition.kind === 'boolean'
          ? String(value) === 'true'
          : typeof value === 'string'
            ? value
            : String(value);
  }
  return result;
};

/** Service options (spec2 §3: name → `{ value }`) as plain values, for the checks above. */
export const serviceOptionValues = (options: ServiceOptions): Record<string, string> =>
  Object.fromEntries(Object.entries(options).map(([name, option]) => [name, option.value]));

/** Service options with the defaults of the options not given. */
export const serviceOptionsWithDefaults = (
  definitions: readonly OptionDefinition[],
  options: ServiceOptions,
): ServiceOptions =>
  Object.fromEntries(
    definitions.map((definition) => [
      definition.name,
      { value: options[definition.name]?.value ?? definition.default },
    ]),
  );

// ---- service queries ------------------------------------------------------------------------------

/** GET /api/services/{id}/queries/summary: the `data` parameter, JSON of this shape. */
export const serviceSummaryDataSchema = z.strictObject({
  /** Count only the endpoints of this account. */
  accountId: idSchema.optional(),
});

export const serviceSummarySchema = z.object({
  serviceId: z.number().int(),
  endpointCount: z.number().int(),
  onlineCount: z.number().int(),
  disabledCount: z.number().int(),
  /** Ingest queue items of the service's endpoints waiting to be ingested. */
  queuedCount: z.number().int(),
  ingestingCount: z.number().int(),
});
export type ServiceSummary = z.infer<typeof serviceSummarySchema>;

export const MSG_QUERY_DATA_NOT_JSON = 'The data parameter must be JSON';

// ---- rules the server checks ----------------------------------------------------------------------

export const EDGE_RULE_MESSAGES = {
  idMismatch: 'The id in the body does not match the address',
  unknownEdgeType: (type: string) => `Unknown edge server type: ${type}`,
  unknownServiceType: (typeId: string) => `Unknown service type: ${typeId}`,
  serviceTypeNotForEdge: (typeId: string) => `This edge server cannot run services of type ${typeId}`,
  serviceMoved: 'A service cannot move to another edge server',
  serviceTypeInUse: (typeId: string) =>
    `The service has endpoints of type ${typeId}, which the new type does not take`,
  unknownServiceGroup: 'Unknown service group',
  serviceGroupType: 'A service group holds services of one type',
  endpointTypeNotForService: (typeId: string) => `The service does not take endpoints of type ${typeId}`,
  endpointMoved: 'An endpoint cannot move to another service',
  accountNotInSite: 'The account is not in this site',
  folderNotOfAccount: "The arrivals folder must belong to the endpoint's account",
  workflowNotOfAccount: "The workflow must belong to the endpoint's account",
  /**
   * Pointing an endpoint at an account or one of its arrivals folders sends media into the account: it
   * needs the right of the arrivals-folder assignment (a manager of the account), on create and on save.
   */
  targetNeedsAccountManager: "Only a manager of the account may send an endpoint's media to it",
  /**
   * The agent's side of the same rule: an edge server lands media only in accounts its owner manages, or,
   * at a site, in accounts of that site's reseller. Such an endpoint is held (the agent is not given it, and
   * this is its status); a queue, a start or a landing through it is refused.
   */
  edgeMayNotLandInAccount:
    'This edge server may not send media to the account: it is not the edge server of a manager of the account, nor of a site of its reseller',
} as const;

/** POST /api/edgeServers/{id}/supportConnection: turns the support connection on, or off with false. */
export const edgeSupportConnectionSchema = z.strictObject({
  supportConnection: z.boolean().default(true),
});

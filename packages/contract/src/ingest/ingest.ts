import { z } from 'zod';
import { ENDPOINT_STATUSES, type EndpointStatus } from '../edge/edge.ts';
import { INT4_MAX, idSchema, MSG_NUMBER_OUT_OF_RANGE } from '../http/input.ts';
import { cleanName } from '../names/clean-name.ts';

/** spec2 §4: every status an ingest queue item can be in. */
export const INGEST_STATUSES = [
  'queued',
  'actionRequired',
  'duplicated',
  'failed',
  'ingested',
  'ingesting',
  'missing',
  'deleted',
  'unknown',
] as const;
export type IngestStatus = (typeof INGEST_STATUSES)[number];

/** Each status as a person reads it on screen; the spec's values stay on the wire. */
export const INGEST_STATUS_WORDS: Readonly<Record<IngestStatus, string>> = {
  queued: 'queued',
  actionRequired: 'action required',
  duplicated: 'duplicated',
  failed: 'failed',
  ingested: 'ingested',
  ingesting: 'ingesting',
  missing: 'missing',
  deleted: 'deleted',
  unknown: 'unknown',
};

/** What a person may set an item to, by hand; 'abort' stops an item that is ingesting. */
export type ManualStatusChange = IngestStatus | 'abort';

/** spec2 §4: the allowed manual status changes. */
export const MANUAL_STATUS_CHANGES: Readonly<Record<IngestStatus, readonly ManualStatusChange[]>> = {
  queued: ['actionRequired'],
  ingested: ['queued'],
  failed: ['queued', 'actionRequired'],
  missing: ['queued', 'actionRequired'],
  duplicated: ['queued'],
  actionRequired: ['queued'],
  ingesting: ['abort'],
  deleted: [],
  unknown: [],
};

/** The part of a queue item the rules of spec2 §4 look at. */
export type QueueItemFacts = {
  status: IngestStatus;
  isStream: boolean;
  isSchedule: boolean;
  endpointStatus?: EndpointStatus | null;
};

/** Stream items cannot change status by hand. */
export const manualStatusChanges = (item: QueueItemFacts): readonly ManualStatusChange[] =>
  item.isStream ? [] : MANUAL_STATUS_CHANGES[item.status];

export const canChangeStatus = (item: QueueItemFacts, to: ManualStatusChange) =>
  manualStatusChanges(item).includes(to);

export const canTrash = (item: QueueItemFacts) =>
  item.isStream
    ? item.isSchedule || item.status === 'failed' || item.status === 'ingested'
    : ['actionRequired', 'duplicated', 'failed', 'ingested'].includes(item.status);

export const canSendToTop = (item: QueueItemFacts) =>
  !item.isStream && ['queued', 'actionRequired', 'duplicated'].includes(item.status);

const UNSTARTABLE_ENDPOINT_STATUSES: readonly (EndpointStatus | null | undefined)[] = [
  'disabled',
  'error',
  'warning',
];

export const canStartStream = (item: QueueItemFacts) =>
  item.isStream &&
  item.status === 'actionRequired' &&
  !UNSTARTABLE_ENDPOINT_STATUSES.includes(item.endpointStatus);

export const canStopStream = (item: QueueItemFacts) => item.isStream && item.status === 'ingesting';

export const canAbort = (item: QueueItemFacts) => !item.isStream && item.status === 'ingesting';

export const canEdit = (item: QueueItemFacts) => item.status === 'actionRequired' || item.isSchedule;

/** A schedule is made from an actionRequired stream or from an existing schedule. */
export const canSchedule = (item: QueueItemFacts) =>
  item.isSchedule || (item.isStream && item.status === 'actionRequired');

export const hasLog = (item: QueueItemFacts) => ['failed', 'ingesting', 'ingested'].includes(item.status);

/** spec2 §4: monitoring needs a known endpoint type, a queue item and recording on. */
export const canMonitor = (facts: {
  endpointTypeKnown: boolean;
  queueItemId: number | null;
  recording: boolean;
}) => facts.endpointTypeKnown && facts.queueItemId != null && facts.recording;

export const canControl = (options: Record<string, unknown>) => options.autoCapture !== 'ondemand';

/** spec2 §3: a scheduled item's priority is the negative of its start time in epoch seconds. */
export const schedulePriority = (scheduledStartTime: Date | string) =>
  -Math.floor(new Date(scheduledStartTime).getTime() / 1000);

/** The queue item is playable when both proxy dimensions are known. */
export const isPlayable = (item: { proxyWidth: number | null; proxyHeight: number | null }) =>
  item.proxyWidth != null && item.proxyHeight != null;

/** spec2 §9. */
export const INGEST_LOOKUP_PAGE_SIZE = 100;
export const FIRST_RANK = 1;
/** spec2 §2, §9: the auto-updating image (thumbnail) ticks every second and retries a failure after 30 s. */
export const THUMBNAIL_TICK_MS = 1000;
export const THUMBNAIL_RETRY_MS = 30_000;

/** spec2 §2: the views of an ingest queue page. */
export const INGEST_QUEUE_MODES = ['files', 'streams', 'unprocessed'] as const;
export type IngestQueueMode = (typeof INGEST_QUEUE_MODES)[number];

/** spec2 §8: the alerts of the ingest queue and unprocessed files. */
export const INGEST_MESSAGES = {
  startFailed: (error: string) => `Unable to start stream - ${error}`,
  stopFailed: (error: string) => `Unable to stop stream - ${error}`,
  forceFailed: (error: string) => `Unable to force items ${error}`,
  rescanFailed: (error: string) => `Unable to rescan multiple items ${error}`,
  deleted: (id: number | string) => `QueueItem: ${id} deleted`,
  fetchFailed: (activity: string, error: string) => `An error occurred while ${activity}: ${error}`,
  defaultActivity: 'fetching the data',
  statusChangeRefused: (from: string, to: string) => `An item in ${from} cannot be set to ${to}`,
  streamStatusRefused: 'Stream items cannot change status by hand',
  startRefused:
    'Only a stream in actionRequired whose endpoint is not disabled, in error or in warning can start',
  stopRefused: 'Only a stream that is ingesting can stop',
  editRefused: 'Only an item in actionRequired or a schedule can be renamed',
  scheduleRefused: 'A schedule is made from a stream in actionRequired or from another schedule',
  startTimeRequired: 'A schedule needs a start time',
  statusRequired: 'A status is required',
  trashRefused: (status: string) => `An item in ${status} cannot be deleted`,
  notInQueue: (id: number) => `Item ${id} is not in this queue`,
  idMismatch: 'The id in the body must match the address',
  aborted: 'Aborted',
  badPriorityMap: 'priorityMap must be a JSON object of endpoint ids to numbers',
  controlRefused: 'This stream records on demand: the edge server starts and stops it, not people',
  /** Why a schedule did not start at its time (issue 16): the item fails with it. */
  scheduleEdgeNotConnected: (edge: string) => `Edge server ${edge} was not connected at the scheduled start`,
  scheduleEndpointGone: 'The schedule’s endpoint no longer exists',
  scheduleEndpointOffline: (endpoint: string, why: string) =>
    `Endpoint ${endpoint} was offline at the scheduled start: ${why}`,
  scheduleEndpointBusy: (endpoint: string) =>
    `Endpoint ${endpoint} was already recording at the scheduled start`,
  scheduleNotTaken: (edge: string) => `Edge server ${edge} did not start the schedule before its end`,
} as const;

/** Status texts of the status display (spec2 §3, §8: pbnotconn1 pbnotconn2 reads 'Edge server not connected'). */
export const STATUS_MESSAGES = {
  edgeConnected: 'Edge server connected',
  edgeNotConnected: 'Edge server not connected',
  serviceRunning: 'Running',
  serviceEdgeDown: 'Its edge server is not connected',
  serviceEndpointsInError: (n: number) => `${n} endpoint${n === 1 ? '' : 's'} in error`,
  serviceEndpointsInWarning: (n: number) => `${n} endpoint${n === 1 ? '' : 's'} with a warning`,
  endpoint: {
    ok: 'Online',
    offline: 'Offline',
    disabled: 'Endpoint disabled',
    warning: 'Endpoint has a warning',
    error: 'Endpoint in error',
    /** DESIGN: nothing claims a state nobody measured. */
    notReported: 'Not yet reported by its edge server',
    edgeDown: 'Its edge server is not connected',
  },
} as const;

export const ingestQueueItemSchema = z.object({
  id: z.number().int(),
  status: z.enum(INGEST_STATUSES),
  isStream: z.boolean(),
  isSchedule: z.boolean(),
  endpointId: z.number().int().nullable(),
  endpoint: z
    .object({
      id: z.number().int(),
      name: z.string(),
      serviceId: z.number().int(),
      category: z.enum(['source', 'stream', 'none']),
      status: z.enum(ENDPOINT_STATUSES),
      /** spec2 §4: whether people may start and stop its stream (not when autoCapture is 'ondemand'). */
      controllable: z.boolean(),
      /** Whether the endpoint records this item now (spec2 §4 monitoring: its recording flag and queue item). */
      recording: z.boolean(),
    })
    .nullable(),
  /**
   * The node a stream being recorded plays live from (`lifestream` media in its arrivals folder), while it
   * records; null otherwise. `path` is the node's path in its account.
   */
  liveNode: z
    .object({ id: z.number().int(), mediaId: z.number().int(), path: z.string(), accountName: z.string() })
    .nullable(),
  edgeServerId: z.number().int(),
  serviceGroupId: z.number().int().nullable(),
  serviceGroupServices: z.array(z.object({ id: z.number().int(), edgeId: z.number().int() })),
  accountId: z.number().int().nullable(),
  arrivalsFolderId: z.number().int().nullable(),
  queueId: z.string(),
  reelName: z.string(),
  diskLabel: z.string(),
  clipName: z.string(),
  scheduledStartTime: z.string().nullable(),
  priority: z.number().int(),
  rank: z.number().int(),
  whenQueued: z.string(),
  whenStarted: z.string().nullable(),
  whenFinished: z.string().nullable(),
  duration: z.number().nullable().describe('Seconds'),
  fileSize: z.number().nullable().describe('Bytes: of the file, or recorded so far while a stream records'),
  proxyWidth: z.number().int().nullable(),
  proxyHeight: z.number().int().nullable(),
  /** Percent done while ingesting (the agent's report); null otherwise. */
  progress: z.number().int().nullable(),
  error: z.string().nullable(),
  forced: z.boolean(),
  /** The file or stream name as the edge saw it. */
  sourceName: z.string(),
});
export type IngestQueueItem = z.infer<typeof ingestQueueItemSchema>;

/** The live node a person may monitor a queue item on (spec2 §4: canMonitor), or null. */
export const monitoredNode = (item: Pick<IngestQueueItem, 'id' | 'endpoint' | 'liveNode'>) =>
  canMonitor({
    endpointTypeKnown: item.endpoint?.category === 'stream',
    queueItemId: item.id,
    recording: item.endpoint?.recording === true,
  })
    ? item.liveNode
    : null;

export const INGEST_SORT_KEYS = [
  'id',
  'rank',
  'priority',
  'status',
  'clipName',
  'reelName',
  'whenQueued',
  'whenStarted',
  'whenFinished',
  'scheduledStartTime',
] as const;

/**
 * `filters` is a `|`-separated list of statuses and kinds (`files`, `streams`, `schedules`), as in
 * 'queued|streams'; statuses are OR-ed together, kinds too, and the two groups AND-ed.
 */
export const INGEST_FILTER_KINDS = ['files', 'streams', 'schedules'] as const;

export const ingestQueueQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(1000).default(INGEST_LOOKUP_PAGE_SIZE),
  sortKey: z.enum(INGEST_SORT_KEYS).default('rank'),
  sortDirection: z.coerce
    .number()
    .int()
    .refine((d) => d === 1 || d === -1)
    .default(1),
  filters: z
    .string()
    .max(500)
    .default('')
    .refine(
      (value) =>
        value === '' ||
        value
          .split('|')
          .every((token) =>
            ([...INGEST_STATUSES, ...INGEST_FILTER_KINDS] as readonly string[]).includes(token),
          ),
      { error: 'Unknown filter' },
    ),
  search: z.string().trim().max(200).optional(),
  extendedSearch: z.enum(['0', '1']).default('0'),
  /** Items changed after this version only (incremental updates). */
  sinceVersion: z.coerce.number().int().min(0).optional(),
  /** JSON map of endpoint id to a priority boost; accepted and applied to the order. */
  priorityMap: z.string().max(10_000).optional(),
  /** Comma-separated endpoint ids to keep. */
  edgesEndpointIds: z
    .string()
    .max(10_000)
    .regex(/^\d+(,\d+)*$/)
    .refine((ids) => ids.split(',').every((id) => Number(id) <= INT4_MAX), { error: MSG_NUMBER_OUT_OF_RANGE })
    .optional(),
});
export type IngestQueueQuery = z.infer<typeof ingestQueueQuerySchema>;

export const ingestQueuePageSchema = z.object({
  results: z.array(ingestQueueItemSchema),
  total: z.number().int(),
  channel: z.string(),
  version: z.number().int(),
});

export const INGEST_ITEM_ACTIONS = ['start', 'stop', 'reschedule', 'status', 'abort'] as const;

/** POST /api/ingestQueueItems/{id}: a status, an action, new names or command parameters. */
export const ingestQueueItemUpdateSchema = z.strictObject({
  id: idSchema,
  status: z.enum([...INGEST_STATUSES, 'abort']).optional(),
  action: z.enum(INGEST_ITEM_ACTIONS).optional(),
  reelName: z.string().max(200).optional(),
  diskLabel: z.string().max(200).optional(),
  clipName: z.string().overwrite(cleanName).max(200).optional(),
  /** Seconds, for start and reschedule; null (as the item reads when it has none) is none. */
  duration: z
    .number()
    .min(0)
    .max(7 * 24 * 3600)
    .nullable()
    .optional(),
  startTime: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const ingestStatusChangesSchema = z
  .array(z.strictObject({ id: idSchema, status: z.enum([...INGEST_STATUSES, 'abort']) }))
  .min(1)
  .max(1000);

/** spec2 §7: trash ids read 'edgeServerId:endpointId:queueId'. */
export const QUEUE_TRASH_ID = /^\d+:\d+:[A-Za-z0-9._-]+$/;
export const ingestTrashSchema = z.strictObject({
  ids: z.array(z.string().regex(QUEUE_TRASH_ID)).min(1).max(1000),
  /** trash: mark deleted (restorable by setting a status); purge: remove the rows. */
  mode: z.enum(['trash', 'purge']).default('trash'),
});

export const rankEntrySchema = z.strictObject({
  queueItemId: idSchema,
  rank: z.number().int().min(FIRST_RANK).max(INT4_MAX),
});
export const rankEntriesSchema = z.array(rankEntrySchema).min(1).max(10_000);

export const ingestQueueItemActionsSchema = z.object({
  statusChanges: z.record(z.string(), z.array(z.string())),
  actions: z.array(z.string()),
});

export const thumbnailQuerySchema = z.object({
  width: z.coerce.number().int().min(16).max(1920).default(320),
  height: z.coerce.number().int().min(9).max(1080).default(180),
});

export const unprocessedFileSchema = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  path: z.string(),
  status: z.literal('missingFiles'),
  forced: z.boolean(),
  firstSeen: z.string(),
});
export type UnprocessedFile = z.infer<typeof unprocessedFileSchema>;

/** An unprocessed file's status as a person reads it (spec2's value stays on the wire). */
export const UNPROCESSED_STATUS_WORDS: Readonly<Record<UnprocessedFile['status'], string>> = {
  missingFiles: 'missing files',
};

export const unprocessedForceSchema = z
  .array(z.strictObject({ id: idSchema, forced: z.boolean() }))
  .min(1)
  .max(1000);
export const unprocessedTrashSchema = z.array(idSchema).min(1).max(1000);

// ---- status ---------------------------------------------------------------------------------

export const statusItemSchema = z.object({
  name: z.string(),
  type: z.enum(['EdgeServer', 'Service', 'Endpoint']),
  status: z.string().describe("'error' or another"),
  message: z.string(),
  links: z.object({
    edgeServer: z.string().optional(),
    service: z.string().optional(),
  }),
});
export type StatusItem = z.infer<typeof statusItemSchema>;

export const statusFetchFailed = (context: string, status: number | string, message: string) =>
  `An error occurred fetching the ${context} status: ${status} ${message}`;

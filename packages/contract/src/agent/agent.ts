import { z } from 'zod';
import { endpointOptionsSchema } from '../edge/edge.ts';
import { idSchema } from '../http/input.ts';

/**
 * The edge agent's own calls (DESIGN.md: "talks to the cloud only through the HTTP API with its own
 * token"). They live under /api/agent, take `Authorization: Bearer {agentToken}` and never a session.
 */
export const AGENT_PATH_PREFIX = '/api/agent/';
export const AGENT_AUTH_SCHEME = 'Bearer';

/** The agent calls in at least this often; an edge not heard from for a minute is not connected. */
export const AGENT_HEARTBEAT_SECONDS = 5;
export const EDGE_CONNECTED_WITHIN_SECONDS = 60;
/**
 * How long a machine load or speed test request waits for a connected edge server's answer: the agent picks
 * the request up when it next calls in and answers on the call after at the latest.
 */
export const EDGE_ACTION_WAIT_SECONDS = 2 * AGENT_HEARTBEAT_SECONDS + 2;

export const MSG_AGENT_TOKEN = 'A valid edge server token is required';

/** spec2 §3: the statuses an endpoint can be in; the agent measures all but `disabled` (a person's choice). */
export const ENDPOINT_HEALTH_STATUSES = ['ok', 'warning', 'error', 'disabled'] as const;
export type EndpointHealthStatus = (typeof ENDPOINT_HEALTH_STATUSES)[number];

/** What the agent measured of one endpoint at this heartbeat (DESIGN: health is reported, not assumed). */
export const endpointReportSchema = z.strictObject({
  endpointId: idSchema,
  /** Whether the agent is reading (or recording) it now. */
  online: z.boolean(),
  status: z.enum(ENDPOINT_HEALTH_STATUSES),
  /** Why, in words a person can act on ('Folder /x does not exist', 'Bucket media-in unreachable: ...'). */
  message: z.string().max(1000),
  /**
   * The online switch the agent measured under (the endpoint's settings as it has them): a saved change is
   * pending until the agent reports under it, whether or not the endpoint then works. Older agents leave it
   * out, and their `online` stands for it.
   */
  switchedOn: z.boolean().optional(),
});
export type EndpointReport = z.infer<typeof endpointReportSchema>;

/**
 * What a source endpoint without an account reports (a warning): its files would land in no media tree, so
 * they wait where they are, untouched, until one is set. (Without an arrivals folder they land in the
 * account's `/Arrivals/Arrivals`, a place people find.)
 */
export const endpointDestinationMissing = (endpoint: { accountId: number | null }) =>
  endpoint.accountId == null
    ? 'Files wait here: set an account and an arrivals folder for this endpoint to ingest them'
    : undefined;

export const agentHeartbeatSchema = z.strictObject({
  agentVersion: z.string().max(40),
  endpointVersions: z.record(z.string().max(60), z.string().max(40)).default({}),
  /** One report per endpoint the cloud gave the agent at the previous heartbeat. */
  endpointReports: z.array(endpointReportSchema).max(10_000).default([]),
});

export const agentEndpointSchema = z.object({
  id: z.number().int(),
  serviceId: z.number().int(),
  name: z.string(),
  typeId: z.string(),
  options: endpointOptionsSchema,
  status: z.string(),
  accountId: z.number().int().nullable(),
  arrivalsFolderId: z.number().int().nullable(),
  /** The options of the endpoint's service as plain values (scan interval, settle time, files at a time). */
  serviceOptions: z.record(z.string(), z.string()),
  /** Whether people want it read (the Online switch); false: the agent leaves it alone and reports so. */
  online: z.boolean(),
  /**
   * How its files are ingested, resolved by the cloud from the chain endpoint workflow -> arrivals folder
   * ingest format -> account ingest formats (spec1 §5). Null while the endpoint feeds no account.
   */
  ingest: z
    .object({
      /** Stored ingest format string, e.g. 'PAL_wide' or 'NTSC_wide_720'. */
      format: z.string(),
      /** The account's max ingest resolution: no proxy is taller than this. */
      maxResolution: z.number().int(),
      /** Make a proxy (and thumbnails); false for archive folders. */
      makeProxy: z.boolean(),
      /** Upload the source file to the cloud too (arrivals folder types that keep sources). */
      keepSource: z.boolean(),
    })
    .nullable(),
});
export type AgentEndpoint = z.infer<typeof agentEndpointSchema>;

export const agentCommandSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  targetId: z.number().int().nullable(),
});
export type AgentCommand = z.infer<typeof agentCommandSchema>;

/** What a heartbeat answers: the work the cloud has set up for this edge server. */
export const agentConfigurationSchema = z.object({
  edgeServer: z.object({ id: z.number().int(), name: z.string(), maxConcurrentIngests: z.number().int() }),
  endpoints: z.array(agentEndpointSchema),
  commands: z.array(agentCommandSchema),
  /** Paths the cloud has forced past the unprocessed-file check, per endpoint. */
  forcedFiles: z.array(z.object({ endpointId: z.number().int(), path: z.string() })),
  /** Every unprocessed path the cloud still holds; a path missing here was rescanned (trashed). */
  unprocessedFiles: z.array(z.object({ endpointId: z.number().int(), path: z.string() })),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;

export const agentCommandDoneSchema = z.strictObject({
  result: z.record(z.string().max(60), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()])),
});

export const agentQueueItemCreateSchema = z.strictObject({
  endpointId: idSchema,
  queueId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/),
  sourceName: z.string().min(1).max(1000),
  isStream: z.boolean().default(false),
});

export const agentQueueItemSchema = z.object({
  id: z.number().int(),
  endpointId: z.number().int().nullable(),
  queueId: z.string(),
  sourceName: z.string(),
  status: z.string(),
  isStream: z.boolean(),
  forced: z.boolean(),
  /** A schedule's start and end (none: until Stop), which the agent keeps on its own clock. */
  schedule: z.object({ startAt: z.iso.datetime(), endAt: z.iso.datetime().nullable() }).nullable().optional(),
});
export type AgentQueueItem = z.infer<typeof agentQueueItemSchema>;

/** The statuses an agent reports as it works; the cloud's people set the others. */
export const AGENT_REPORTED_STATUSES = ['ingesting', 'ingested', 'failed', 'missing', 'duplicated'] as const;

export const agentQueueItemProgressSchema = z.strictObject({
  status: z.enum(AGENT_REPORTED_STATUSES),
  error: z.string().max(2000).nullable().optional(),
  duration: z.number().min(0).nullable().optional(),
  proxyWidth: z.number().int().min(1).max(16_384).nullable().optional(),
  proxyHeight: z.number().int().min(1).max(16_384).nullable().optional(),
  /** The size of the ingested file in bytes. */
  fileSize: z.number().int().min(0).nullable().optional(),
  /** Percent done while ingesting (probe, transcode, upload together). */
  progress: z.number().int().min(0).max(100).optional(),
  /** SHA-256 (hex) of the file's content; the cloud answers `duplicated` when the folder already has it. */
  contentHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The source's own picture size, kept as node metadata (the node's width and height are the proxy's). */
  sourceWidth: z.number().int().min(1).max(65_536).nullable().optional(),
  sourceHeight: z.number().int().min(1).max(65_536).nullable().optional(),
  /** The proxy's frame rate. */
  fps: z.number().min(0).max(1000).nullable().optional(),
  /** Lines to add to the item's log. */
  log: z.string().max(100_000).optional(),
  /**
   * A stream item: whether the agent is recording it now (the endpoint's `recording`). While it records,
   * `duration` is the seconds recorded and `fileSize` the bytes written so far.
   */
  recording: z.boolean().optional(),
});

/**
 * What a progress report answers: the item's status now (the agent stops unless it is what it reported) and,
 * for a recording stream, whether a person asked it to stop (the agent then finishes and ingests it).
 */
export const agentProgressAnswerSchema = z.object({
  ok: z.literal(true),
  status: z.string(),
  stop: z.boolean().optional(),
});

/** The stream endpoint types this cloud's agent cannot record, and why. */
export const STREAM_ENDPOINT_REFUSALS: Readonly<Record<string, string>> = {
  SdiEndpoint: 'SDI input needs capture hardware, which this edge server does not have',
  ZixiEndpoint: 'Zixi needs the vendor SDK, which this edge server does not have',
};

export const agentUnprocessedFileSchema = z.strictObject({
  endpointId: idSchema,
  path: z.string().min(1).max(1000),
});

/** A live segment the agent uploads while it records (MPEG-TS): at most this many bytes. */
export const AGENT_LIVE_SEGMENT_MAX_BYTES = 256 * 1024 * 1024;

/** Where a live segment sits in its recording: its seconds, and whether a new ffmpeg run (a gap) began with it. */
export const agentLiveSegmentQuerySchema = z.strictObject({
  duration: z.coerce.number().positive().max(3600),
  discontinuity: z.enum(['0', '1']).default('0'),
});

/** Thumbnails the agent uploads: a JPEG of at most this many bytes. */
export const AGENT_THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

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

export const MSG_AGENT_TOKEN = 'A valid edge server token is required';

export const agentHeartbeatSchema = z.strictObject({
  agentVersion: z.string().max(40),
  endpointVersions: z.record(z.string().max(60), z.string().max(40)).default({}),
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
  /** Lines to add to the item's log. */
  log: z.string().max(100_000).optional(),
});

export const agentUnprocessedFileSchema = z.strictObject({
  endpointId: idSchema,
  path: z.string().min(1).max(1000),
});

/** Thumbnails the agent uploads: a JPEG of at most this many bytes. */
export const AGENT_THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

import { z } from 'zod';
import { INGEST_STATUSES } from '../ingest/ingest.ts';
import { NODE_TYPES } from '../nodes/nodes.ts';

/** The account dashboard's page (spec2 §1, spec3 §2: the 'account dashboard' area). */
export const accountDashboardPath = (accountName: string) =>
  `/accounts/${encodeURIComponent(accountName)}/dashboard`;

/** How many recent nodes and queue item changes the dashboard lists. */
export const DASHBOARD_RECENT_LIMIT = 20;

export const DASHBOARD_MESSAGES = {
  title: 'Dashboard',
  noMedia: 'No media in this account yet',
  noQueueItems: 'No ingest queue items',
  queueManagersOnly: "The ingest queue is shown to the account's managers",
  noMediaView: 'Your role in this account does not show its media',
} as const;

export const NODE_TYPE_LABELS: Record<(typeof NODE_TYPES)[number], string> = {
  folder: 'Folders',
  source: 'Sources',
  sequence: 'Sequences',
  media: 'Media',
  edl: 'Clips',
};

export const typeCountSchema = z.object({ type: z.enum(NODE_TYPES), count: z.number().int() });
export const statusCountSchema = z.object({ status: z.enum(INGEST_STATUSES), count: z.number().int() });

export const dashboardNodeSchema = z.object({
  id: z.number().int(),
  path: z.string().describe('The API path, the account name first'),
  name: z.string(),
  type: z.enum(NODE_TYPES),
  createdAt: z.string().describe('When it was created or ingested, ISO 8601'),
});
export type DashboardNode = z.infer<typeof dashboardNodeSchema>;

export const dashboardQueueItemSchema = z.object({
  id: z.number().int(),
  name: z.string().describe('The clip name, else the source file name'),
  status: z.enum(INGEST_STATUSES),
  progress: z.number().int().nullable(),
  changedAt: z.string().describe('Its latest queued, started or finished time, ISO 8601'),
});
export type DashboardQueueItem = z.infer<typeof dashboardQueueItemSchema>;

export const accountDashboardSchema = z.object({
  account: z.object({ id: z.number().int(), name: z.string() }),
  generatedAt: z.string(),
  media: z
    .object({
      total: z.number().int().describe('Nodes below the root'),
      byType: z.array(typeCountSchema).describe('Every node type, zero included'),
      recent: z.array(dashboardNodeSchema).describe('The latest 20 created or ingested, newest first'),
    })
    .nullable()
    .describe("null when the caller's role may not view the media tree"),
  storage: z.object({
    files: z.number().int().describe('Media files of the account'),
    bytes: z.number().describe('Sum of their sizes'),
    processing: z.number().int().describe('Files whose proxy is still being made'),
    failed: z.number().int().describe('Files whose proxy could not be made'),
  }),
  queue: z
    .object({
      total: z.number().int(),
      byStatus: z.array(statusCountSchema).describe('Every status, zero included'),
      recent: z.array(dashboardQueueItemSchema).describe('The latest 20 changed, newest first'),
    })
    .nullable()
    .describe("null unless the caller manages the account (the ingest queue is its managers')"),
});
export type AccountDashboard = z.infer<typeof accountDashboardSchema>;

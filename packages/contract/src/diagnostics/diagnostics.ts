import { z } from 'zod';

export const DIAGNOSTIC_STATES = ['ok', 'warning', 'error'] as const;
export type DiagnosticState = (typeof DIAGNOSTIC_STATES)[number];

/** The connectivity checks the page runs on every load, in the order it shows them. */
export const DIAGNOSTIC_CHECKS = ['database', 'liveUpdates', 'storage', 'mail'] as const;
export type DiagnosticCheckName = (typeof DIAGNOSTIC_CHECKS)[number];

export const DIAGNOSTIC_CHECK_LABELS: Record<DiagnosticCheckName, string> = {
  database: 'Database round trip',
  liveUpdates: 'Live-update bus',
  storage: 'Media storage writable',
  mail: 'Outgoing mail',
};

/** A check slower than this is a warning even when it succeeded. */
export const DIAGNOSTIC_SLOW_MS = 1000;
/** A check that has not answered after this long is an error. */
export const DIAGNOSTIC_TIMEOUT_MS = 5000;
/** Less free disk space than this share of the disk is a warning; less than the second an error. */
export const DISK_FREE_WARNING_SHARE = 0.1;
export const DISK_FREE_ERROR_SHARE = 0.02;
/** The edge servers the page lists, most recently seen first. */
export const DIAGNOSTIC_EDGE_SERVERS_LIMIT = 100;

export const DIAGNOSTIC_MESSAGES = {
  title: 'Diagnostics',
  refresh: 'Refresh',
  toolMissing: 'not installed',
  noQueues: 'No job queues yet',
  noEdgeServers: 'No edge servers',
  neverSeen: 'never',
  mailSmtp: (server: string) => `Sent through SMTP server ${server}`,
  mailFiles: 'No SMTP_URL: mails are written as .eml files under DATA_DIR/mail',
  mailWaiting: (count: number) => `${count} waiting in the outbox`,
  storageWritten: (location: string) => `Wrote, read back and removed a test object in ${location}`,
  busDelivered: 'A notice sent on the bus came back',
  databaseAnswered: 'SELECT 1 answered',
  timedOut: (ms: number) => `No answer within ${ms} ms`,
} as const;

export const diagnosticCheckSchema = z.object({
  name: z.enum(DIAGNOSTIC_CHECKS),
  label: z.string().describe('What was checked, for people'),
  status: z.enum(DIAGNOSTIC_STATES),
  ms: z.number().nullable().describe('How long the check took, in milliseconds; null when nothing was timed'),
  message: z.string().describe('What the check found, or why it failed'),
});
export type DiagnosticCheck = z.infer<typeof diagnosticCheckSchema>;

export const jobQueueCountsSchema = z.object({
  name: z.string().describe('The pg-boss queue'),
  queued: z.number().int().describe('Created or waiting for a retry'),
  active: z.number().int(),
  failed: z.number().int().describe('Failed for good (retries used up)'),
  completed: z.number().int().describe('Finished and not yet archived'),
});
export type JobQueueCounts = z.infer<typeof jobQueueCountsSchema>;

export const diskSpaceSchema = z.object({
  path: z.string().describe('The folder measured (DATA_DIR)'),
  freeBytes: z.number().describe('Available to the server'),
  totalBytes: z.number(),
  status: z.enum(DIAGNOSTIC_STATES),
});
export type DiskSpace = z.infer<typeof diskSpaceSchema>;

export const diagnosticEdgeServerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  connected: z.boolean(),
  lastSeen: z.string().nullable().describe('When its agent last called, ISO 8601; null when never'),
});
export type DiagnosticEdgeServer = z.infer<typeof diagnosticEdgeServerSchema>;

export const diagnosticsSchema = z.object({
  generatedAt: z.string().describe('When these figures were taken, ISO 8601'),
  uptimeSeconds: z.number().describe('How long this server instance has run'),
  versions: z.object({
    product: z.string(),
    node: z.string(),
    database: z.object({
      driver: z.enum(['pglite', 'postgres']),
      version: z.string().describe("The database server's version (server_version)"),
    }),
    ffmpeg: z.string().nullable().describe('null when ffmpeg is not installed'),
    ffprobe: z.string().nullable().describe('null when ffprobe is not installed'),
  }),
  checks: z.array(diagnosticCheckSchema),
  jobs: z.object({
    queues: z.array(jobQueueCountsSchema),
    error: z.string().nullable().describe('Why the counts could not be read'),
  }),
  storage: z.object({
    driver: z.enum(['local', 's3']),
    location: z.string().describe('The folder or bucket media files go to'),
    disk: diskSpaceSchema.nullable().describe('Space on the disk of DATA_DIR; null when it cannot be read'),
  }),
  edgeServers: z.object({
    total: z.number().int(),
    connected: z.number().int(),
    servers: z.array(diagnosticEdgeServerSchema).describe('Most recently seen first, at most 100'),
  }),
});
export type Diagnostics = z.infer<typeof diagnosticsSchema>;

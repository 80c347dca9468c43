import {
  type AccountDashboard,
  accountPath,
  countsFor,
  DIAGNOSTIC_MESSAGES,
  type Diagnostics,
  hasRight,
  INGEST_STATUSES,
  type IngestStatus,
  type JobQueueCounts,
  NODE_TYPES,
  smtpServerLabel,
} from '@media/contract';
import type { Actor } from '../../platform/auth/actor.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { requireRight } from '../access/service.ts';
import { notHidden, treeAccess } from '../nodes/service.ts';
import {
  busRoundTrip,
  diskSpace,
  readProductVersion,
  storageRoundTrip,
  timedCheck,
  toolVersion,
} from './probes.ts';
import * as repo from './repo.ts';

type Call<T = object> = { ctx: AppContext; actor: Actor } & T;

/** pg-boss job states as the page counts them. */
const JOB_STATE_COLUMN: Record<string, keyof Omit<JobQueueCounts, 'name'> | undefined> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  failed: 'failed',
  completed: 'completed',
};

const jobCounts = async (ctx: AppContext): Promise<Diagnostics['jobs']> => {
  try {
    const queues = new Map<string, JobQueueCounts>();
    for (const row of await repo.countJobsByQueue(ctx.db)) {
      const queue = queues.get(row.name) ?? { name: row.name, queued: 0, active: 0, failed: 0, completed: 0 };
      const column = row.state ? JOB_STATE_COLUMN[row.state] : undefined;
      if (column) queue[column] += Number(row.count);
      queues.set(row.name, queue);
    }
    return { queues: [...queues.values()], error: null };
  } catch (error) {
    return { queues: [], error: error instanceof Error ? error.message : String(error) };
  }
};

const storageLocation = (ctx: AppContext) => {
  const { storage } = ctx.config;
  if (storage.driver === 'local') return `${ctx.config.dataDir}/media`;
  const where = `s3://${storage.bucket}/${storage.prefix}`;
  return storage.endpoint ? `${where} at ${storage.endpoint}` : where;
};

const mailCheck = async (ctx: AppContext) => {
  const waiting = await repo.countMailOutbox(ctx.db);
  const how = ctx.config.smtpUrl
    ? DIAGNOSTIC_MESSAGES.mailSmtp(smtpServerLabel(ctx.config.smtpUrl))
    : DIAGNOSTIC_MESSAGES.mailFiles;
  return `${how}; ${DIAGNOSTIC_MESSAGES.mailWaiting(waiting)}`;
};

/**
 * The diagnostic page (administrators): versions, connectivity checks with their times, durable jobs,
 * storage and the edge servers. Every probe answers for itself: one that fails is reported, never a 500.
 */
export const diagnostics = async ({ ctx, actor }: Call): Promise<Diagnostics> => {
  await requireRight(ctx.db, actor, 'cloud.admin');
  const location = storageLocation(ctx);
  const [product, databaseVersion, ffmpeg, ffprobe, checks, jobs, disk, edgeCounts, edges] =
    await Promise.all([
      readProductVersion(),
      repo.findServerVersion(ctx.db).catch(() => 'unknown'),
      toolVersion('ffmpeg'),
      toolVersion('ffprobe'),
      Promise.all([
        timedCheck('database', async () => {
          await repo.ping(ctx.db);
          return DIAGNOSTIC_MESSAGES.databaseAnswered;
        }),
        timedCheck('liveUpdates', () => busRoundTrip(ctx.bus)),
        timedCheck('storage', () => storageRoundTrip(ctx.storage, location)),
        timedCheck('mail', () => mailCheck(ctx)),
      ]),
      jobCounts(ctx),
      diskSpace(ctx.config.dataDir),
      repo.countEdgeServers(ctx.db),
      repo.findEdgeServersBySeen(ctx.db),
    ]);
  // Mail is configured or not: without SMTP nothing leaves the machine, which an operator should see.
  const [database, liveUpdates, storage, mail] = checks;
  const mailChecked =
    mail && mail.status === 'ok' && !ctx.config.smtpUrl ? { ...mail, status: 'warning' as const } : mail;
  return {
    generatedAt: new Date().toISOString(),
    uptimeSeconds: Math.round(process.uptime()),
    versions: {
      product,
      node: process.version,
      database: { driver: ctx.database.driver, version: databaseVersion },
      ffmpeg,
      ffprobe,
    },
    checks: [database, liveUpdates, storage, mailChecked].filter((check) => check !== undefined),
    jobs,
    storage: { driver: ctx.storage.driver, location, disk },
    edgeServers: {
      ...edgeCounts,
      servers: edges.map((edge) => ({
        id: edge.id,
        name: edge.name,
        type: edge.type,
        connected: Boolean(edge.connected),
        lastSeen: edge.lastSeenAt ? edge.lastSeenAt.toISOString() : null,
      })),
    },
  };
};

const asIngestStatus = (status: string): IngestStatus =>
  (INGEST_STATUSES as readonly string[]).includes(status) ? (status as IngestStatus) : 'unknown';

/**
 * The account dashboard: whoever may use the account (403 otherwise, 404 for an unknown account) sees its
 * media counts, recent nodes and storage use, as the media tree shows them to their role; the ingest queue
 * part only for those who manage the account, as its queue is theirs.
 */
export const accountDashboard = async ({ ctx, actor, accountId }: Call<{ accountId: number }>) => {
  const { db } = ctx;
  const ancestry = await requireRight(db, actor, 'account.use', { kind: 'account', id: accountId });
  const account = await repo.findAccountName(db, accountId);
  if (!account) throw notFound('Account');
  const manages = hasRight(await actor.rights(), 'account.manage', ancestry);
  // As the media tree shows the account to the caller: the role's canView, without its hidden folders.
  const access = await treeAccess(db, actor, { id: accountId });
  const mayView = access.permissions.has('canView');
  const visible = notHidden(access);

  const [typeCounts, recentNodes, storage, statusCounts, recentItems] = await Promise.all([
    mayView ? repo.countNodesByType(db, accountId, visible) : [],
    mayView ? repo.findRecentNodes(db, accountId, visible) : [],
    repo.sumMediaFiles(db, accountId),
    manages ? repo.countQueueByStatus(db, accountId) : [],
    manages ? repo.findRecentQueueItems(db, accountId) : [],
  ]);
  const byType = countsFor(NODE_TYPES, typeCounts, 'type');
  const byStatus = countsFor(INGEST_STATUSES, statusCounts, 'status');
  const dashboard: AccountDashboard = {
    account,
    generatedAt: new Date().toISOString(),
    media: mayView
      ? {
          total: byType.reduce((sum, row) => sum + row.count, 0),
          byType,
          recent: recentNodes.map((node) => ({
            id: node.id,
            path: accountPath(account.name, node.path),
            name: node.name,
            type: node.type,
            createdAt: node.createdAt.toISOString(),
          })),
        }
      : null,
    storage,
    queue: manages
      ? {
          total: byStatus.reduce((sum, row) => sum + row.count, 0),
          byStatus,
          recent: recentItems.map((item) => ({
            id: item.id,
            name: item.clipName || item.sourceName,
            status: asIngestStatus(item.status),
            progress: item.progress,
            changedAt: item.changedAt.toISOString(),
          })),
        }
      : null,
  };
  return dashboard;
};

import path from 'node:path';
import { DEFAULT_PASSWORD_RULES } from '@media/contract';
import { endLeftoverTools, markToolsOf } from '@media/media-tools';
import pino, { type DestinationStream } from 'pino';
import { type BootstrapOutcome, bootstrap, generatePassword } from '../bootstrap.ts';
import { startStreamSchedules } from '../modules/ingest/schedules.ts';
import { startClipRendering } from '../modules/nodes/clip-render.ts';
import { notifyAdministrators } from '../modules/notifications/service.ts';
import { startPublishRuns } from '../modules/publishing/runs.ts';
import { startUploadProcessing } from '../modules/uploads/processing.ts';
import { startWebhookDeliveries } from '../modules/webhooks/delivery.ts';
import { type DemoLogin, seedDemo } from '../seed/demo.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/client.ts';
import { createJobs } from './jobs/jobs.ts';
import { createInProcessBus, createPostgresBus } from './live/bus.ts';
import { CursorWriter } from './live/cursor-writer.ts';
import { createPublisher } from './live/publish.ts';
import { RecentChanges } from './live/recent-changes.ts';
import { loggerOptions } from './logging.ts';
import { createMailer, startMailOutbox } from './mail.ts';
import { createStorage, type StorageFault } from './storage/index.ts';
import { removeInterruptedUploads, SHARED_TEMP_IDLE_MS } from './storage.ts';

/** Where a storage fault's alert leads: the diagnostics page, whose storage check shows the system's words. */
const STORAGE_FAULT_LINK = '/diagnostic';

export type StartedContext = {
  ctx: AppContext;
  outcome: BootstrapOutcome;
  /** Set when this start loaded the demo data set. */
  demo?: { password: string; logins: DemoLogin[] };
};

/** Opens the database of the config, migrates it forward and fills in what a first start needs. */
export const createContext = async (
  config: Config,
  options: {
    logStream?: DestinationStream;
    /** Tests: a small pool, an in-memory PGlite, opened from a migrated template dump. */
    database?: { poolSize?: number; inMemory?: boolean; template?: string };
  } = {},
): Promise<StartedContext> => {
  const log = pino(loggerOptions(config.logLevel), options.logStream ?? process.stdout);
  const database = config.databaseUrl
    ? await openDatabase({
        driver: 'postgres',
        url: config.databaseUrl,
        poolSize: options.database?.poolSize,
        log,
      })
    : await openDatabase({
        driver: 'pglite',
        dataDir: options.database?.inMemory ? undefined : path.join(config.dataDir, 'db'),
        loadDataDir: options.database?.inMemory ? options.database.template : undefined,
        onLockLost: (error) => {
          // Another process took the directory over: writing on would corrupt it, so this one stops.
          log.fatal({ err: error }, `lost the lock of ${config.dataDir}/db to another process; stopping`);
          process.exit(1);
        },
      });
  // After the database is open: with PGlite this process now holds DATA_DIR, so no upload of another runs.
  const leftovers = await removeInterruptedUploads(config.dataDir, {
    idleMs: config.databaseUrl ? SHARED_TEMP_IDLE_MS : 0,
  });
  if (leftovers > 0) log.info({ files: leftovers }, 'removed the temporary files of interrupted uploads');
  // No ffmpeg outlives its server (media-tools' spawnTool): what a killed run on this DATA_DIR left is ended,
  // and the tools this run starts are marked so that the next start can do the same.
  const endedTools = endLeftoverTools(config.dataDir);
  if (endedTools > 0)
    log.warn(
      { processes: endedTools },
      'ended the ffmpeg processes a previous run on this data directory left',
    );
  markToolsOf(config.dataDir);
  let outcome: BootstrapOutcome;
  try {
    await database.migrate();
    outcome = await bootstrap(database.db, {
      adminPassword: config.adminPassword,
      secretKey: config.secretKey,
    });
  } catch (error) {
    // A refused start (a migration, a bad ADMIN_PASSWORD) frees the data directory's lock at once.
    await database.close().catch(() => {});
    throw error;
  }
  const bus =
    database.driver === 'postgres' && database.pool && config.databaseUrl
      ? await createPostgresBus({ url: config.databaseUrl, pool: database.pool, log })
      : createInProcessBus();
  const recent = new RecentChanges(database.db, bus);
  await recent.start();
  const jobs = await createJobs({ database, url: config.databaseUrl, log });
  // A full or unwritable storage is logged with the system's words and alerts the administrators (their
  // notifications, mailed to those who asked), who can act on it; the request answers 507 or 503.
  let alertAdministrators: ((fault: StorageFault) => Promise<void>) | undefined;
  const storage = await createStorage(config, {
    onFault: (fault, alert) => {
      log.error({ err: fault.cause }, fault.message);
      if (alert)
        void alertAdministrators?.(fault).catch((error: unknown) =>
          log.warn({ err: error }, 'the administrators could not be alerted of a storage fault'),
        );
    },
  });
  const mailer = createMailer(config, log);
  const mail = await startMailOutbox({ db: database.db, jobs, mailer });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    secretKey: outcome.secretKey,
    mailer,
    mail,
    jobs,
    storage,
    log,
    bus,
    publish: createPublisher(database.db, bus),
    live: { recent, cursors: new CursorWriter(database.db) },
    close: async () => {
      await jobs.close();
      await storage.close();
      await recent.close();
      await bus.close();
      await database.close();
    },
  };
  alertAdministrators = (fault) =>
    notifyAdministrators(ctx, { type: 'problem', message: fault.message, link: STORAGE_FAULT_LINK });
  await startUploadProcessing(ctx);
  await startClipRendering(ctx);
  await startPublishRuns(ctx);
  await startStreamSchedules(ctx);
  await startWebhookDeliveries(ctx);
  let demo: StartedContext['demo'];
  if (config.seedDemo) {
    const password = config.demoPassword ?? generatePassword(DEFAULT_PASSWORD_RULES);
    const logins = await seedDemo(database.db, password, { files: { storage, dataDir: config.dataDir } });
    if (logins) demo = { password, logins };
  }
  return { ctx, outcome, demo };
};

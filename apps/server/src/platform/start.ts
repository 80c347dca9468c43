import path from 'node:path';
import { DEFAULT_PASSWORD_RULES } from '@media/contract';
import pino, { type DestinationStream } from 'pino';
import { type BootstrapOutcome, bootstrap, generatePassword } from '../bootstrap.ts';
import { startStreamSchedules } from '../modules/ingest/schedules.ts';
import { startClipRendering } from '../modules/nodes/clip-render.ts';
import { startPublishRuns } from '../modules/publishing/runs.ts';
import { startUploadProcessing } from '../modules/uploads/processing.ts';
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
import { createStorage } from './storage/index.ts';
import { removeInterruptedUploads, SHARED_TEMP_IDLE_MS } from './storage.ts';

export type StartedContext = {
  ctx: AppContext;
  outcome: BootstrapOutcome;
  /** Set when this start loaded the demo data set. */
  demo?: { password: string; logins: DemoLogin[] };
};

/** Opens the database of the config, migrates it forward and fills in what a first start needs. */
export const createContext = async (
  config: Config,
  options: { logStream?: DestinationStream; database?: { poolSize?: number; inMemory?: boolean } } = {},
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
  const storage = await createStorage(config);
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
  await startUploadProcessing(ctx);
  await startClipRendering(ctx);
  await startPublishRuns(ctx);
  await startStreamSchedules(ctx);
  let demo: StartedContext['demo'];
  if (config.seedDemo) {
    const password = config.demoPassword ?? generatePassword(DEFAULT_PASSWORD_RULES);
    const logins = await seedDemo(database.db, password, { files: { storage, dataDir: config.dataDir } });
    if (logins) demo = { password, logins };
  }
  return { ctx, outcome, demo };
};

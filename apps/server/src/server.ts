import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { LOCAL_EDGE_NAME, LOCAL_ENDPOINT_NAME, startLocalEdge } from './modules/agent/local-edge.ts';
import { type Config, ConfigError, loadConfig } from './platform/config.ts';
import { DataDirInUseError } from './platform/db/data-dir-lock.ts';
import { processIndex, superviseServerProcesses } from './platform/processes.ts';
import { createContext, type StartedContext } from './platform/start.ts';

/** What a first start prints on the console, once: the generated admin password, the demo sign-ins. */
const announce = (config: Config, { outcome, demo }: Omit<StartedContext, 'ctx'>) => {
  if (outcome.generatedAdminPassword) {
    // Printed once, on the console only: the only way to learn it.
    process.stdout.write(
      `\n  First start: user "admin" was created with the generated password:\n\n      ${outcome.generatedAdminPassword}\n\n  Sign in at ${config.publicUrl}/login and change it from your user settings.\n\n`,
    );
  }
  if (demo) {
    const width = Math.max(...demo.logins.map((l) => l.username.length));
    const lines = demo.logins.map((l) => `      ${l.username.padEnd(width)}  ${l.role}`);
    process.stdout.write(
      `\n  Demo data loaded. Every demo user signs in with the password: ${demo.password}\n\n${lines.join('\n')}\n\n`,
    );
  }
};

/** One server process: the API, the web app, the jobs; the local edge in process 0 only. */
const serve = async (config: Config) => {
  const { ctx, ...started } = await createContext(config);
  const app = await buildApp(ctx);
  let localEdge: Awaited<ReturnType<typeof startLocalEdge>>;
  let shuttingDown = false;
  // Under WEB_CONCURRENCY a terminal's Ctrl-C reaches every process, and the first process passes it on.
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    ctx.log.info({ signal }, 'shutting down');
    await localEdge?.stop();
    // Requests under way get the grace period; whatever is still open then is cut, so that a client that
    // stopped reading (or a long poll) never holds the stop for the keep-alive minute.
    const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceSeconds * 1000);
    await app.close();
    clearTimeout(cut);
    await ctx.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  ctx.log.info(
    {
      url: config.publicUrl,
      database:
        ctx.database.driver === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/db`,
      ...(cluster.isWorker ? { process: processIndex() } : {}),
    },
    'listening',
  );
  if (config.localEdge && processIndex() === 0) {
    const loopback = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    localEdge = await startLocalEdge(ctx, `http://${loopback}:${config.port}`);
    if (localEdge)
      process.stdout.write(
        localEdge.target
          ? `\n  Local edge server: media files dropped into ${localEdge.folders.arrivals} appear in ${localEdge.target.account} → Arrivals/${localEdge.target.folder}.\n`
          : `\n  Local edge server: it watches ${localEdge.folders.arrivals}; assign its endpoint "${LOCAL_ENDPOINT_NAME}" to an account's arrivals folder (Edge servers → ${LOCAL_EDGE_NAME} → services → endpoints) and dropped media files appear in that account's media tree.\n`,
      );
  }
  if (!cluster.isWorker) announce(config, started);
};

/**
 * WEB_CONCURRENCY processes: this one migrates and fills in the database first (so that the processes do
 * not race for the first admin or the demo data, and what a first start prints is printed once), then
 * starts the serving processes and watches them.
 */
const serveInProcesses = async (config: Config) => {
  const { ctx, ...started } = await createContext(config);
  const log = ctx.log;
  await ctx.close();
  announce(config, started);
  log.info({ processes: config.webConcurrency }, 'starting the server processes');
  process.exit(await superviseServerProcesses(config.webConcurrency, log));
};

const main = async () => {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) await serveInProcesses(config);
  else await serve(config);
};

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});

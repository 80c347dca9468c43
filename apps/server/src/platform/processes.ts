import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';

/** Which of the WEB_CONCURRENCY processes this is (0 in a single process): process 0 runs the local edge. */
export const PROCESS_INDEX_VARIABLE = 'SERVER_PROCESS_INDEX';
export const processIndex = () => Number(process.env[PROCESS_INDEX_VARIABLE] ?? 0);

/** A process that stops again this soon after it began serving is not started again (it would loop). */
const CRASH_LOOP_MS = 5_000;

/**
 * WEB_CONCURRENCY server processes on this machine (node:cluster: they share the port, the kernel hands
 * out the connections). Each is an instance as any other on the same PostgreSQL: sessions, jobs and live
 * updates are shared through the database. A process that stops is started again; one that cannot start
 * (or stops at once, again and again) stops them all, so a broken start is not retried for ever.
 */
export const superviseServerProcesses = (count: number, log: FastifyBaseLogger) =>
  new Promise<number>((resolve) => {
    let stopping = false;
    const started = new Map<Worker, { index: number; servingSince?: number }>();
    const stopAll = (exitCode: number) => {
      if (!stopping) {
        stopping = true;
        for (const worker of started.keys()) worker.process.kill('SIGTERM');
      }
      if (started.size === 0) resolve(exitCode);
      else cluster.once('exit', () => stopAll(exitCode));
    };
    const start = (index: number) => {
      const worker = cluster.fork({ [PROCESS_INDEX_VARIABLE]: String(index) });
      started.set(worker, { index });
      worker.once('listening', () => {
        const entry = started.get(worker);
        if (entry) entry.servingSince = Date.now();
      });
    };
    cluster.on('exit', (worker, code, signal) => {
      const entry = started.get(worker);
      started.delete(worker);
      if (!entry || stopping) return;
      const servedLongEnough =
        entry.servingSince !== undefined && Date.now() - entry.servingSince > CRASH_LOOP_MS;
      if (!servedLongEnough) {
        log.error({ process: entry.index, code, signal }, 'a server process could not start; stopping');
        stopAll(1);
        return;
      }
      log.warn({ process: entry.index, code, signal }, 'a server process stopped; starting it again');
      start(entry.index);
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopAll(0));
    for (let index = 0; index < count; index++) start(index);
  });

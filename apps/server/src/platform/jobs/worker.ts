import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { JobOwnership } from './owners.ts';
import type { JobHandler, JobQueue } from './queues.ts';

/** Past a job's due time before looking again (the timer and the database clock are not one). */
const MIN_WAIT_MS = 50;

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves when the signal aborts, rejecting with its reason; never settles otherwise. */
const whenAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/**
 * Runs one queue's jobs on this instance: fetches as many as it has free places, runs each with a time
 * limit, and completes or fails each on its own (pg-boss retries a failed job with its backoff).
 *
 * Why not pg-boss's `work()`: it completes and fails jobs without awaiting those statements, so a lost
 * PostgreSQL connection (or a database closed under it) becomes an unhandled rejection that ends the
 * process; its stop leaves timers behind; and it cannot abort a job at its time limit or at shutdown.
 * Fetching, locking (SKIP LOCKED), retries, backoff, expiry and archiving stay pg-boss's.
 */
export class QueueWorker<Data extends object> {
  private readonly running = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();
  private stopping = false;
  private woken = false;
  private wakeSleeper: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly queue: JobQueue<Data>,
    private readonly handler: JobHandler<Data>,
    private readonly options: {
      concurrency: number;
      /** The longest wait between two looks when nothing is due and nothing wakes the worker. */
      pollIntervalMs: number;
      /** In how many ms the queue's next waiting job (a retry after its backoff) is due; none: undefined. */
      nextDueMs: () => Promise<number | undefined>;
      /** Fetches jobs and records that this instance runs them (so a dead instance's jobs run again). */
      ownership: JobOwnership;
      log: FastifyBaseLogger;
    },
  ) {}

  start() {
    this.loop = this.run();
  }

  /** Looks for jobs now rather than at the next poll (a job was sent, or a place came free). */
  wake() {
    this.woken = true;
    this.wakeSleeper?.();
  }

  private async run() {
    while (!this.stopping) {
      this.woken = false;
      let wait = this.options.pollIntervalMs;
      const free = this.options.concurrency - this.running.size;
      if (free > 0) {
        // pg-boss's fetch answers [] when the database fails; so does a claim that fails (its transaction
        // rolls the fetch back): the next look tries again.
        const jobs = await this.options.ownership
          .fetchClaimed(this.queue.name, (db) =>
            this.boss.fetch<Data>(this.queue.name, {
              batchSize: free,
              includeMetadata: true,
              ...(db ? { db } : {}),
            }),
          )
          .catch((error: unknown) => {
            this.options.log.warn({ err: error }, 'could not fetch and record who runs a job');
            return [];
          });
        for (const job of jobs) this.track(this.runJob(job));
        // A full batch: there may be more; look again as soon as a place is free.
        if (jobs.length === free) continue;
        // Nothing more is due: sleep until the next retry is, a send or a finished job wakes the worker,
        // or the poll interval ends. An idle worker runs no statements in between.
        // A failed look (the database is away) is tried again in a second.
        const due = await this.options.nextDueMs().catch(() => 1000);
        if (due !== undefined) wait = Math.min(wait, Math.max(due, 0) + MIN_WAIT_MS);
      }
      if (!this.stopping) await this.sleep(wait);
    }
  }

  private sleep(ms: number) {
    if (this.woken) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }

  private track(job: Promise<void>) {
    this.running.add(job);
    void job.finally(() => {
      this.running.delete(job);
      this.wake();
    });
  }

  private async runJob(job: PgBoss.JobWithMetadata<Data>) {
    const controller = new AbortController();
    this.controllers.add(controller);
    const limit = setTimeout(
      () => controller.abort(new Error(`time limit of ${this.queue.timeLimitSeconds} s reached`)),
      this.queue.timeLimitSeconds * 1000,
    );
    const { log } = this.options;
    let failure: { error: unknown } | undefined;
    try {
      await Promise.race([
        this.handler({
          id: job.id,
          data: job.data,
          retryCount: job.retryCount,
          signal: controller.signal,
          stopping: () => this.stopping,
        }),
        whenAborted(controller.signal),
      ]);
    } catch (error) {
      failure = { error };
    }
    try {
      if (!failure) {
        await this.boss.complete(this.queue.name, job.id);
        return;
      }
      const last = job.retryCount >= job.retryLimit;
      const message = errorMessage(failure.error);
      log[last ? 'error' : 'warn'](
        { queue: this.queue.name, job: job.id, attempt: job.retryCount + 1, error: message },
        last ? 'job failed for good' : 'job failed; it will be retried',
      );
      await this.boss.fail(this.queue.name, job.id, { message });
    } catch (error) {
      // The job stays active; pg-boss hands it out again when its time runs out.
      log.warn({ err: error, queue: this.queue.name, job: job.id }, 'could not record the outcome of a job');
    } finally {
      clearTimeout(limit);
      this.controllers.delete(controller);
      await this.options.ownership.release(job.id).catch(() => undefined);
    }
  }

  /**
   * Fetches no more, gives the running jobs `graceMs` to finish, then aborts them (they are failed, so
   * that any instance retries them), and waits until each has been recorded.
   */
  async stop(graceMs: number) {
    this.stopping = true;
    this.wake();
    await this.loop;
    const all = Promise.allSettled([...this.running]);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    for (const controller of this.controllers) controller.abort(new Error('the server is stopping'));
    await all;
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineQueue } from '../src/platform/jobs/queues.ts';
import { buildTestApp, eventually, type TestApp, testDriver } from './harness.ts';

/** The job platform as issue 13's media jobs will use it: concurrency, time limits, retries, stop. */
describe(`durable jobs (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('runs a queue at most `concurrency` jobs at once, each job once', async () => {
    const queue = defineQueue<{ n: number }>('test-concurrency', {
      retryLimit: 0,
      retryDelaySeconds: 1,
      retryBackoff: false,
      timeLimitSeconds: 10,
    });
    const done: number[] = [];
    let running = 0;
    let most = 0;
    await t.ctx.jobs.work(
      queue,
      async ({ data }) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running -= 1;
        done.push(data.n);
      },
      { concurrency: 3 },
    );
    await t.ctx.db.transaction((tx) =>
      t.ctx.jobs.send(
        tx,
        queue,
        Array.from({ length: 12 }, (_, n) => ({ n })),
      ),
    );
    await eventually(() => done.length === 12, 15_000);
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, n) => n));
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);
  });

  it('aborts a job at its time limit and retries it', async () => {
    const queue = defineQueue<{ n: number }>('test-time-limit', {
      retryLimit: 2,
      retryDelaySeconds: 1,
      retryBackoff: false,
      timeLimitSeconds: 1,
    });
    const attempts: { retryCount: number; aborted: boolean }[] = [];
    await t.ctx.jobs.work(queue, async ({ retryCount, signal }) => {
      const attempt = { retryCount, aborted: false };
      attempts.push(attempt);
      if (retryCount > 0) return;
      // The first attempt hangs until the time limit aborts it, as a stuck ffmpeg would.
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          attempt.aborted = true;
          resolve();
        }),
      );
    });
    await t.ctx.db.transaction((tx) => t.ctx.jobs.send(tx, queue, [{ n: 1 }]));
    await eventually(() => attempts.length === 2, 15_000);
    expect(attempts).toEqual([
      { retryCount: 0, aborted: true },
      { retryCount: 1, aborted: false },
    ]);
    expect(t.logs()).toContain('time limit of 1 s reached');
  });

  it('refuses a job for a queue no worker runs, which pg-boss would drop', async () => {
    const unknown = defineQueue<{ n: number }>('test-unknown', {
      retryLimit: 0,
      retryDelaySeconds: 1,
      retryBackoff: false,
      timeLimitSeconds: 1,
    });
    await expect(t.ctx.db.transaction((tx) => t.ctx.jobs.send(tx, unknown, [{ n: 1 }]))).rejects.toThrow(
      'No worker runs the test-unknown queue',
    );
  });
});

import PgBoss from 'pg-boss';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bossExecutor } from '../src/platform/jobs/executors.ts';
import { BOSS_SCHEMA } from '../src/platform/jobs/jobs.ts';
import { createJobOwnership, type JobOwnership } from '../src/platform/jobs/owners.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

const QUEUE = 'test-owners';

/**
 * Who runs which job, on PostgreSQL (PGlite has one process, which retries what was active at start). An
 * instance killed between fetching a job and recording itself as its owner must not leave a job that no
 * owner row names: it would wait for its time limit instead of running again at once.
 */
describe.runIf(testDriver() === 'postgres')('job owners (postgres)', () => {
  let t: TestApp;
  let boss: PgBoss;
  const log = pino({ level: 'silent' });
  const opened: { ownership: JobOwnership; close: () => Promise<void> }[] = [];

  const openOwnership = async () => {
    const url = t.config.databaseUrl ?? '';
    const connection = bossExecutor(t.ctx.database, { url, log });
    if (!connection.transaction) throw new Error('no transactions on PostgreSQL');
    const ownership = await createJobOwnership({
      url,
      executor: connection.executor,
      transaction: connection.transaction,
      bossSchema: BOSS_SCHEMA,
      log,
    });
    const close = async () => {
      await ownership.close();
      await connection.close();
    };
    const entry = { ownership, close };
    opened.push(entry);
    return entry;
  };
  const jobState = async (id: string) => (await boss.getJobById(QUEUE, id))?.state;
  const ownerRows = async (id: string) =>
    (await t.ctx.database.pool?.query('SELECT instance_key FROM job_owners WHERE job_id = $1', [id]))?.rows
      .length;

  beforeAll(async () => {
    t = await buildTestApp();
    boss = new PgBoss({
      connectionString: t.config.databaseUrl,
      schema: BOSS_SCHEMA,
      migrate: false,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 3, retryDelay: 0 });
  });
  afterAll(async () => {
    for (const entry of opened) await entry.close().catch(() => undefined);
    await boss.stop({ graceful: false, wait: true });
    await t.close();
  });

  it('rolls the fetch back when the owner cannot be recorded, so the job is fetched again', async () => {
    const { ownership } = await openOwnership();
    const id = (await boss.send(QUEUE, { n: 1 })) ?? '';
    await expect(
      ownership.fetchClaimed(QUEUE, async (db) => {
        const jobs = await boss.fetch(QUEUE, { batchSize: 1, ...(db ? { db } : {}) });
        expect(jobs.map((job) => job.id)).toEqual([id]);
        throw new Error('the process died here');
      }),
    ).rejects.toThrow('the process died here');
    expect(await jobState(id)).toBe('created');
    expect(await ownerRows(id)).toBe(0);

    const fetched = await ownership.fetchClaimed(QUEUE, (db) =>
      boss.fetch(QUEUE, { batchSize: 1, ...(db ? { db } : {}) }),
    );
    expect(fetched.map((job) => job.id)).toEqual([id]);
    expect(await jobState(id)).toBe('active');
    expect(await ownerRows(id)).toBe(1);
  });

  it("fails a gone instance's active jobs for a retry, and leaves a living instance's alone", async () => {
    const gone = await openOwnership();
    const living = await openOwnership();
    const goneId = (await boss.send(QUEUE, { n: 2 })) ?? '';
    const fetch = (db: PgBoss.Db | undefined) => boss.fetch(QUEUE, { batchSize: 1, ...(db ? { db } : {}) });
    expect((await gone.ownership.fetchClaimed(QUEUE, fetch)).map((job) => job.id)).toEqual([goneId]);
    const livingId = (await boss.send(QUEUE, { n: 3 })) ?? '';
    expect((await living.ownership.fetchClaimed(QUEUE, fetch)).map((job) => job.id)).toEqual([livingId]);
    await gone.close();

    const failed: string[] = [];
    const observer = await openOwnership();
    const count = await observer.ownership.reclaim(async (queue, jobId) => {
      failed.push(jobId);
      await boss.fail(queue, jobId, { message: 'the instance running it stopped' });
    });
    expect(failed).toContain(goneId);
    expect(failed).not.toContain(livingId);
    expect(count).toBe(failed.length);
    expect(await jobState(goneId)).toBe('retry');
    expect(await jobState(livingId)).toBe('active');
  });
});

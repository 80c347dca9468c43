import { extraDataStoredKey } from '@media/contract';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraData } from '../src/modules/config/tables.ts';
import { makeAccount, makeSite } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  eventually,
  readMails,
  type TestApp,
  type TestClient,
  type TestResponse,
  testDriver,
} from './harness.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';
import { startRelay } from './tcp-relay.ts';

const importRows = (tag: string) =>
  Array.from({ length: 100 }, (_, i) => ({
    fullname: `Lost ${tag} ${i}`,
    company: 'Cut Cables Ltd',
    email: `lost.${tag}.${i}@example.com`,
  }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// PGlite is one in-process connection: there is no server connection to lose.
describe.skipIf(testDriver() !== 'postgres')(
  'PostgreSQL connection loss (skipped on PGlite: it has no connection to lose)',
  () => {
    let t: TestApp;
    let admin: TestClient;
    let killer: pg.Client;
    let database: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
    let relay: Awaited<ReturnType<typeof startRelay>>;
    let siteId: number;
    let accountIds: number[];
    const crashes: unknown[] = [];
    const recordCrash = (error: unknown) => crashes.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', recordCrash);
      process.on('unhandledRejection', recordCrash);
      // The server reaches its database through the relay; the test's own connections go straight to it.
      database = await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'test');
      relay = await startRelay(database.url);
      t = await buildTestApp({
        DATABASE_URL: relay.url,
        LONG_POLL_SECONDS: '5',
        // The throughput test reads as fast as it can with one session.
        RATE_LIMIT_PER_MINUTE: '1000000',
      });
      admin = await t.admin();
      siteId = (await makeSite(t.ctx.db)).id;
      accountIds = [];
      for (let i = 0; i < 4; i++) accountIds.push((await makeAccount(t.ctx.db, { siteId })).id);
      // The killer sits in the scratch database, so pg_stat_activity.datname finds the server's connections.
      killer = new pg.Client({ connectionString: database.url });
      await killer.connect();
    });
    afterAll(async () => {
      await killer?.end();
      await t?.close();
      await relay?.close();
      await database?.drop();
      process.off('uncaughtException', recordCrash);
      process.off('unhandledRejection', recordCrash);
    });

    /** Ends the server's connections of the scratch database that match `where`; answers how many. */
    const terminate = async (where: string) => {
      const { rows } = await killer.query<{ n: number }>(
        `select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and ${where}`,
      );
      return rows[0]?.n ?? 0;
    };

    const importUsers = (tag: string) =>
      admin.post<ErrorBody>('/api/users', { siteId, dryRun: false, users: importRows(tag) });
    const writeExtraData = (tag: string) =>
      Array.from({ length: 20 }, (_, i) =>
        admin.post<ErrorBody>(`/api/accounts/${accountIds[i % accountIds.length]}/extraData`, {
          [extraDataStoredKey(`${tag}${i}`)]: `value ${i}`,
        }),
      );
    /** How many of the import's users exist, read on the test's own connection (the storms spare it). */
    const importedCount = async (tag: string) => {
      const { rows } = await killer.query<{ n: number }>(
        'select count(*)::int as n from users where email = any($1::text[])',
        [importRows(tag).map((row) => row.email)],
      );
      return rows[0]?.n ?? 0;
    };
    /** The connections listening for live updates (the bus's, one per instance). */
    const listeners = async () =>
      (
        await killer.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
        )
      ).rows[0]?.n;
    const expectUnavailable = (response: TestResponse<ErrorBody>) => {
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('unavailable');
      expect(response.body.error.message).toMatch(/database/i);
    };

    it('answers 503 to the requests whose transaction lost its connection, keeps nothing of them, and serves the next call', async () => {
      // Hold the tables the import and the writes change, so each stops inside its transaction (after the
      // import inserted its users); then end exactly those connections while they wait. The holder is a
      // connection of its own: in a transaction, pg_stat_activity would answer the same snapshot again.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('lock table password_tokens, extra_data in exclusive mode');
      let settled = false;
      const burst = Promise.all([importUsers('held'), ...writeExtraData('held')]).finally(() => {
        settled = true;
      });
      let killed = 0;
      const until = Date.now() + 15_000;
      while (!settled && Date.now() < until) {
        killed += await terminate(`wait_event_type = 'Lock'`);
        await sleep(20);
      }
      await holder.end();
      const [imported, ...written] = await burst;
      expect(killed).toBeGreaterThanOrEqual(21);
      expectUnavailable(imported as TestResponse<ErrorBody>);
      for (const response of written) expectUnavailable(response);
      // All or nothing: the users the import had inserted went with its transaction.
      expect(await importedCount('held')).toBe(0);
      const keys = Array.from({ length: 20 }, (_, i) => extraDataStoredKey(`held${i}`));
      expect(await t.ctx.db.select().from(extraData).where(inArray(extraData.key, keys))).toEqual([]);
      expect(crashes).toEqual([]);

      const again = await importUsers('held');
      expect(again.status).toBe(200);
      expect(await importedCount('held')).toBe(100);
      const write = await admin.post(`/api/accounts/${accountIds[0]}/extraData`, {
        [extraDataStoredKey('after')]: 'fine',
      });
      expect(write.status).toBe(200);
    });

    it('fails only the long-poll whose cursor write lost its connection; the next long-poll is answered', async () => {
      const eventId = (await admin.post<{ results: { eventId: string } }>('/api/events/create')).body.results
        .eventId;
      await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/cursor'] });
      const waiting = admin.get<ErrorBody>(`/api/events/${eventId}/longpoll`);
      await sleep(300);
      // Hold the event's row, so storing the cursor of the answer waits, and end that connection.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('select id from live_events where id = $1 for update', [eventId]);
      await t.ctx.publish('cloud/cursor', [1]);
      let killed = 0;
      for (const until = Date.now() + 5000; killed === 0 && Date.now() < until; await sleep(20))
        killed += await terminate(`wait_event_type = 'Lock'`);
      await holder.end();
      expect(killed).toBe(1);
      expectUnavailable(await waiting);

      const again = await admin.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
      expect(again.status).toBe(200);
      expect(again.body.results.map((update) => update.channel)).toEqual(['cloud/cursor']);
      expect(crashes).toEqual([]);
    });

    // Tried up to three times: the baseline is measured before the storm and the recovery after it, and on a
    // loaded two-core CI run (PostgreSQL files beside the e2e files) the machine's load changed between the two
    // by more than half once (629 reads/s before, below 315 in every window after). A server that does not
    // recover fails all three.
    it('is back to its throughput within 5 s of a storm of ended and silent connections; no request waits past 10 s', {
      retry: 2,
    }, async () => {
      // Cheap signed-in reads (the session, the auth epoch, the answer), eight at a time, each timed.
      const timings: { start: number; end: number; status: number }[] = [];
      const waiting = new Set<{ start: number }>();
      let reading = true;
      const reader = async () => {
        while (reading) {
          const read = { start: Date.now() };
          waiting.add(read);
          const response = await admin.get('/api/me');
          waiting.delete(read);
          timings.push({ start: read.start, end: Date.now(), status: response.status });
        }
      };
      const readers = Array.from({ length: 8 }, () => reader());
      const answeredIn = (from: number, to: number) =>
        timings.filter((timing) => timing.status === 200 && timing.end >= from && timing.end < to).length;
      try {
        const baselineFrom = Date.now();
        await sleep(1500);
        const baseline = (answeredIn(baselineFrom, Date.now()) * 1000) / (Date.now() - baselineFrom);

        // The storm: every connection of the server's database ended again and again for 3 s; then the
        // connections it has made since go silent (bytes no longer carried, nothing closed), as a lost link
        // leaves them.
        let killed = 0;
        for (const until = Date.now() + 3000; Date.now() < until; await sleep(20))
          killed += await terminate('true');
        // New connections are made at once: reads are answered, and the job queue, its owner lock and the
        // live-update listener are back on theirs. Then all of them go silent.
        const lastKill = Date.now();
        const back = await eventually(async () => {
          const { rows } = await killer.query<{ name: string }>(
            `select distinct application_name as name from pg_stat_activity
              where datname = current_database()
                and application_name in ('media-jobs', 'media-jobs-owner', 'media-live-listener') order by 1`,
          );
          const names = rows.map((row) => row.name);
          return answeredIn(lastKill, Date.now()) >= 8 && names.length === 3 ? names : undefined;
        });
        expect(back).toEqual(['media-jobs', 'media-jobs-owner', 'media-live-listener']);
        const silenced = relay.freeze();
        const stormEnd = Date.now();
        expect(killed).toBeGreaterThan(10);
        expect(silenced).toBeGreaterThanOrEqual(4);

        // Within 5 s of the storm, a window of 1 s answers at least half as many reads as the baseline did.
        let recoveredAfter: number | undefined;
        while (recoveredAfter === undefined && Date.now() < stormEnd + 5000) {
          await sleep(100);
          const now = Date.now();
          if (now - 1000 >= stormEnd && answeredIn(now - 1000, now) >= baseline / 2)
            recoveredAfter = now - stormEnd;
        }
        reading = false;
        // The reads still waiting get until 10 s after their start to answer.
        const oldest = Math.min(Date.now(), ...[...waiting].map((read) => read.start));
        await Promise.race([Promise.all(readers), sleep(Math.max(0, oldest + 10_000 - Date.now()))]);
        const longest = Math.max(
          ...timings.map((timing) => timing.end - timing.start),
          ...[...waiting].map((read) => Date.now() - read.start),
        );
        expect(
          { recoveredWithin5s: recoveredAfter !== undefined, longestWaitUnder10s: longest < 10_000 },
          `baseline ${Math.round(baseline)} reads/s; ${killed} connections ended, ${silenced} silenced; ` +
            `back after ${recoveredAfter ?? 'more than 5000'} ms; longest wait ${longest} ms`,
        ).toEqual({ recoveredWithin5s: true, longestWaitUnder10s: true });
        expect(baseline).toBeGreaterThan(20);
        for (const timing of timings) expect([200, 503]).toContain(timing.status);

        // The jobs run again: a mail sent now is delivered (to an address of this try's own).
        const afterStorm = `after.storm.${Date.now()}@example.com`;
        const invited = await admin.post('/api/users', {
          siteId,
          dryRun: false,
          users: [{ fullname: 'After Storm', company: 'Cut Cables Ltd', email: afterStorm }],
        });
        expect(invited.status).toBe(200);
        await eventually(
          () => readMails(t.config).some((mail) => mail.includes(`To: ${afterStorm}`)),
          10_000,
        );
        expect(crashes).toEqual([]);
      } finally {
        reading = false;
        relay.dropFrozen();
      }
    });

    it('answers 503 within 10 s while the database cannot be reached, and serves again once it can', async () => {
      relay.cutOff();
      try {
        const start = Date.now();
        const answers = await Promise.race([
          Promise.all([admin.get<ErrorBody>('/api/me'), admin.get<ErrorBody>('/api/users')]),
          sleep(12_000).then(() => 'no answer in 12 s' as const),
        ]);
        expect(answers).not.toBe('no answer in 12 s');
        if (answers === 'no answer in 12 s') return;
        expect(Date.now() - start).toBeLessThan(10_000);
        for (const answer of answers) expectUnavailable(answer);
      } finally {
        relay.restore();
      }
      await eventually(async () => (await admin.get('/api/me')).status === 200);
      expect(crashes).toEqual([]);
    });

    it('survives every connection of the database being ended again and again during a burst', async () => {
      const eventId = (await admin.post<{ results: { eventId: string } }>('/api/events/create')).body.results
        .eventId;
      expect(
        (await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/chaos'] })).status,
      ).toBe(200);
      let stop = false;
      let killed = 0;
      const chaos = (async () => {
        while (!stop) {
          killed += await terminate('true');
          await sleep(3);
        }
      })();
      const responses = await Promise.all([
        importUsers('chaos'),
        ...writeExtraData('chaos'),
        ...Array.from({ length: 5 }, () => admin.get<ErrorBody>('/api/users')),
        admin.get<ErrorBody>(`/api/events/${eventId}/longpoll`),
      ]);
      stop = true;
      await chaos;
      expect(killed).toBeGreaterThan(0);
      for (const response of responses) {
        if (response.status !== 200) expectUnavailable(response);
      }
      expect(responses.some((response) => response.status === 503)).toBe(true);
      const imported = await importedCount('chaos');
      expect([0, 100]).toContain(imported);
      if (responses[0]?.status === 200) expect(imported).toBe(100);

      // The pool replaces its connections, and the live-update listener reconnects (once: one connection);
      // a change made then reaches a waiting long-poll. Up to 15 s: on a loaded two-core CI run (the e2e files
      // beside these) it took more than 5 s once; how fast it comes back is the storm test's budget above.
      await eventually(async () => (await admin.get('/api/users')).status === 200, 15_000);
      await eventually(async () => (await listeners()) === 1, 15_000);
      const waiting = admin.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
      await sleep(200);
      await t.ctx.publish('cloud/chaos', [1]);
      const delivered = await waiting;
      expect(delivered.status).toBe(200);
      expect(delivered.body.results.map((update) => update.channel)).toContain('cloud/chaos');
      expect(await listeners()).toBe(1);
      expect(crashes).toEqual([]);
    });
  },
);

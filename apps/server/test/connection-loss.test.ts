import { extraDataStoredKey } from '@media/contract';
import { inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extraData } from '../src/modules/config/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import { makeAccount, makeSite } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  type TestApp,
  type TestClient,
  type TestResponse,
  testDriver,
} from './harness.ts';

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
    let siteId: number;
    let accountIds: number[];
    const crashes: unknown[] = [];
    const recordCrash = (error: unknown) => crashes.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', recordCrash);
      process.on('unhandledRejection', recordCrash);
      t = await buildTestApp({ LONG_POLL_SECONDS: '5' });
      admin = await t.admin();
      siteId = (await makeSite(t.ctx.db)).id;
      accountIds = [];
      for (let i = 0; i < 4; i++) accountIds.push((await makeAccount(t.ctx.db, { siteId })).id);
      // The killer sits in the scratch database, so pg_stat_activity.datname finds the server's connections.
      killer = new pg.Client({ connectionString: t.config.databaseUrl });
      await killer.connect();
    });
    afterAll(async () => {
      await killer?.end();
      await t?.close();
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
    const importedCount = async (tag: string) =>
      (
        await t.ctx.db
          .select({ id: users.id })
          .from(users)
          .where(
            inArray(
              users.email,
              importRows(tag).map((row) => row.email),
            ),
          )
      ).length;
    const expectUnavailable = (response: TestResponse<ErrorBody>) => {
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('unavailable');
      expect(response.body.error.message).toMatch(/database/i);
    };

    it('answers 503 to the requests whose transaction lost its connection, keeps nothing of them, and serves the next call', async () => {
      // Hold the tables the import and the writes change, so each stops inside its transaction (after the
      // import inserted its users); then end exactly those connections while they wait. The holder is a
      // connection of its own: in a transaction, pg_stat_activity would answer the same snapshot again.
      const holder = new pg.Client({ connectionString: t.config.databaseUrl });
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
      const holder = new pg.Client({ connectionString: t.config.databaseUrl });
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

      // The pool replaced its connections, and the live-update listener reconnected: a change made now
      // reaches a waiting long-poll.
      const users = await admin.get('/api/users');
      expect(users.status).toBe(200);
      const waiting = admin.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
      await sleep(200);
      await t.ctx.publish('cloud/chaos', [1]);
      const delivered = await waiting;
      expect(delivered.status).toBe(200);
      expect(delivered.body.results.map((update) => update.channel)).toContain('cloud/chaos');
      expect(crashes).toEqual([]);
      // The listener is back on its own connection.
      const listening = await t.ctx.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
      );
      expect((listening as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
    });
  },
);

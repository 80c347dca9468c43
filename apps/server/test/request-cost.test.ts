import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../src/modules/auth/tables.ts';
import { liveEventCacheOf } from '../src/modules/events/event-cache.ts';
import { liveChanges, liveEvents } from '../src/modules/events/tables.ts';
import { users } from '../src/modules/users/tables.ts';
import type { AppContext } from '../src/platform/context.ts';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, eventually, type TestApp, type TestClient, testDriver } from './harness.ts';

/**
 * Every statement the database driver is given while `recording`: plain queries, and a transaction as
 * one entry (PGlite's `transaction`, a pooled client taken for one on PostgreSQL).
 */
const watchStatements = (ctx: AppContext) => {
  const client = (ctx.db as unknown as { $client: Record<string, unknown> }).$client;
  const seen: string[] = [];
  let recording = false;
  // pg's Pool.query takes a client through Pool.connect itself (synchronously): that is not a transaction.
  let inQuery = false;
  for (const name of ['query', 'transaction', 'connect']) {
    const original = client[name];
    if (typeof original !== 'function') continue;
    client[name] = (...args: unknown[]) => {
      if (recording && !(name === 'connect' && inQuery)) {
        const first = args[0];
        const text = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
        seen.push(name === 'query' ? (text ?? '') : `(${name})`);
      }
      const outer = inQuery;
      inQuery = name === 'query';
      try {
        return (original as (...a: unknown[]) => unknown).apply(client, args);
      } finally {
        inQuery = outer;
      }
    };
  }
  return {
    /** The statements run while `work` ran. */
    during: async (work: () => Promise<unknown>) => {
      seen.length = 0;
      recording = true;
      try {
        await work();
      } finally {
        recording = false;
      }
      return [...seen];
    },
  };
};

const sessionWrites = (statements: string[]) =>
  statements.filter((s) => /^update "?sessions"?/i.test(s.trim()) && /last_seen_at/.test(s));
const eventWrites = (statements: string[]) =>
  statements.filter((s) => /^update "?live_events"?/i.test(s.trim()));

describe(`cost of a request: queries, writes, long-polls (${testDriver()})`, () => {
  let t: TestApp;
  let watch: ReturnType<typeof watchStatements>;
  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '3' });
    watch = watchStatements(t.ctx);
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const user = await makeUser(t.ctx.db);
    return { user, client: await t.client().signIn(user.username, user.password as string) };
  };
  /** Moves a user's sessions' last activity back, as if they had not been used for that long. */
  const idleFor = (userId: number, seconds: number) =>
    t.ctx.db
      .update(sessions)
      .set({ lastSeenAt: sql`now() - make_interval(secs => ${seconds})` })
      .where(eq(sessions.userId, userId));
  const lastSeen = async (userId: number) => {
    const [row] = await t.ctx.db
      .select({ lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    return row?.lastSeenAt.getTime() ?? 0;
  };

  it('answers a signed-in GET /api/me with at most 5 queries, none of them a write, even when activity is due; then with no query but the read of the auth epoch', async () => {
    const { user, client } = await signedIn();
    await idleFor(user.id, 5 * 60);
    // On PostgreSQL each request first reads the auth epoch (platform/auth/auth-epoch.ts).
    const epochRead = t.driver === 'postgres' ? 1 : 0;
    let status = 0;
    const statements = await watch.during(async () => {
      status = (await client.get('/api/me')).status;
    });
    expect(status).toBe(200);
    // The session (one query, user included), the user, the rights (manager grants, account access) and
    // the editor limits of the user's accounts. Writing the activity time is not the request's business.
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(5 + epochRead);
    expect(statements.filter((s) => /^\s*(update|insert|delete)/i.test(s))).toEqual([]);
    expect(statements.filter((s) => /from "sessions"/.test(s))).toHaveLength(1);
    // Cached whole, answer included, until the auth epoch moves: no query but the epoch's own read.
    const again = await watch.during(() => client.get('/api/me'));
    expect(again, again.join('\n')).toHaveLength(epochRead);
  });

  it('writes the activity time of a session once for many requests at once, after they have answered', async () => {
    const { user, client } = await signedIn();
    await idleFor(user.id, 5 * 60);
    const before = await lastSeen(user.id);
    const statements = await watch.during(async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => client.get('/api/me')));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      await client.get('/api/me');
      // Written in the background, shortly after.
      await eventually(async () => (await lastSeen(user.id)) > before + 4 * 60_000 || undefined);
      await client.get('/api/me');
    });
    expect(sessionWrites(statements)).toHaveLength(1);
    expect(Date.now() - (await lastSeen(user.id))).toBeLessThan(10_000);
  });

  it('keeps failing an ended or disabled session at once, whatever activity is pending', async () => {
    const disconnected = await signedIn();
    await idleFor(disconnected.user.id, 5 * 60);
    expect((await disconnected.client.get('/api/me')).status).toBe(200);
    await t.ctx.db
      .update(sessions)
      .set({ endedAt: new Date(), disconnectMessage: 'Closing for maintenance' })
      .where(eq(sessions.userId, disconnected.user.id));
    const ended = await disconnected.client.get<{ error: { message: string } }>('/api/me');
    expect(ended.status).toBe(401);
    expect(ended.body.error.message).toBe('Closing for maintenance');

    const disabled = await signedIn();
    await idleFor(disabled.user.id, 5 * 60);
    expect((await disabled.client.get('/api/me')).status).toBe(200);
    await t.ctx.db.update(users).set({ disabled: true }).where(eq(users.id, disabled.user.id));
    expect((await disabled.client.get('/api/me')).status).toBe(401);

    const signedOut = await signedIn();
    await idleFor(signedOut.user.id, 5 * 60);
    expect((await signedOut.client.get('/api/me')).status).toBe(200);
    const { client: other } = await signedIn();
    // A password change ends the user's other sessions: the rows go.
    await t.ctx.db.delete(sessions).where(eq(sessions.userId, signedOut.user.id));
    expect((await signedOut.client.get('/api/me')).status).toBe(401);
    expect((await other.get('/api/me')).status).toBe(200);
  });

  const openPage = async (client: TestClient, channels: string[]) => {
    const created = await client.post<{ results: { eventId: string } }>('/api/events/create');
    const eventId = created.body.results.eventId;
    expect((await client.post(`/api/events/${eventId}/subscribe`, { channels })).status).toBe(200);
    return eventId;
  };

  it('polls without writing: an event id is marked as in use at most once a minute, off the poll', async () => {
    const { client } = await signedIn();
    const eventId = await openPage(client, ['cloud/roles']);
    // Once this instance has read the subscribe's announcement (on PostgreSQL that read may come later).
    const [newest] = await t.ctx.db.select({ id: sql<number>`max(${liveChanges.id})` }).from(liveChanges);
    await eventually(() => t.ctx.live.recent.highestRead() >= Number(newest?.id) || undefined);
    const liveReads = (statements: string[]) =>
      statements.filter((s) => /from "live_(events|subscriptions)"/.test(s));
    // A poll answering a change: no read (the subscribe just before left this instance the event id and its
    // channels), and the cursor written.
    const first = await watch.during(async () => {
      const poll = client.get<{ results: unknown[] }>(`/api/events/${eventId}/longpoll`);
      await eventually(() => t.ctx.live.recent.waiting().pollers === 1 || undefined);
      await t.ctx.publish('cloud/roles', [1]);
      expect((await poll).body.results).toHaveLength(1);
    });
    expect(liveReads(first)).toEqual([]);
    expect(eventWrites(first)).toHaveLength(1);
    // A poll that times out writes nothing, and a poll again reads nothing: the instance keeps the event id
    // it read (issue 31: with 20,000 pages that read was most of the server's work).
    const statements = await watch.during(async () => {
      const poll = await client.get<{ results: unknown[] }>(`/api/events/${eventId}/longpoll`);
      expect(poll.body.results).toEqual([]);
    });
    expect(eventWrites(statements)).toEqual([]);
    expect(liveReads(statements)).toEqual([]);

    // Marked long enough ago, on an instance without a copy of the event id (another instance served the
    // page until now): the poll marks it again, while it waits.
    liveEventCacheOf(t.ctx.live.recent).delete(eventId);
    const markedAt = Date.now() - 2 * 60_000;
    await t.ctx.db
      .update(liveEvents)
      .set({ lastSeenAt: new Date(markedAt) })
      .where(eq(liveEvents.id, eventId));
    const poll = client.get(`/api/events/${eventId}/longpoll`);
    await eventually(async () => {
      const [row] = await t.ctx.db.select().from(liveEvents).where(eq(liveEvents.id, eventId));
      return (row?.lastSeenAt.getTime() ?? 0) > markedAt + 60_000 || undefined;
    });
    expect(t.ctx.live.recent.waiting().pollers).toBe(1);
    expect((await poll).status).toBe(200);
  });

  it('holds no database connection while long-polls wait: 50 of them; GET /api/me answers meanwhile, a change wakes only its poll', async () => {
    const { client } = await signedIn();
    const pages = await Promise.all(
      Array.from({ length: 50 }, (_, i) => openPage(client, [`cloud/page${i}`])),
    );
    const polls = pages.map((eventId) =>
      client.get<{ results: unknown[] }>(`/api/events/${eventId}/longpoll`),
    );
    await eventually(() => t.ctx.live.recent.waiting().pollers === 50 || undefined);
    const statements = await watch.during(async () => {
      expect((await client.get('/api/me')).status).toBe(200);
    });
    // Answered while every poll still waits: they hold nothing the request needs.
    expect(t.ctx.live.recent.waiting().pollers).toBe(50);
    expect(statements.length).toBeLessThanOrEqual(5);
    // Waiting pollers run no queries of their own.
    expect(await watch.during(() => new Promise((resolve) => setTimeout(resolve, 300)))).toEqual([]);

    // A change wakes the poll of its channel, not all 50: one look at the recent changes, not 50.
    const recent = t.ctx.live.recent;
    const since = recent.since.bind(recent);
    let looks = 0;
    recent.since = (...args) => {
      looks += 1;
      return since(...args);
    };
    try {
      await t.ctx.publish('cloud/page7', [7]);
      const answered = await polls[7];
      expect(answered?.body.results).toHaveLength(1);
      expect(looks).toBe(1);
      expect(recent.waiting().pollers).toBe(49);
    } finally {
      recent.since = since;
    }
    const answers = await Promise.all(polls);
    expect(answers.filter((a) => a.status === 200 && a.body.results.length === 0)).toHaveLength(49);
  });

  it('forgets a waiting poll once it stops waiting, and wakes the pollers of a channel once per change', async () => {
    const woken: number[] = [];
    const stops = Array.from({ length: 100 }, (_, i) =>
      t.ctx.live.recent.onChange([`cloud/listener${i}`, `internal/events/listener${i}`], () => woken.push(i)),
    );
    try {
      await t.ctx.publish('cloud/listener7', [1]);
      await t.ctx.publish('internal/events/listener9', []);
      await eventually(() => woken.length >= 2 || undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(woken.sort((a, b) => a - b)).toEqual([7, 9]);
    } finally {
      for (const stop of stops) stop();
    }
    expect(t.ctx.live.recent.waiting()).toEqual({ pollers: 0, channels: 0 });
  });
});

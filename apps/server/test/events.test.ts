import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvents } from '../src/modules/events/tables.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type ErrorBody, type TestApp, type TestClient, testDriver } from './harness.ts';

type Updates = { results: { channel: string; timestamp: number; data: { modified: (string | number)[] } }[] };

const createEvent = async (client: TestClient) => {
  const response = await client.post<{ results: { eventId: string } }>('/api/events/create');
  expect(response.status).toBe(200);
  return response.body.results.eventId;
};

describe(`live updates: events API (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '1' });
  });
  afterAll(() => t.close());

  it('answers an empty list when nothing changes before the long-poll time-out', async () => {
    const admin = await t.admin();
    const eventId = await createEvent(admin);
    expect((await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/roles'] })).status).toBe(
      200,
    );
    const started = Date.now();
    const poll = await admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(poll.status).toBe(200);
    expect(poll.body.results).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('delivers a change published while the long-poll waits, and one published between polls', async () => {
    const admin = await t.admin();
    const eventId = await createEvent(admin);
    expect(
      (await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/things'] })).status,
    ).toBe(200);
    const waiting = admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await t.ctx.publish('cloud/things', [5, 6]);
    const first = await waiting;
    expect(first.body.results).toEqual([
      { channel: 'cloud/things', timestamp: expect.any(Number), data: { modified: [5, 6] } },
    ]);

    await t.ctx.publish('cloud/things', [7]);
    await t.ctx.publish('cloud/roles', [1]);
    const second = await admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(second.body.results.map((u) => u.data.modified)).toEqual([[7]]);
    const third = await admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(third.body.results).toEqual([]);
  });

  it('wakes a waiting long-poll when a channel is added, and delivers that channel at once', async () => {
    const admin = await t.admin();
    const eventId = await createEvent(admin);
    await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/first'] });
    const waiting = admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      (await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/second'] })).status,
    ).toBe(200);
    await t.ctx.publish('cloud/second', [42]);
    const started = Date.now();
    const delivered = await waiting;
    expect(delivered.body.results.map((u) => u.channel)).toEqual(['cloud/second']);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('announces a lifted sign-in lock-out on the lock-out channel', async () => {
    const admin = await t.admin();
    const eventId = await createEvent(admin);
    await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/loginLockouts'] });
    const user = await makeUser(t.ctx.db);
    for (let i = 0; i < 5; i++) {
      await t
        .client()
        .post('/api/login', { username: user.username, password: 'wrong' }, { remoteAddress: '10.5.0.1' });
    }
    const lockKey = `user:${user.username.toLowerCase()} from 10.5.0.1`;
    const locked = await admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(locked.body.results[0]?.data.modified).toContain(lockKey);
    await admin.post('/api/loginLockouts/lift', { kind: 'user', key: user.username });
    const lifted = await admin.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(lifted.body.results).toEqual([
      expect.objectContaining({
        channel: 'cloud/loginLockouts',
        data: { modified: [lockKey] },
      }),
    ]);
  });

  it('never delivers a channel of an account the user cannot read, checked at subscribe and at delivery', async () => {
    const db = t.ctx.db;
    const mine = await makeAccount(db);
    const other = await makeAccount(db);
    const user = await makeUser(db);
    await grantAccountAccess(db, user.id, mine.id, 'Editor');
    const client = await t.client().signIn(user.username, user.password as string);
    const eventId = await createEvent(client);
    const refused = await client.post<ErrorBody>(`/api/events/${eventId}/subscribe`, {
      channels: [`accounts/${other.id}/nodes`],
    });
    expect(refused.status).toBe(403);
    expect(
      (await client.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/loginLockouts'] })).status,
    ).toBe(403);
    expect(
      (
        await client.post(`/api/events/${eventId}/subscribe`, {
          channels: [`users/${user.id}/notifications`],
        })
      ).status,
    ).toBe(200);
    expect(
      (await client.post(`/api/events/${eventId}/subscribe`, { channels: [`accounts/${mine.id}/nodes`] }))
        .status,
    ).toBe(200);
    await t.ctx.publish(`accounts/${other.id}/nodes`, [1]);
    await t.ctx.publish(`accounts/${mine.id}/nodes`, [2]);
    const poll = await client.get<Updates>(`/api/events/${eventId}/longpoll`);
    expect(poll.body.results.map((u) => u.channel)).toEqual([`accounts/${mine.id}/nodes`]);

    // Access removed after subscribing: the next change is not delivered.
    await db.execute(sql`delete from account_access where user_id = ${user.id}`);
    await t.ctx.publish(`accounts/${mine.id}/nodes`, [3]);
    expect((await client.get<Updates>(`/api/events/${eventId}/longpoll`)).body.results).toEqual([]);
  });

  it('answers 410 for an unknown id, an id idle for 5 minutes, someone else’s id and a deleted id', async () => {
    const admin = await t.admin();
    expect((await admin.get<ErrorBody>('/api/events/nope/longpoll')).status).toBe(410);
    expect((await admin.post('/api/events/nope/subscribe', { channels: ['cloud/roles'] })).status).toBe(410);

    const idle = await createEvent(admin);
    await t.ctx.db
      .update(liveEvents)
      .set({ lastSeenAt: new Date(Date.now() - 6 * 60_000) })
      .where(eq(liveEvents.id, idle));
    expect((await admin.get(`/api/events/${idle}/longpoll`)).status).toBe(410);

    const user = await makeUser(t.ctx.db);
    const other = await t.client().signIn(user.username, user.password as string);
    const theirs = await createEvent(other);
    expect((await admin.get(`/api/events/${theirs}/longpoll`)).status).toBe(410);

    const deleted = await createEvent(admin);
    expect((await admin.post(`/api/events/${deleted}/delete`)).status).toBe(200);
    expect((await admin.get(`/api/events/${deleted}/longpoll`)).status).toBe(410);
    expect((await admin.post(`/api/events/${deleted}/delete`)).status).toBe(410);
  });

  it('refuses a subscribe without channels (400) and every call without a session (401)', async () => {
    const admin = await t.admin();
    const eventId = await createEvent(admin);
    const empty = await admin.post<ErrorBody>(`/api/events/${eventId}/subscribe`, { channels: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('At least one channel is required');
    expect((await admin.post(`/api/events/${eventId}/subscribe`, {})).status).toBe(400);
    expect(
      (await admin.post(`/api/events/${eventId}/subscribe`, { channels: ['bad channel!'] })).status,
    ).toBe(400);
    const anonymous = t.client();
    expect((await anonymous.post('/api/events/create')).status).toBe(401);
    expect(
      (await anonymous.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/roles'] })).status,
    ).toBe(401);
    expect((await anonymous.get(`/api/events/${eventId}/longpoll`)).status).toBe(401);
    expect((await anonymous.post(`/api/events/${eventId}/delete`)).status).toBe(401);
  });
});

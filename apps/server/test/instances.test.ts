import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures } from '../src/modules/auth/tables.ts';
import { liveChanges } from '../src/modules/events/tables.ts';
import { LISTENER_APPLICATION_NAME } from '../src/platform/live/bus.ts';
import {
  buildSecondInstance,
  buildTestApp,
  eventually,
  type TestApp,
  TestClient,
  testDriver,
} from './harness.ts';

// Several instances share one PostgreSQL database; PGlite is one process's database by design.
describe.skipIf(testDriver() !== 'postgres')('two instances on one PostgreSQL database', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildSecondInstance>>;

  beforeAll(async () => {
    a = await buildTestApp();
    b = await buildSecondInstance(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('serves a session signed in on instance A from instance B, and a sign-out on B ends it on A', async () => {
    const onA = await a.admin();
    const onB = new TestClient(b.app, b.ctx.config);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const me = await onB.get<{ results: { username: string } }>('/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.username).toBe('admin');
    expect((await onB.post('/api/logout')).status).toBe(200);
    expect((await onA.get('/api/me')).status).toBe(401);
  });

  it('brings a change made through instance A to a long-poller on instance B within 1 s', async () => {
    const onA = await a.admin();
    const onB = new TestClient(b.app, b.ctx.config);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const created = await onB.post<{ results: { eventId: string } }>('/api/events/create');
    const eventId = created.body.results.eventId;
    expect(
      (await onB.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/loginLockouts'] })).status,
    ).toBe(200);
    await a.ctx.db.insert(loginFailures).values({
      kind: 'user',
      key: 'two-instances',
      failures: 5,
      lockedUntil: new Date(Date.now() + 60_000),
    });
    const waiting = onB.get<{ results: { channel: string; data: { modified: string[] } }[] }>(
      `/api/events/${eventId}/longpoll`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const changedAt = Date.now();
    expect((await onA.post('/api/loginLockouts/lift', { kind: 'user', key: 'two-instances' })).status).toBe(
      200,
    );
    const delivered = await waiting;
    expect(Date.now() - changedAt).toBeLessThan(1000);
    expect(delivered.body.results).toEqual([
      expect.objectContaining({ channel: 'cloud/loginLockouts', data: { modified: ['user:two-instances'] } }),
    ]);
  });

  it('reads an event id again on B once A changed its subscriptions or deleted it (B keeps what it read)', async () => {
    const onA = await a.admin();
    const onB = new TestClient(b.app, b.ctx.config);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const eventId = (await onA.post<{ results: { eventId: string } }>('/api/events/create')).body.results
      .eventId;
    expect((await onA.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/roles'] })).status).toBe(
      200,
    );
    // B reads the event id at its first poll and keeps it.
    const first = onB.get<{ results: unknown[] }>(`/api/events/${eventId}/longpoll`);
    await eventually(() => b.ctx.live.recent.waiting().pollers === 1 || undefined);
    await a.ctx.publish('cloud/roles', [1]);
    expect((await first).body.results).toHaveLength(1);
    // A channel added on A reaches the next poll on B.
    expect(
      (await onA.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/loginLockouts'] })).status,
    ).toBe(200);
    const second = onB.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
    await eventually(() => b.ctx.live.recent.waiting().pollers === 1 || undefined);
    await a.ctx.publish('cloud/loginLockouts', ['user:instances']);
    expect((await second).body.results).toEqual([
      expect.objectContaining({ channel: 'cloud/loginLockouts' }),
    ]);
    // Deleted on A: B answers 410 as soon as it has read the announcement.
    expect((await onA.post(`/api/events/${eventId}/delete`)).status).toBe(200);
    const [announced] = await a.ctx.db.select({ id: sql<number>`max(${liveChanges.id})` }).from(liveChanges);
    await eventually(() => b.ctx.live.recent.highestRead() >= Number(announced?.id) || undefined);
    expect((await onB.get(`/api/events/${eventId}/longpoll`)).status).toBe(410);
  });

  it('keeps delivering after the listening connection is cut: it reconnects and long-pollers look again', async () => {
    const onB = new TestClient(b.app, b.ctx.config);
    const onA = await a.admin();
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    const eventId = (await onB.post<{ results: { eventId: string } }>('/api/events/create')).body.results
      .eventId;
    await onB.post(`/api/events/${eventId}/subscribe`, { channels: ['cloud/cut'] });
    const waiting = onB.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Cut every LISTEN connection of this database; both instances must recover.
    const cut = (await a.ctx.db.execute(
      sql`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and application_name = ${LISTENER_APPLICATION_NAME}`,
    )) as unknown as { rows: { ended: boolean }[] };
    expect(cut.rows.filter((r) => r.ended)).toHaveLength(2);
    await a.ctx.publish('cloud/cut', [1]);
    const delivered = await waiting;
    expect(delivered.body.results.map((u) => u.channel)).toEqual(['cloud/cut']);
  });

  it('shares the anti-forgery key, so a token issued by A is accepted by B', async () => {
    expect(b.ctx.secretKey).toBe(a.ctx.secretKey);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyAccountUsers, notifyUser } from '../src/modules/notifications/service.ts';
import { grantAccountAccess, makeAccount, makeUser } from '../src/seed/factories.ts';
import { buildTestApp, eventually, readMails, type TestApp, testDriver } from './harness.ts';

type List = {
  results: { id: number; type: string; message: string; status: string }[];
  total: number;
  channel: string;
};
type Settings = { results: { type: string }[] };

describe(`user notifications and notification settings (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ LONG_POLL_SECONDS: '2' });
  });
  afterAll(() => t.close());

  it('lists a user’s notifications newest first with their channel, and acknowledging removes one', async () => {
    const user = await makeUser(t.ctx.db);
    await notifyUser(t.ctx, user.id, { type: 'info', message: 'first' });
    await notifyUser(t.ctx, user.id, { type: 'problem', message: 'pbnotconn1 Studio pbnotconn2' });
    const client = await t.client().signIn(user.username, user.password as string);
    const list = await client.get<List>(`/api/users/${user.id}/notifications`);
    expect(list.status).toBe(200);
    expect(list.body.channel).toBe(`users/${user.id}/notifications`);
    expect(list.body.results.map((n) => n.message)).toEqual(['pbnotconn1 Studio pbnotconn2', 'first']);
    const [newest] = list.body.results;
    const ack = await client.post<{ results: { status: string } }>(
      `/api/users/${user.id}/notifications/${newest?.id}`,
      { status: 'acknowledged' },
    );
    expect(ack.body.results.status).toBe('acknowledged');
    const after = await client.get<List>(`/api/users/${user.id}/notifications`);
    expect(after.body.results.map((n) => n.message)).toEqual(['first']);
    expect(after.body.total).toBe(1);
  });

  it('announces a new notification on the user’s channel', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const eventId = (await client.post<{ results: { eventId: string } }>('/api/events/create')).body.results
      .eventId;
    await client.post(`/api/events/${eventId}/subscribe`, { channels: [`users/${user.id}/notifications`] });
    const waiting = client.get<{ results: { channel: string }[] }>(`/api/events/${eventId}/longpoll`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await notifyUser(t.ctx, user.id, { type: 'done', message: 'Export finished' });
    expect((await waiting).body.results.map((u) => u.channel)).toEqual([`users/${user.id}/notifications`]);
  });

  it('notifies every user of an account, and nobody else', async () => {
    const account = await makeAccount(t.ctx.db);
    const [one, two, outsider] = [
      await makeUser(t.ctx.db),
      await makeUser(t.ctx.db),
      await makeUser(t.ctx.db),
    ];
    await grantAccountAccess(t.ctx.db, one.id, account.id, 'Editor');
    await grantAccountAccess(t.ctx.db, two.id, account.id, 'Account Manager');
    await notifyAccountUsers(t.ctx, account.id, { type: 'done', message: 'Ingest finished' });
    const admin = await t.admin();
    for (const [user, expected] of [
      [one, 1],
      [two, 1],
      [outsider, 0],
    ] as const) {
      const list = await admin.get<List>(`/api/users/${user.id}/notifications`);
      expect(list.body.total).toBe(expected);
    }
  });

  it('notifies a user whose second factor an administrator reset', async () => {
    const user = await makeUser(t.ctx.db);
    const admin = await t.admin();
    expect((await admin.post(`/api/users/${user.id}/mfa/reset`)).status).toBe(200);
    const client = await t.client().signIn(user.username, user.password as string);
    const list = await client.get<List>(`/api/users/${user.id}/notifications`);
    expect(list.body.results).toEqual([
      expect.objectContaining({
        type: 'warning',
        message: 'Your second factor was reset by an administrator. Set it up again from your user settings.',
      }),
    ]);
  });

  it('turns email notifications on and off, and mails new notifications while on', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    expect((await client.get<Settings>(`/api/users/${user.id}/notificationSettings`)).body.results).toEqual(
      [],
    );
    const on = await client.post<Settings>(`/api/users/${user.id}/notificationSettings`, {
      add: [{ type: 'email' }],
    });
    expect(on.body.results).toEqual([{ type: 'email' }]);
    await notifyUser(t.ctx, user.id, { type: 'problem', message: 'mediaexpired for clip 7' });
    const mail = await eventually(() => readMails(t.config).find((m) => m.includes(user.email)));
    expect(mail).toContain('Media has expired for clip 7');
    const off = await client.post<Settings>(`/api/users/${user.id}/notificationSettings`, {
      remove: [{ type: 'email' }],
    });
    expect(off.body.results).toEqual([]);
    await notifyUser(t.ctx, user.id, { type: 'info', message: 'quiet now' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readMails(t.config).some((m) => m.includes('quiet now'))).toBe(false);
  });

  it('refuses bad input (400), no session (401), other users existing or not (403)', async () => {
    const user = await makeUser(t.ctx.db);
    const other = await makeUser(t.ctx.db);
    await notifyUser(t.ctx, other.id, { type: 'info', message: 'theirs' });
    const client = await t.client().signIn(user.username, user.password as string);
    expect(
      (await client.post(`/api/users/${user.id}/notificationSettings`, { add: [{ type: 'sms' }] })).status,
    ).toBe(400);
    expect((await client.post(`/api/users/${user.id}/notificationSettings`, { add: [] })).status).toBe(400);
    expect((await client.post(`/api/users/${user.id}/notifications/1`, { status: 'read' })).status).toBe(400);
    expect((await t.client().get(`/api/users/${user.id}/notifications`)).status).toBe(401);
    expect(
      (await t.client().post(`/api/users/${user.id}/notificationSettings`, { add: [{ type: 'email' }] }))
        .status,
    ).toBe(401);
    expect((await client.get(`/api/users/${other.id}/notifications`)).status).toBe(403);
    expect((await client.get(`/api/users/${other.id}/notificationSettings`)).status).toBe(403);
    expect(
      (await client.post(`/api/users/${other.id}/notificationSettings`, { add: [{ type: 'email' }] })).status,
    ).toBe(403);
    const theirs = (await (await t.admin()).get<List>(`/api/users/${other.id}/notifications`)).body
      .results[0];
    expect(
      (await client.post(`/api/users/${other.id}/notifications/${theirs?.id}`, { status: 'acknowledged' }))
        .status,
    ).toBe(403);
    expect(
      (await client.post(`/api/users/${user.id}/notifications/${theirs?.id}`, { status: 'acknowledged' }))
        .status,
    ).toBe(404);
    // Another user's id answers 403 whether it exists or not; an administrator learns 404.
    expect((await client.get('/api/users/999999/notifications')).status).toBe(403);
    expect((await client.get('/api/users/999999/notificationSettings')).status).toBe(403);
    expect((await (await t.admin()).get('/api/users/999999/notifications')).status).toBe(404);
  });
});

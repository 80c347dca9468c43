import {
  DEFAULT_DISCONNECT_MESSAGE,
  MSG_DISCONNECT_REQUIRED,
  MSG_DISCONNECTION_SUCCESSFUL,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Session = { id: string; sessionId: string; user: number; username: string; ip: string; status: string };

describe(`account sessions and disconnection (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  /** A user of the account whose session has entered it (launched): the sessions list shows those. */
  const signedInUserOfAccount = async () => {
    const user = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, user.id, w.account.id, 'Editor');
    const client = await t.client().signIn(user.username, user.password as string);
    expect((await client.post(`/api/accounts/${w.account.id}/launch`, {})).status).toBe(200);
    return { user, client };
  };

  it('lists the sessions opened in the account with ip and status', async () => {
    const { user } = await signedInUserOfAccount();
    const list = await w.accountManager.client.get<Collection<Session>>(
      `/api/accounts/${w.account.id}/sessions`,
    );
    expect(list.status).toBe(200);
    expect(list.body.channel).toBe(`accounts/${w.account.id}/sessions`);
    const row = list.body.results.find((s) => s.user === user.id);
    expect(row).toMatchObject({ username: user.username, status: 'active' });
    expect(list.body.results.some((s) => s.user === w.outsider.user.id)).toBe(false);
  });

  it('ends a session at once; its next call answers 401 with the message', async () => {
    const { user, client } = await signedInUserOfAccount();
    const list = await w.accountManager.client.get<Collection<Session>>(
      `/api/accounts/${w.account.id}/sessions`,
    );
    const session = list.body.results.find((s) => s.user === user.id) as Session;
    const done = await w.accountManager.client.post<Results<{ message: string }>>(
      `/api/accounts/${w.account.id}/sessions/${session.sessionId}/trash`,
      { disconnectmessage: DEFAULT_DISCONNECT_MESSAGE },
    );
    expect(done.body.results.message).toBe(MSG_DISCONNECTION_SUCCESSFUL);
    const next = await client.get<ErrorBody>('/api/me');
    expect(next.status).toBe(401);
    expect(next.body.error.message).toBe(DEFAULT_DISCONNECT_MESSAGE);
    const after = await w.accountManager.client.get<Collection<Session>>(
      `/api/accounts/${w.account.id}/sessions`,
    );
    expect(after.body.results.some((s) => s.sessionId === session.sessionId)).toBe(false);
  });

  it('disconnects through /api/disconnection only as the signed-in user', async () => {
    const { user, client } = await signedInUserOfAccount();
    const list = await w.accountManager.client.get<Collection<Session>>(
      `/api/accounts/${w.account.id}/sessions`,
    );
    const session = list.body.results.find((s) => s.user === user.id) as Session;
    const body = {
      accountId: w.account.id,
      sessionId: session.sessionId,
      message: 'Closing for maintenance',
    };
    const forged = await w.accountManager.client.post('/api/disconnection', {
      ...body,
      byUserId: w.editor.user.id,
    });
    expect(forged.status).toBe(403);
    const done = await w.accountManager.client.post('/api/disconnection', {
      ...body,
      byUserId: w.accountManager.user.id,
    });
    expect(done.status).toBe(200);
    expect((await client.get<ErrorBody>('/api/me')).body.error.message).toBe('Closing for maintenance');
  });

  it('requires a message (400), the right (403) and a session of the account (404)', async () => {
    const { user } = await signedInUserOfAccount();
    const list = await w.accountManager.client.get<Collection<Session>>(
      `/api/accounts/${w.account.id}/sessions`,
    );
    const session = list.body.results.find((s) => s.user === user.id) as Session;
    const url = `/api/accounts/${w.account.id}/sessions/${session.sessionId}/trash`;
    const empty = await w.accountManager.client.post<ErrorBody>(url, { disconnectmessage: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain(MSG_DISCONNECT_REQUIRED);
    expect((await w.editor.client.post(url, { disconnectmessage: 'x' })).status).toBe(403);
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/sessions`)).status).toBe(403);
    const outsiderSession = await w.admin.client.post(
      `/api/accounts/${w.otherAccount.id}/sessions/${session.sessionId}/trash`,
      { disconnectmessage: 'x' },
    );
    expect(outsiderSession.status).toBe(404);
    expect((await t.client().get(`/api/accounts/${w.account.id}/sessions`)).status).toBe(401);
  });
});

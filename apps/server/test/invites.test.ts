import {
  MSG_EMAIL_TAKEN,
  MSG_INVITE_ACCEPTED,
  MSG_INVITE_INVALID,
  MSG_USER_ALREADY_LINKED,
  MSG_USERNAME_TAKEN,
} from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  eventually,
  type LoginBody,
  makeWorld,
  type Results,
  readMailTexts,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

type Invite = { id: number; email: string; roleId: number };

describe(`invites (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let editorRole: number;
  let viewerRole: number;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    const roles = await w.admin.client.get<Collection<{ id: number; name: string }>>(
      `/api/account_roles?siteId=${w.site.id}`,
    );
    editorRole = roles.body.results.find((r) => r.name === 'Editor')?.id as number;
    viewerRole = roles.body.results.find((r) => r.name === 'Viewer')?.id as number;
  });
  afterAll(() => t.close());

  const tokenMailedTo = async (email: string) => {
    const mail = await eventually(() => readMailTexts(t.config).findLast((m) => m.includes(`To: ${email}`)));
    return mail.match(/\/invite\/([A-Za-z0-9_-]+)/)?.[1] as string;
  };

  it('invites by email, lists, changes the role and withdraws', async () => {
    const made = await w.accountManager.client.post<Results<Invite[]>>(
      `/api/accounts/${w.account.id}/invites`,
      {
        data: [{ email: 'guest.one@example.com', roleId: editorRole }],
      },
    );
    expect(made.status).toBe(200);
    const invite = made.body.results[0] as Invite;
    const list = await w.accountManager.client.get<Collection<Invite>>(
      `/api/accounts/${w.account.id}/invites`,
    );
    expect(list.body.channel).toBe(`accounts/${w.account.id}/invites`);
    expect(list.body.results.map((i) => i.email)).toEqual(['guest.one@example.com']);
    const changed = await w.accountManager.client.post<Results<Invite>>(
      `/api/accounts/${w.account.id}/invites/${invite.id}`,
      { roleId: viewerRole },
    );
    expect(changed.body.results.roleId).toBe(viewerRole);
    const token = await tokenMailedTo('guest.one@example.com');
    expect((await t.client().get(`/api/invitations/${token}`)).status).toBe(200);
    expect(
      (await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites/${invite.id}/trash`)).status,
    ).toBe(200);
    const gone = await t.client().get<ErrorBody>(`/api/invitations/${token}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe(MSG_INVITE_INVALID);
    expect(
      (await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites/${invite.id}/trash`)).status,
    ).toBe(404);
  });

  it('lets a new person register through the link, with the password rules', async () => {
    await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'new.person@example.com', roleId: editorRole }],
    });
    const token = await tokenMailedTo('new.person@example.com');
    const offer = await t
      .client()
      .get<Results<{ registered: boolean; accountName: string; roleName: string }>>(
        `/api/invitations/${token}`,
      );
    expect(offer.body.results).toMatchObject({
      registered: false,
      accountName: w.account.name,
      roleName: 'Editor',
    });
    const weak = await t
      .client()
      .post(`/api/invitations/${token}/accept`, { fullname: 'New Person', newPassword: 'a' });
    expect(weak.status).toBe(400);
    const accepted = await t.client().post<Results<{ message: string }>>(`/api/invitations/${token}/accept`, {
      fullname: 'New Person',
      newPassword: 'Str0ng-Passw0rd!',
    });
    expect(accepted.body.results.message).toBe(MSG_INVITE_ACCEPTED);
    const client = await t.client().signIn('new.person', 'Str0ng-Passw0rd!');
    expect(
      (await client.get<Collection<{ id: number }>>('/api/accounts')).body.results.map((a) => a.id),
    ).toEqual([w.account.id]);
    expect((await t.client().post(`/api/invitations/${token}/accept`, {})).status).toBe(404);
  });

  it('lets an existing user accept, and refuses inviting someone already linked', async () => {
    const user = await makeUser(t.ctx.db, { email: 'existing@example.com' });
    await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'existing@example.com', roleId: viewerRole }],
    });
    const token = await tokenMailedTo('existing@example.com');
    expect(
      (await t.client().get<Results<{ registered: boolean }>>(`/api/invitations/${token}`)).body.results
        .registered,
    ).toBe(true);
    expect((await t.client().post(`/api/invitations/${token}/accept`, {})).status).toBe(200);
    const client = await t.client().signIn(user.username, user.password as string);
    expect((await client.get<Collection<{ id: number }>>('/api/accounts')).body.total).toBe(1);
    const linked = await w.accountManager.client.post<ErrorBody>(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'EXISTING@example.com', roleId: viewerRole }],
    });
    expect(linked.status).toBe(409);
    expect(linked.body.error.message).toContain(MSG_USER_ALREADY_LINKED);
  });

  it("refuses to register a user name that is a user's email, or an email that is a user's user name", async () => {
    const holder = await makeUser(t.ctx.db, { username: 'ivy@example.com', email: 'ivy.work@example.com' });
    await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'jon@example.com', roleId: editorRole }],
    });
    const jon = await tokenMailedTo('jon@example.com');
    const named = await t.client().post<ErrorBody>(`/api/invitations/${jon}/accept`, {
      fullname: 'Jon',
      username: holder.email.toUpperCase(),
      newPassword: 'Str0ng-Passw0rd!',
    });
    expect(named.status).toBe(409);
    expect(named.body.error.fields?.username).toBe(MSG_USERNAME_TAKEN);
    await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'IVY@example.com', roleId: editorRole }],
    });
    const ivy = await tokenMailedTo('IVY@example.com');
    const mailed = await t.client().post<ErrorBody>(`/api/invitations/${ivy}/accept`, {
      fullname: 'Ivy Two',
      username: 'ivy.two',
      newPassword: 'Str0ng-Passw0rd!',
    });
    expect(mailed.status).toBe(409);
    expect(mailed.body.error.message).toBe(MSG_EMAIL_TAKEN);
    expect(
      (await t.client().post<LoginBody>('/api/login', { username: 'ivy.two', password: 'Str0ng-Passw0rd!' }))
        .body.results.status,
    ).toBe('invalid');
  });

  it('answers 400 for bad input, 403 to editors, 404 for missing accounts and 401 signed out', async () => {
    const bad = await w.accountManager.client.post(`/api/accounts/${w.account.id}/invites`, {
      data: [{ email: 'not-an-email', roleId: editorRole }],
    });
    expect(bad.status).toBe(400);
    expect((await w.editor.client.get(`/api/accounts/${w.account.id}/invites`)).status).toBe(403);
    expect((await w.admin.client.get('/api/accounts/999999/invites')).status).toBe(404);
    expect((await t.client().get(`/api/accounts/${w.account.id}/invites`)).status).toBe(401);
    expect((await t.client().get('/api/invitations/short')).status).toBe(400);
  });
});

import {
  AUDIT_CSV_HEADER,
  type AuditPage,
  MSG_AUDIT_CURSOR,
  MSG_AUDIT_NO_SCOPE,
  MSG_AUDIT_RANGE,
  MSG_AUDIT_TARGET_ID_ALONE,
} from '@media/contract';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../src/seed/factories.ts';
import {
  buildTestApp,
  type ErrorBody,
  makeWorld,
  type TestApp,
  type TestClient,
  testDriver,
  type World,
} from './harness.ts';

/** Issue 33: GET /api/auditLog (administrators: all; managers: their places), its CSV, GET /api/me/auditLog. */
describe(`audit log: who reads what (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let startedAt: string;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    startedAt = new Date().toISOString();
    // One change in each account: the managers' own, a sibling in the same site, another site's.
    for (const [client, account] of [
      [w.accountManager.client, w.account],
      [w.siteManager.client, w.siblingAccount],
      [w.admin.client, w.otherAccount],
    ] as const)
      expect((await client.post(`/api/accounts/${account.id}`, { contactName: 'Dee' })).status).toBe(200);
  });
  afterAll(() => t.close());

  const page = async (client: TestClient, query = '') => {
    const answer = await client.get<AuditPage>(`/api/auditLog${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const accountsOf = (body: AuditPage) => new Set(body.results.map((row) => row.accountId));

  it('gives administrators every row, newest first, and each manager the rows of their places', async () => {
    const all = await page(w.admin.client, '?operation=postAccountsById');
    expect(all.results.map((row) => row.accountId)).toEqual([
      w.otherAccount.id,
      w.siblingAccount.id,
      w.account.id,
    ]);
    expect(all.results[0]).toMatchObject({
      actorType: 'user',
      accountName: w.otherAccount.name,
      ip: '127.0.0.1',
    });
    for (const manager of [w.resellerManager, w.siteGroupManager, w.siteManager])
      expect(accountsOf(await page(manager.client, '?operation=postAccountsById'))).toEqual(
        new Set([w.siblingAccount.id, w.account.id]),
      );
    expect(accountsOf(await page(w.accountManager.client, '?operation=postAccountsById'))).toEqual(
      new Set([w.account.id]),
    );
  });

  it('refuses users who manage nothing (403), and the anonymous (401)', async () => {
    for (const who of [w.editor, w.outsider]) {
      const answer = await who.client.get<ErrorBody>('/api/auditLog');
      expect(answer.status).toBe(403);
      expect(answer.body.error.message).toBe(MSG_AUDIT_NO_SCOPE);
      expect((await who.client.get('/api/auditLog/export')).status).toBe(403);
    }
    expect((await t.client().get('/api/auditLog')).status).toBe(401);
  });

  it('filters by actor, operation, target, account and period', async () => {
    const byActor = await page(w.admin.client, `?actor=${w.siteManager.user.username}`);
    expect(byActor.results.length).toBeGreaterThan(0);
    expect(byActor.results.every((row) => row.actorName === w.siteManager.user.username)).toBe(true);
    const byTarget = await page(w.admin.client, `?targetType=account&targetId=${w.account.id}`);
    expect(byTarget.results.map((row) => row.operation)).toEqual(['postAccountsById']);
    const byAccount = await page(w.accountManager.client, `?accountId=${w.account.id}`);
    expect(accountsOf(byAccount)).toEqual(new Set([w.account.id]));
    const inPeriod = await page(w.admin.client, `?operation=postAccountsById&from=${startedAt}`);
    expect(inPeriod.results).toHaveLength(3);
    const before = await page(w.admin.client, `?operation=postAccountsById&to=${startedAt}`);
    expect(before.results).toHaveLength(0);
  });

  it("refuses a manager's account filter outside their places (403) or unknown (404)", async () => {
    expect((await w.accountManager.client.get(`/api/auditLog?accountId=${w.otherAccount.id}`)).status).toBe(
      403,
    );
    expect((await w.accountManager.client.get('/api/auditLog?accountId=999999')).status).toBe(404);
    expect((await w.admin.client.get('/api/auditLog?accountId=999999')).status).toBe(200);
  });

  it('answers bad filters and pages with 400 and a message', async () => {
    const bad = async (query: string, message?: string) => {
      const answer = await w.admin.client.get<ErrorBody>(`/api/auditLog${query}`);
      expect(answer.status, query).toBe(400);
      if (message) expect(answer.body.error.message).toBe(message);
    };
    await bad('?targetId=3', MSG_AUDIT_TARGET_ID_ALONE);
    await bad(`?from=${startedAt}&to=${startedAt}`, MSG_AUDIT_RANGE);
    await bad('?before=yesterday');
    await bad('?before=2026-13-45T99:00:00.000Z_12', MSG_AUDIT_CURSOR);
    await bad('?limit=0');
    await bad('?limit=201');
    await bad('?targetType=spaceship');
    await bad('?from=last%20week');
    await bad('?accountId=99999999999');
  });

  it('pages by time: `next` gives the older rows, none twice, until the last page', async () => {
    const seen: string[] = [];
    let query = '?limit=2';
    let first: AuditPage | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const body = await page(w.admin.client, query);
      first ??= body;
      seen.push(...body.results.map((row) => row.id));
      if (!body.next) break;
      query = `?limit=2&before=${encodeURIComponent(body.next)}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const everything = await page(w.admin.client, '?limit=200');
    expect(seen).toEqual(everything.results.map((row) => row.id));
    expect(first?.total).toBe(everything.results.length);
    const times = everything.results.map((row) => row.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('exports the rows the filters match as CSV', async () => {
    const answer = await w.siteManager.client.get<string>('/api/auditLog/export?operation=postAccountsById');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="activity /);
    const text = answer.raw.body.replace(/^\uFEFF/, '');
    const [header, ...rows] = Papa.parse<string[]>(text.trim()).data;
    expect(header).toEqual([...AUDIT_CSV_HEADER]);
    expect(rows.map((row) => Number(row[9]))).toEqual([w.siblingAccount.id, w.account.id]);
    expect(rows[0]?.[11]).toBe('contactName=Dee');
  });

  it('shows a user what others did to their user, not what they did themselves, and not their address', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    expect(
      (await w.admin.client.post(`/api/users/${user.id}`, { fullname: 'Renamed By Admin' })).status,
    ).toBe(200);
    expect(
      (
        await client.post(`/api/users/${user.id}/setPassword`, {
          currentPassword: user.password,
          newPassword: 'x',
        })
      ).status,
    ).toBe(400);
    const answer = await client.get<AuditPage>('/api/me/auditLog');
    expect(answer.status).toBe(200);
    expect(answer.body.results).toMatchObject([
      {
        operation: 'postUsersById',
        actorName: 'admin',
        targetType: 'user',
        targetId: String(user.id),
        fields: [{ name: 'fullname', value: 'Renamed By Admin', secret: false }],
        ip: null,
      },
    ]);
    expect((await t.client().get('/api/me/auditLog')).status).toBe(401);
    expect((await client.get('/api/me/auditLog?before=nope')).status).toBe(400);
  });
});

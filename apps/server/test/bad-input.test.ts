import {
  ERROR_CODES,
  MSG_NOTHING_TO_CHANGE,
  MSG_NUL_IN_TEXT,
  MSG_NUMBER_OUT_OF_RANGE,
  MSG_TEXT_TOO_LONG,
  MSG_VALUE_NOT_VALID,
} from '@media/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resellers } from '../src/modules/organisation/tables.ts';
import { refusedValue } from '../src/platform/db/errors.ts';
import {
  buildTestApp,
  type ErrorBody,
  freshAddress,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

/** Issue 12, finding 5; DESIGN "HTTP conventions": bad input is a 400 with a message, never a 500. */
describe(`bad input is a 400 with a message (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
  });
  afterAll(() => t.close());

  const expectRefused = (response: { status: number; body: unknown }, message: string, field?: string) => {
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    const { error } = response.body as ErrorBody;
    expect(error.code).toBe(ERROR_CODES.validation);
    expect(error.message).toContain(message);
    if (field) expect(error.fields).toEqual({ [field]: message });
  };

  it('refuses NUL in the user name of an anonymous sign-in, naming the field', async () => {
    const response = await t
      .client()
      .post('/api/login', { username: 'ad\u0000min', password: 'x' }, { remoteAddress: freshAddress() });
    expectRefused(response, MSG_NUL_IN_TEXT, 'username');
  });

  it('refuses NUL in a body field and leaves the row as it was', async () => {
    const admin = w.admin.client;
    const response = await admin.post(`/api/resellers/${w.reseller.id}`, { name: 'Acme\u0000 Media' });
    expectRefused(response, MSG_NUL_IN_TEXT, 'name');
    expect(response.body).toMatchObject({ error: { message: `Invalid body: name: ${MSG_NUL_IN_TEXT}` } });
    const [row] = await t.ctx.db.select().from(resellers).where(eq(resellers.id, w.reseller.id));
    expect(row?.name).toBe(w.reseller.name);
  });

  it('refuses NUL in a path value, a query value and an object key, naming each', async () => {
    const admin = w.admin.client;
    expectRefused(await admin.get('/api/accounts/byName/a%00b'), MSG_NUL_IN_TEXT, 'name');
    expectRefused(await admin.get('/api/users?searchText=a%00b'), MSG_NUL_IN_TEXT, 'searchText');
    expectRefused(
      await admin.post(`/api/accounts/${w.account.id}/extraData`, { 'note\u0000': 'x' }),
      MSG_NUL_IN_TEXT,
      'note\\0',
    );
    expectRefused(
      await admin.post(`/api/accounts/${w.account.id}/extraData`, { note: ['x', 'y\u0000'] }),
      MSG_NUL_IN_TEXT,
      'note.1',
    );
  });

  it('answers an update with nothing to change ({}) with 400 "Nothing to change"', async () => {
    const admin = w.admin.client;
    const user = w.editor.user;
    for (const url of [
      `/api/resellers/${w.reseller.id}`,
      `/api/siteGroups/${w.siteGroup.id}`,
      `/api/sites/${w.site.id}`,
      `/api/accounts/${w.account.id}`,
      `/api/users/${user.id}`,
    ]) {
      const response = await admin.post(url, {});
      expect(response.status, url).toBe(400);
      expect((response.body as ErrorBody).error, url).toEqual({
        code: ERROR_CODES.validation,
        message: MSG_NOTHING_TO_CHANGE,
      });
    }
    // A change is still a change.
    const renamed = await admin.post<Results<{ name: string }>>(`/api/sites/${w.site.id}`, {
      name: 'Renamed',
    });
    expect(renamed.body.results.name).toBe('Renamed');
  });

  it('refuses edgesEndpointIds=99999999999999999999 in an ingest queue query', async () => {
    const response = await w.admin.client.get(
      `/api/accounts/${w.account.id}/ingestQueueItems?edgesEndpointIds=99999999999999999999`,
    );
    expectRefused(response, MSG_NUMBER_OUT_OF_RANGE, 'edgesEndpointIds');
  });

  it('refuses an id of 99999999999 in a path, a query and a body', async () => {
    const admin = w.admin.client;
    for (const [method, url] of [
      ['GET', '/api/accounts/99999999999'],
      ['GET', '/api/users/99999999999'],
      ['GET', '/api/sites?siteGroupId=99999999999'],
      ['DELETE', `/api/accounts/${w.account.id}/userAccess/99999999999`],
    ] as const) {
      const response = await admin.request({ method, url });
      expect(response.status, url).toBe(400);
      expect((response.body as ErrorBody).error.code, url).toBe(ERROR_CODES.validation);
    }
    const response = await admin.post('/api/siteGroups', { name: 'Far away', resellerId: 99_999_999_999 });
    expect(response.status).toBe(400);
    expect((response.body as ErrorBody).error.fields).toHaveProperty('resellerId');
  });

  it('turns a value the database refuses into a 400 message, behind the contract', async () => {
    const { db } = t.ctx;
    const refusal = async (query: () => Promise<unknown>) => {
      try {
        await query();
      } catch (error) {
        return refusedValue(error);
      }
      throw new Error('the database took the value');
    };
    expect(await refusal(() => db.execute(sql`select ${'99999999999'}::int4`))).toEqual({
      reason: '22003',
      message: MSG_NUMBER_OUT_OF_RANGE,
    });
    expect(await refusal(() => db.execute(sql`select ${'1e+20x'}::int4`))).toEqual({
      reason: '22P02',
      message: MSG_VALUE_NOT_VALID,
    });
    expect(
      await refusal(() => db.execute(sql.raw(`do $$ declare v varchar(3); begin v := 'abcdef'; end $$`))),
    ).toEqual({ reason: '22001', message: MSG_TEXT_TOO_LONG });
    expect(await refusal(() => db.execute(sql`select ${'a\u0000b'}::text`))).toEqual(
      expect.objectContaining({ message: MSG_NUL_IN_TEXT }),
    );
    expect(await refusal(async () => db.update(resellers).set({}).where(eq(resellers.id, 1)))).toEqual({
      reason: 'empty update',
      message: MSG_NOTHING_TO_CHANGE,
    });
  });
});

import {
  API_TOKEN_PREFIX,
  type ApiToken,
  ERROR_CODES,
  MSG_API_TOKEN_BY_TOKEN,
  MSG_API_TOKEN_EXPIRY_PAST,
  MSG_API_TOKEN_IN_ADDRESS,
  MSG_API_TOKEN_INVALID,
  MSG_API_TOKEN_NOT_FOUND,
  MSG_API_TOKEN_READ_ONLY,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_TOUCH_MS } from '../src/modules/api-tokens/service.ts';
import { apiTokens } from '../src/modules/api-tokens/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import {
  buildTestApp,
  type ErrorBody,
  type Results,
  signedInUser,
  type TestApp,
  type TestClient,
  testDriver,
} from './harness.ts';

type Created = Results<ApiToken & { token: string }>;

describe(`API tokens (${testDriver()})`, () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.admin();
  });
  afterAll(() => t.close());

  /** A request as a script sends it: the token in the header, no cookie, no anti-forgery header. */
  const bearer = async <T = unknown>(
    token: string,
    method: 'GET' | 'POST',
    url: string,
    body?: object,
    headers: Record<string, string> = { authorization: `Bearer ${token}` },
  ) => {
    const response = await t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
    return { status: response.statusCode, body: response.json() as T, headers: response.headers };
  };
  const makeToken = async (client: TestClient, scope: 'read' | 'write', extra: object = {}) => {
    const response = await client.post<Created>('/api/me/apiTokens', {
      name: `Script ${scope}`,
      scope,
      ...extra,
    });
    expect(response.status).toBe(200);
    return response.body.results;
  };

  it('makes a token shown once and stored hashed, and lists it without the token', async () => {
    const { client, user } = await signedInUser(t);
    const created = await makeToken(client, 'write', { name: 'Newsroom sync' });
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created).toMatchObject({
      name: 'Newsroom sync',
      scope: 'write',
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(created.prefix).toBe(created.token.slice(0, created.prefix.length));
    expect(created.prefix.length).toBeLessThan(created.token.length / 2);

    const [stored] = await t.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(stored?.tokenHash).toBe(sha256(created.token));
    expect(JSON.stringify(stored)).not.toContain(created.token);

    const list = await client.get<Results<ApiToken[]>>('/api/me/apiTokens');
    expect(list.body.results.map((token) => token.id)).toEqual([created.id]);
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    expect(stored?.userId).toBe(user.id);
    // No log line holds the token.
    expect(t.logs()).not.toContain(created.token);
  });

  it('acts as its user for reads and writes with no cookie and no anti-forgery header', async () => {
    const { token } = await makeToken(admin, 'write');
    const me = await bearer<Results<{ username: string }>>(token, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.results.username).toBe('admin');
    // A bearer answer sets no cookie: no session and no anti-forgery token are made for a script.
    expect(me.headers['set-cookie']).toBeUndefined();

    const made = await bearer<Results<{ name: string }>>(token, 'POST', '/api/resellers', {
      name: 'Token Reseller',
    });
    expect(made.status).toBe(200);
    expect(made.body.results.name).toBe('Token Reseller');

    // Tokens are made and revoked by a person signed in: a leaked token cannot mint itself successors.
    const minted = await bearer<ErrorBody>(token, 'POST', '/api/me/apiTokens', {
      name: 'Successor',
      scope: 'write',
    });
    expect(minted.status).toBe(403);
    expect(minted.body.error.message).toBe(MSG_API_TOKEN_BY_TOKEN);
    expect(
      (await admin.get<Results<ApiToken[]>>('/api/me/apiTokens')).body.results.map((entry) => entry.name),
    ).not.toContain('Successor');
  });

  it('keeps a read token to GET: a write is 403 scope and changes nothing', async () => {
    const { token } = await makeToken(admin, 'read');
    expect((await bearer(token, 'GET', '/api/resellers')).status).toBe(200);
    const refused = await bearer<ErrorBody>(token, 'POST', '/api/resellers', { name: 'Read Token Reseller' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: ERROR_CODES.scope, message: MSG_API_TOKEN_READ_ONLY });
    const list = await admin.get<{ results: { name: string }[] }>('/api/resellers?searchText=Read%20Token');
    expect(list.body.results).toEqual([]);
  });

  it("has its user's rights at the time of use: a user without rights is refused an administrator's route", async () => {
    const { client } = await signedInUser(t);
    const { token } = await makeToken(client, 'write');
    const refused = await bearer<ErrorBody>(token, 'POST', '/api/resellers', { name: 'Not Mine' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe(ERROR_CODES.forbidden);
    expect((await bearer(token, 'GET', '/api/users?limit=5')).status).toBe(403);
  });

  it('stops at once when revoked, when its user is disabled, and when it expires', async () => {
    const { client, user } = await signedInUser(t);
    const revoked = await makeToken(client, 'read');
    expect((await bearer(revoked.token, 'GET', '/api/me')).status).toBe(200);
    expect((await client.post(`/api/me/apiTokens/${revoked.id}/trash`)).status).toBe(200);
    const afterRevoke = await bearer<ErrorBody>(revoked.token, 'GET', '/api/me');
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.error.message).toBe(MSG_API_TOKEN_INVALID);
    expect((await client.get<Results<ApiToken[]>>('/api/me/apiTokens')).body.results).toEqual([]);

    const expiring = await makeToken(client, 'read', {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await bearer(expiring.token, 'GET', '/api/me')).status).toBe(200);
    await t.ctx.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.id));
    expect((await bearer(expiring.token, 'GET', '/api/me')).status).toBe(401);

    const ofDisabled = await makeToken(client, 'write');
    expect((await bearer(ofDisabled.token, 'GET', '/api/me')).status).toBe(200);
    expect((await admin.post(`/api/users/${user.id}`, { disabled: true })).status).toBe(200);
    expect((await bearer(ofDisabled.token, 'GET', '/api/me')).status).toBe(401);
  });

  it('refuses unknown tokens, and a token in the address', async () => {
    const unknown = await bearer<ErrorBody>(`${API_TOKEN_PREFIX}notatokenatall`, 'GET', '/api/me');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.message).toBe(MSG_API_TOKEN_INVALID);

    const { token } = await makeToken(admin, 'read');
    const inAddress = await bearer<ErrorBody>(token, 'GET', `/api/me?access_token=${token}`, undefined, {});
    expect(inAddress.status).toBe(400);
    expect(inAddress.body.error.message).toBe(MSG_API_TOKEN_IN_ADDRESS);
    // The address is logged without it.
    expect(t.logs()).toContain('access_token=%5Bredacted%5D');
    expect(t.logs()).not.toContain(token);
    // Another scheme of the header (a proxy's Basic sign-in) is not a token: the request is a browser's.
    const basic = await bearer(token, 'GET', '/api/me', undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
  });

  it('notes its last use at most once a minute', async () => {
    const { client } = await signedInUser(t);
    const created = await makeToken(client, 'read');
    await bearer(created.token, 'GET', '/api/me');
    const lastUse = async () => {
      for (let round = 0; round < 50; round += 1) {
        const [row] = await t.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
        if (row?.lastUsedAt) return row.lastUsedAt;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return null;
    };
    const first = await lastUse();
    expect(first).not.toBeNull();
    await bearer(created.token, 'GET', '/api/me');
    expect((await lastUse())?.getTime()).toBe(first?.getTime());
    // A minute on, the next use is noted.
    await t.ctx.db
      .update(apiTokens)
      .set({ lastUsedAt: new Date(Date.now() - API_TOKEN_TOUCH_MS - 1000) })
      .where(eq(apiTokens.id, created.id));
    await bearer(created.token, 'GET', '/api/me');
    let noted = false;
    for (let round = 0; round < 50 && !noted; round += 1) {
      const [row] = await t.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
      noted = (row?.lastUsedAt?.getTime() ?? 0) > Date.now() - 10_000;
      if (!noted) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(noted).toBe(true);
    const listed = await client.get<Results<ApiToken[]>>('/api/me/apiTokens');
    expect(listed.body.results[0]?.lastUsedAt).not.toBeNull();
  });

  it('answers 400 for bad input and changes nothing', async () => {
    const { client } = await signedInUser(t);
    for (const body of [
      {},
      { name: '', scope: 'read' },
      { name: 'x', scope: 'admin' },
      { name: 'x'.repeat(101), scope: 'read' },
      { name: 'x', scope: 'read', expiresAt: 'tomorrow' },
      { name: 'x', scope: 'read', extra: 1 },
    ]) {
      const response = await client.post<ErrorBody>('/api/me/apiTokens', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const past = await client.post<ErrorBody>('/api/me/apiTokens', {
      name: 'Old',
      scope: 'read',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toBe(MSG_API_TOKEN_EXPIRY_PAST);
    expect((await client.post('/api/me/apiTokens/abc/trash')).status).toBe(400);
    expect((await client.get<Results<ApiToken[]>>('/api/me/apiTokens')).body.results).toEqual([]);
  });

  it('needs a sign-in, and keeps each user to their own tokens (404 for another one)', async () => {
    expect((await t.client().get('/api/me/apiTokens')).status).toBe(401);
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const created = await makeToken(owner.client, 'read');
    const refused = await other.client.post<ErrorBody>(`/api/me/apiTokens/${created.id}/trash`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(MSG_API_TOKEN_NOT_FOUND);
    expect((await bearer(created.token, 'GET', '/api/me')).status).toBe(200);
  });

  it("lets administrators list and revoke a user's tokens, and no one else", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const created = await makeToken(owner.client, 'write');
    const listed = await admin.get<Results<ApiToken[]>>(`/api/users/${owner.user.id}/apiTokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.results.map((token) => token.id)).toEqual([created.id]);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);

    expect((await other.client.get(`/api/users/${owner.user.id}/apiTokens`)).status).toBe(403);
    expect(
      (await other.client.post(`/api/users/${owner.user.id}/apiTokens/${created.id}/trash`)).status,
    ).toBe(403);
    expect((await bearer(created.token, 'GET', '/api/me')).status).toBe(200);

    expect((await admin.get('/api/users/999999/apiTokens')).status).toBe(404);
    expect((await admin.post(`/api/users/${other.user.id}/apiTokens/${created.id}/trash`)).status).toBe(404);
    expect((await admin.post(`/api/users/${owner.user.id}/apiTokens/${created.id}/trash`)).status).toBe(200);
    expect((await bearer(created.token, 'GET', '/api/me')).status).toBe(401);
  });
});

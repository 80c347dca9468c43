import { createHash } from 'node:crypto';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { AppError } from '../src/platform/errors.ts';
import { requireApiVersion } from '../src/platform/http/api-version.ts';
import { makeUser } from '../src/seed/factories.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

describe(`HTTP conventions (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves the web app with the anti-forgery names injected as window.__APP_SETTINGS__', async () => {
    const response = await t.client().get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(
      'window.__APP_SETTINGS__={"csrfCookieName":"csrftoken","csrfHeaderName":"X-CSRFToken"}',
    );
    expect(String(response.headers['set-cookie'])).toContain('csrftoken=');
  });

  it('falls back to the web app for page routes but not for unknown API routes', async () => {
    const page = await t.client().get('/users/user_settings/1/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('__APP_SETTINGS__');
    const api = await t.client().get<{ error: { code: string } }>('/api/nothing-here');
    expect(api.status).toBe(404);
    expect(api.body.error.code).toBe('not_found');
  });

  it('answers the API versions', async () => {
    const response = await t.client().get<{ mediaUpdate: string }>('/config/apiVersions.json');
    expect(response.status).toBe(200);
    expect(response.body.mediaUpdate).toBe('20210705');
  });

  it('wraps results and collections in the envelope with total and channel', async () => {
    const admin = await t.admin();
    const response = await admin.get<{ results: { name: string }[]; total: number; channel: string }>(
      '/api/roles',
    );
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(4);
    expect(response.body.channel).toBe('cloud/roles');
    expect(response.body.results.map((r) => r.name)).toEqual([
      'Account Manager',
      'Editor',
      'Logger',
      'Viewer',
    ]);
  });

  it('pages the roles list, refuses a bad page (400) and answers 401 without a session', async () => {
    const admin = await t.admin();
    const page = await admin.get<{ results: { name: string }[]; total: number }>(
      '/api/roles?offset=1&limit=2',
    );
    expect(page.body.results.map((r) => r.name)).toEqual(['Editor', 'Logger']);
    expect(page.body.total).toBe(4);
    expect((await admin.get('/api/roles?limit=0')).status).toBe(400);
    expect((await admin.get('/api/roles?offset=-1')).status).toBe(400);
    expect((await t.client().get('/api/roles')).status).toBe(401);
  });

  it('refuses a write without the anti-forgery header with 403 csrf', async () => {
    const client = t.client();
    const response = await client.request<{ error: { code: string } }>({
      method: 'POST',
      url: '/api/login',
      body: { username: 'admin', password: 'x' },
      csrf: false,
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('csrf');
  });

  it('refuses a write whose header does not match the cookie', async () => {
    const client = t.client();
    await client.get('/api/passwordRules');
    const response = await client.request<{ error: { code: string } }>({
      method: 'POST',
      url: '/api/login',
      body: { username: 'admin', password: 'x' },
      headers: { 'X-CSRFToken': 'forged' },
      csrf: false,
    });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('csrf');
  });

  it('refuses a token from before sign-in once signed in (bound to the session)', async () => {
    const client = await t.admin();
    const before = client.csrfToken as string;
    expect(before).toContain('.');
    const other = t.client();
    await other.get('/api/passwordRules');
    client.cookies.set('csrftoken', other.csrfToken as string);
    const response = await client.post<{ error: { code: string } }>('/api/logout');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('csrf');
  });

  it('refuses a cross-site write even with a matching token', async () => {
    const client = t.client();
    const response = await client.post<{ error: { code: string } }>(
      '/api/login',
      { username: 'admin', password: 'x' },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('csrf');
  });

  it('refuses unknown body fields with 400 and names them', async () => {
    const response = await t
      .client()
      .post<{ error: { code: string; fields: Record<string, string> } }>('/api/login', {
        username: 'admin',
        password: 'x',
        remember: true,
      });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation');
    expect(response.body.error.fields.remember).toBe('Unknown field');
  });

  it('answers 401 without a session', async () => {
    const response = await t.client().get<{ error: { code: string } }>('/api/me');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthenticated');
  });

  it('publishes an OpenAPI document built from the zod schemas, and the docs page', async () => {
    const doc = await t
      .client()
      .get<{ openapi: string; paths: Record<string, unknown> }>('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/me', '/api/users/{id}/setPassword']),
    );
    const page = await t.client().get('/api/docs/');
    expect(page.status).toBe(200);
  });
});

describe(`security headers (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  /** The directives of a Content-Security-Policy header, by name. */
  const directives = (header: unknown) =>
    new Map(
      String(header)
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...values]) => [name as string, values]),
    );

  it("sends a Content-Security-Policy on pages and API answers, letting only the page's own inline script run", async () => {
    const page = await t.client().get<string>('/accounts/1/reactvideoplayer');
    expect(page.status).toBe(200);
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    const inline = /<script>(.*?)<\/script>/.exec(page.body)?.[1] as string;
    expect(inline).toContain('window.__APP_SETTINGS__=');
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(csp.get('script-src')).toEqual(["'self'", hash]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');

    for (const url of ['/api/passwordRules', '/api/me', '/config/apiVersions.json', '/api/docs/']) {
      const answer = await t.client().get(url);
      expect(answer.headers['content-security-policy'], url).toBeTruthy();
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(answer.headers['referrer-policy'], url).toBe('same-origin');
    }
    // Errors too: a refused request, an unknown route, NUL in a query (refused before validation).
    for (const url of ['/api/sessions', '/api/no-such-route', '/api/passwordRules?x=%00']) {
      const answer = await t.client().get(url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expect(answer.headers['content-security-policy'], url).toBeTruthy();
      expect(answer.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('sends HSTS only on answers that went over HTTPS (X-Forwarded-Proto with TRUST_PROXY)', async () => {
    const plain = await t.client().get('/api/passwordRules');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await t.client().get('/api/passwordRules', { 'x-forwarded-proto': 'https' });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const page = await t.client().get('/login', { 'x-forwarded-proto': 'https' });
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe(`HSTS without a trusted proxy (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-Proto from anyone when TRUST_PROXY is off', async () => {
    const answer = await t.client().get('/api/passwordRules', { 'x-forwarded-proto': 'https' });
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(answer.headers['content-security-policy']).toBeTruthy();
  });
});

describe(`rate limiting (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once the per-minute limit is used up', async () => {
    const client = t.client();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof client.get>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await client.get('/api/passwordRules');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    expect((last?.body as { error?: { code: string } } | undefined)?.error?.code).toBe('rate_limited');
  });
});

describe('rate limit of edge agents', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '5', AGENT_RATE_LIMIT_PER_MINUTE: '8' });
  });
  afterAll(() => t.close());

  it("counts an agent's calls by its edge server, apart from the people at the same address", async () => {
    const token = 'agent-token-of-the-rate-limit-test-0123';
    const owner = await makeUser(t.ctx.db);
    await t.ctx.db.insert(edgeServers).values({
      name: 'Busy edge',
      userId: owner.id,
      advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
      agentTokenHash: sha256(token),
    });
    const agentCall = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/agent/queueItems?limit=1',
        headers: { authorization: `Bearer ${token}`, 'x-api-version': API_VERSIONS.ingest },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await agentCall()).statusCode);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses[9]).toBe(429);
    // The people at that address still have their own five.
    expect((await t.client().get('/api/passwordRules')).status).toBe(200);
  });
});

describe('API version check (ingest and node routes)', () => {
  const check = requireApiVersion();
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

  it('accepts a supported X-Api-Version', async () => {
    await expect(check(request({ 'x-api-version': '20210705' }))).resolves.toBeUndefined();
  });

  it('refuses a missing or unsupported version with 400 code apiversion', async () => {
    for (const headers of [{}, { 'x-api-version': '19990101' }] as Record<string, string>[]) {
      const error = await check(request(headers)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).code).toBe('apiversion');
    }
  });
});

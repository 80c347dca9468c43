import net from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeServers } from '../src/modules/edge/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { AppError } from '../src/platform/errors.ts';
import { requireApiVersion } from '../src/platform/http/api-version.ts';
import { MSG_REQUEST_BODY_TIMEOUT } from '../src/platform/http/request-body-timeout.ts';
import { makeAccount, makeSite, makeUser } from '../src/seed/factories.ts';
import { buildTestApp, multipartFile, type TestApp, type TestClient, testDriver } from './harness.ts';

describe(`HTTP conventions (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('serves the web app with the anti-forgery names and the sign-in ways injected as window.__APP_SETTINGS__', async () => {
    const response = await t.client().get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(
      'window.__APP_SETTINGS__={"csrfCookieName":"csrftoken","csrfHeaderName":"X-CSRFToken","oidcButtonText":null,"passwordSignIn":true}',
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

  it('compresses answers over 1 kB by Accept-Encoding (brotli or gzip) and leaves small ones plain', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const gzipped = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const brotli = await t.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).equals(plain.rawPayload)).toBe(true);
    const small = await t.app.inject({
      method: 'GET',
      url: '/config/apiVersions.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.payload).mediaUpdate).toBe('20210705');
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

describe(`request bodies that do not arrive (${testDriver()})`, () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ REQUEST_BODY_TIMEOUT_SECONDS: '1', UPLOAD_STALL_SECONDS: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  /**
   * Sends a request over a connection of its own: its head at once, then its body in `pieces`, one every
   * `everyMs`, then nothing more. Answers what the server sent and how long after the head it closed the
   * connection (the test closes it after 6 s: then `closedAfterMs` is undefined).
   */
  const trickle = (head: string, pieces: Buffer[], everyMs: number) =>
    new Promise<{ answer: string; closedAfterMs: number | undefined }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let start = Date.now();
      let timer: NodeJS.Timeout | undefined;
      let gaveUp = false;
      const giveUp = setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, 6000);
      socket.on('connect', () => {
        start = Date.now();
        socket.write(head);
        const queue = [...pieces];
        timer = setInterval(() => {
          const piece = queue.shift();
          if (piece && !socket.destroyed) socket.write(piece);
        }, everyMs);
      });
      socket.on('data', (chunk) => {
        answer += String(chunk);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(giveUp);
        resolve({ answer, closedAfterMs: gaveUp ? undefined : Date.now() - start });
      });
    });
  const headOf = (client: TestClient, request: string, headers: Record<string, string | number>) =>
    `${request} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries({
      cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      [t.config.csrfHeaderName]: client.csrfToken ?? '',
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n`;
  const split = (body: Buffer, count: number) =>
    Array.from({ length: count }, (_, i) =>
      body.subarray(Math.floor((i * body.length) / count), Math.floor(((i + 1) * body.length) / count)),
    );

  it('answers 408 and closes the connection when a sign-in body trickles in past REQUEST_BODY_TIMEOUT_SECONDS', async () => {
    const visitor = t.client();
    await visitor.get('/api/passwordRules');
    // 100 bytes declared, one sent every 200 ms: 20 s if nobody cuts it.
    const body = Buffer.from(JSON.stringify({ username: 'admin', password: 'x'.repeat(100) }).slice(0, 100));
    const head = headOf(visitor, 'POST /api/login', {
      'content-type': 'application/json',
      'content-length': body.length,
    });
    const { answer, closedAfterMs } = await trickle(head, split(body, body.length), 200);
    expect(closedAfterMs, 'the server closed the connection').toBeDefined();
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain(MSG_REQUEST_BODY_TIMEOUT);
    // The server serves on.
    expect((await t.client().get('/api/passwordRules')).status).toBe(200);
  });

  it('lets a web upload take longer while its bytes keep coming, and closes one that stops sending', async () => {
    const admin = await t.admin();
    const account = await makeAccount(t.ctx.db, { siteId: (await makeSite(t.ctx.db)).id });
    const upload = (name: string) => {
      const { body, headers } = multipartFile({
        fileName: `${name}.mov`,
        content: 'a slow movie '.repeat(200),
        type: 'video/quicktime',
      });
      const head = headOf(
        admin,
        `POST /api/accounts/${account.id}/uploads?uploadname=${name}&location=File%20Uploads`,
        { ...headers, 'content-length': body.length },
      );
      return { body, head };
    };
    // Ten pieces 250 ms apart: past the body timeout (1 s), never a second without bytes.
    const slow = upload('Slow');
    const sent = await trickle(slow.head, split(slow.body, 10), 250);
    expect(sent.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(sent.closedAfterMs).toBeGreaterThan(2000);
    // Half the body, then nothing: closed once a second has passed without a byte.
    const stalled = upload('Stalled');
    const cut = await trickle(stalled.head, split(stalled.body, 2).slice(0, 1), 100);
    expect(cut.closedAfterMs, 'the server closed the connection').toBeDefined();
    expect(cut.closedAfterMs).toBeLessThan(4000);
    expect(cut.answer).toBe('');
    expect((await admin.get('/api/me')).status).toBe(200);
  });
});

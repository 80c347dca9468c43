import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

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

describe(`security headers of the built assets (${testDriver()})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // The test web build (fixtures/web) holds one hashed script.
    t = await buildTestApp({ TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('sends a script only the headers a subresource heeds, and the page all of them', async () => {
    const script = await t.client().get<string>('/assets/index-abc123.js');
    expect(script.status).toBe(200);
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-xss-protection'])
      expect(script.headers[name], name).toBeUndefined();
    const secure = await t.client().get('/assets/index-abc123.js', { 'x-forwarded-proto': 'https' });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const page = await t.client().get('/login');
    expect(page.headers['content-security-policy']).toBeTruthy();
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
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

import { ERROR_CODES, MSG_REAUTH_REQUIRED } from '@media/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, MAX_RATE_LIMIT_RETRIES } from './client.ts';
import { createReauthCoordinator } from './reauth.ts';
import { createReloginCoordinator } from './relogin.ts';

type Call = { url: string; init: RequestInit };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fake server: answers each call from a queue of responses (or a function) and records the calls. */
const setup = (answers: ((call: Call) => Response | Promise<Response>) | Response[]) => {
  const calls: Call[] = [];
  const sleeps: number[] = [];
  const queue = Array.isArray(answers) ? [...answers] : undefined;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), init: init ?? {} };
    if (call.url === '/config/apiVersions.json')
      return json(200, {
        ingest: '20210705',
        nodes: '20210705',
        mediaUpdate: '20210705',
        supported: ['20210705'],
      });
    calls.push(call);
    const answer = queue
      ? queue.shift()
      : await (answers as (call: Call) => Response | Promise<Response>)(call);
    if (!answer) throw new Error(`unexpected call ${call.url}`);
    return answer;
  });
  const relogin = createReloginCoordinator();
  const reauth = createReauthCoordinator();
  const client = createApiClient({
    fetch: fetchMock as unknown as typeof fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    readCookie: (name) => (name === 'csrftoken' ? 'token-1' : undefined),
    relogin,
    reauth,
  });
  return { client, calls, sleeps, relogin, reauth };
};

const header = (call: Call | undefined, name: string) =>
  (call?.init.headers as Record<string, string> | undefined)?.[name];

describe('API client', () => {
  it('unwraps results, unless the raw response is asked for', async () => {
    const { client, calls } = setup([
      json(200, { results: { a: 1 } }),
      json(200, { results: [1], total: 1, channel: 'c' }),
    ]);
    expect(await client.request('/api/x')).toEqual({ a: 1 });
    expect(await client.request('/api/y', { raw: true })).toEqual({ results: [1], total: 1, channel: 'c' });
    expect(header(calls[1], 'X-Raw-Response')).toBe('1');
  });

  it('takes an answer without results for an error (spec2 §5)', async () => {
    const { client } = setup([json(200, { ok: true }), new Response('', { status: 200 })]);
    await expect(client.request('/api/x')).rejects.toMatchObject({
      message: 'Unexpected response from cloud',
      code: 'noresults',
    });
    await expect(client.request('/api/y')).rejects.toBeInstanceOf(ApiError);
  });

  it('sends the anti-forgery header on writes only', async () => {
    const { client, calls } = setup([json(200, { results: 1 }), json(200, { results: 2 })]);
    await client.request('/api/x');
    await client.request('/api/x', { method: 'POST', body: {} });
    expect(header(calls[0], 'X-CSRFToken')).toBeUndefined();
    expect(header(calls[1], 'X-CSRFToken')).toBe('token-1');
  });

  it('sends X-Api-Version from /config/apiVersions.json on ingest and node calls', async () => {
    const { client, calls } = setup([json(200, { results: 1 }), json(200, { results: 1 })]);
    await client.request('/api/ingestQueue', { apiVersion: 'ingest' });
    await client.request('/api/accounts');
    expect(header(calls[0], 'X-Api-Version')).toBe('20210705');
    expect(header(calls[1], 'X-Api-Version')).toBeUndefined();
  });

  it('reads errors as message (code) when the code names what happened, else message, else the generic text', async () => {
    const { client } = setup([
      json(400, { error: { message: 'Bad', code: 'validation' } }),
      json(504, { error: { message: 'Slow', code: 'timedOut' } }),
      json(500, { error: { message: 'Oops' } }),
      new Response('', { status: 502 }),
    ]);
    await expect(client.request('/api/a')).rejects.toMatchObject({
      message: 'Bad',
      status: 400,
      code: 'validation',
    });
    await expect(client.request('/api/t')).rejects.toMatchObject({
      message: 'Slow (timedOut)',
      code: 'timedOut',
    });
    await expect(client.request('/api/b')).rejects.toMatchObject({ message: 'Oops' });
    await expect(client.request('/api/c')).rejects.toMatchObject({
      message: 'an error has occurred',
      status: 502,
    });
  });

  it('retries a 429 after Retry-After seconds, adding _retry', async () => {
    const { client, calls, sleeps } = setup([
      json(429, { error: { message: 'slow', code: 'rate_limited' } }, { 'retry-after': '3' }),
      json(429, { error: { message: 'slow', code: 'rate_limited' } }, { 'retry-after': '2' }),
      json(200, { results: 'ok' }),
    ]);
    expect(await client.request('/api/x?offset=5')).toBe('ok');
    expect(sleeps).toEqual([3000, 2000]);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/x?offset=5',
      '/api/x?offset=5&_retry=1',
      '/api/x?offset=5&_retry=2',
    ]);
  });

  it('waits 1 s when a 429 has no Retry-After, and gives up after 100 retries', async () => {
    const { client, calls, sleeps } = setup(() =>
      json(429, { error: { message: 'slow', code: 'rate_limited' } }),
    );
    const failure = await client.request('/api/x').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect(calls).toHaveLength(MAX_RATE_LIMIT_RETRIES + 1);
    expect(new Set(sleeps)).toEqual(new Set([1000]));
    expect(calls.at(-1)?.url).toBe(`/api/x?_retry=${MAX_RATE_LIMIT_RETRIES}`);
  });

  it('opens the re-login dialog once on 401 and retries every waiting request after sign-in', async () => {
    let signedIn = false;
    const { client, calls, relogin } = setup((call) =>
      signedIn
        ? json(200, { results: call.url })
        : json(401, { error: { message: 'Session ended by administrator', code: 'unauthenticated' } }),
    );
    const states: boolean[] = [];
    relogin.subscribe((s) => states.push(s.open));
    const first = client.request('/api/one');
    const second = client.request('/api/two', { method: 'POST', body: { a: 1 } });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(relogin.getState().open).toBe(true));
    expect(relogin.getState()).toEqual({ open: true, message: 'Session ended by administrator' });
    signedIn = true;
    relogin.succeeded();
    expect(await first).toBe('/api/one');
    expect(await second).toBe('/api/two');
    expect(states).toEqual([true, false]);
    expect(calls.map((c) => c.url)).toEqual(['/api/one', '/api/two', '/api/one', '/api/two']);
    expect(calls[3]?.init.body).toBe(JSON.stringify({ a: 1 }));
  });

  it('does not open the dialog for sign-in calls', async () => {
    const { client, relogin } = setup([
      json(401, { error: { message: 'You are not signed in', code: 'unauthenticated' } }),
    ]);
    await expect(client.request('/api/me', { noRelogin: true })).rejects.toMatchObject({ status: 401 });
    expect(relogin.getState().open).toBe(false);
  });
});

describe('API client, a change that needs a recent sign-in (401 reauth)', () => {
  const reauthRequired = () =>
    json(401, { error: { message: MSG_REAUTH_REQUIRED, code: ERROR_CODES.reauth } });

  it('asks for the password instead of the re-login dialog, then sends the change again and answers its result', async () => {
    let confirmed = false;
    const { client, calls, relogin, reauth } = setup((call) =>
      confirmed ? json(200, { results: { made: call.url } }) : reauthRequired(),
    );
    const change = client.request('/api/me/apiTokens', { method: 'POST', body: { name: 'sync' } });
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    expect(relogin.getState().open).toBe(false);
    confirmed = true;
    reauth.confirmed();
    expect(await change).toEqual({ made: '/api/me/apiTokens' });
    expect(reauth.getState().open).toBe(false);
    expect(calls.map((c) => c.url)).toEqual(['/api/me/apiTokens', '/api/me/apiTokens']);
    expect(calls[1]?.init.body).toBe(JSON.stringify({ name: 'sync' }));
    expect(header(calls[1], 'X-CSRFToken')).toBe('token-1');
  });

  it('shares one prompt between concurrent changes, and sends each again after it', async () => {
    let confirmed = false;
    const { client, calls, reauth } = setup((call) =>
      confirmed ? json(200, { results: call.url }) : reauthRequired(),
    );
    const opened: boolean[] = [];
    reauth.subscribe((state) => opened.push(state.open));
    const first = client.request('/api/me/sessions/a/trash', { method: 'POST', body: {} });
    const second = client.request('/api/me/apiTokens/4/trash', { method: 'POST', body: {} });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    confirmed = true;
    reauth.confirmed();
    expect(await first).toBe('/api/me/sessions/a/trash');
    expect(await second).toBe('/api/me/apiTokens/4/trash');
    expect(opened).toEqual([true, false]);
    expect(calls).toHaveLength(4);
  });

  it('fails the change with MSG_REAUTH_REQUIRED when the prompt is cancelled, and signs nobody out', async () => {
    const { client, calls, relogin, reauth } = setup(() => reauthRequired());
    const change = client.request('/api/me/sessions/trash', { method: 'POST', body: {} });
    const failure = change.catch((error: unknown) => error);
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    reauth.cancelled();
    const error = await failure;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: MSG_REAUTH_REQUIRED, status: 401, code: ERROR_CODES.reauth });
    expect(calls).toHaveLength(1);
    expect(relogin.getState().open).toBe(false);
    expect(reauth.getState().open).toBe(false);
  });

  it('asks again when the server still wants a recent sign-in after the change was sent again', async () => {
    const { client, calls, reauth } = setup([
      reauthRequired(),
      reauthRequired(),
      json(200, { results: 'ok' }),
    ]);
    const change = client.request('/api/me/apiTokens', { method: 'POST', body: {} });
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    reauth.confirmed();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    reauth.confirmed();
    expect(await change).toBe('ok');
  });

  it('sends a change refused for a sign-in made fresh while it was under way again, without a new prompt', async () => {
    let release: (response: Response) => void = () => {};
    const held = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const { client, calls, reauth } = setup((call) => {
      // 1: the first change meets the prompt; 2: a second, sent while the prompt is open, is answered late.
      if (calls.length === 1) return reauthRequired();
      if (calls.length === 2) return held;
      return json(200, { results: call.url });
    });
    const opened: boolean[] = [];
    reauth.subscribe((state) => opened.push(state.open));
    const first = client.request('/api/one', { method: 'POST', body: {} });
    await vi.waitFor(() => expect(reauth.getState().open).toBe(true));
    const second = client.request('/api/two', { method: 'POST', body: {} });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    reauth.confirmed();
    expect(await first).toBe('/api/one');
    release(reauthRequired());
    expect(await second).toBe('/api/two');
    expect(opened).toEqual([true, false]);
    expect(calls.map((c) => c.url)).toEqual(['/api/one', '/api/two', '/api/one', '/api/two']);
  });
});

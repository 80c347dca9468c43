import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADMIN_TEST_PASSWORD } from './harness.ts';
import { crashTestServers, signIn } from './spawned-server.ts';

/** A stop (SIGTERM: a deploy, Ctrl-C) is not held by the requests under way. */
describe('stopping the server', () => {
  const servers = crashTestServers('server-stop');

  it('answers a waiting long poll at once and exits, long before the poll window ends', async () => {
    const server = await servers.start(
      await servers.env({ LOG_LEVEL: 'warn', SHUTDOWN_GRACE_SECONDS: '60' }),
    );
    const { cookie, csrf } = await signIn(server.base, 'admin', ADMIN_TEST_PASSWORD);
    const headers = { cookie, 'x-csrftoken': csrf, 'content-type': 'application/json' };
    const created = await fetch(`${server.base}/api/events/create`, { method: 'POST', headers, body: '{}' });
    const { eventId } = ((await created.json()) as { results: { eventId: string } }).results;
    const subscribed = await fetch(`${server.base}/api/events/${eventId}/subscribe`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ channels: ['cloud/roles'] }),
    });
    expect(subscribed.status).toBe(200);
    const poll = fetch(`${server.base}/api/events/${eventId}/longpoll`, { headers: { cookie } });
    // The poll waits (its window is 25 s) until the stop.
    const early = await Promise.race([poll, new Promise((resolve) => setTimeout(resolve, 500, 'waiting'))]);
    expect(early).toBe('waiting');
    const stopped = Date.now();
    server.child.kill('SIGTERM');
    const answer = await poll;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { results: unknown[] }).results).toEqual([]);
    expect(await server.exited).toBe(0);
    // Before, the stop waited for the poll's window (25 s); the grace here is 60 s, so only the answer ends it.
    expect(Date.now() - stopped).toBeLessThan(10_000);
  });

  it('cuts a request whose body never ends once the grace period is over', async () => {
    const server = await servers.start(
      await servers.env({
        LOG_LEVEL: 'warn',
        SHUTDOWN_GRACE_SECONDS: '1',
        REQUEST_BODY_TIMEOUT_SECONDS: '300',
      }),
    );
    const { port } = new URL(server.base);
    // The sign-in's anti-forgery token, as a browser holds it, so that the request reads its body.
    const first = await fetch(`${server.base}/api/passwordRules`);
    await first.text();
    const csrf = /csrftoken=([^;]+)/.exec(first.headers.getSetCookie().join('; '))?.[1] ?? '';
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    socket.resume();
    // Headers and a first part of the body: the request is under way and its body would take 300 s.
    socket.write(
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Cookie: csrftoken=${csrf}\r\nX-CSRFToken: ${csrf}\r\nContent-Length: 1000\r\n\r\n{"user`,
    );
    const answered = await fetch(`${server.base}/config/apiVersions.json`);
    expect(answered.status).toBe(200);
    const stopped = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await closed;
    // The body timeout (300 s) would have held it; the grace (1 s) ends it.
    expect(Date.now() - stopped).toBeLessThan(10_000);
  });
});

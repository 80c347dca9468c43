import type { Webhook, WebhookDelivery, WebhookDeliveryDetail } from '@media/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TEST_PASSWORD, eventually, type Results, testDriver } from './harness.ts';
import { crashTestServers, signIn } from './spawned-server.ts';
import { startWebhookReceiver } from './webhook-receiver.ts';

/**
 * The outbox across a crash (issue 33): a delivery whose attempt was under way when the server was killed
 * (kill -9) is sent after the restart, and verified by the receiver.
 */
describe(`webhook deliveries across a crash (${testDriver()})`, () => {
  const servers = crashTestServers('webhook-crash');
  const receiver = startWebhookReceiver();
  afterAll(async () => (await receiver).close());

  it('delivers after a restart the delivery whose attempt a kill -9 cut off', async () => {
    const hook = await receiver;
    const env = await servers.env({ OUTBOUND_ALLOW_LOOPBACK: '1', SEED_DEMO: '0' });
    const first = await servers.start(env);
    const call = async <T>(
      base: string,
      session: { cookie: string; csrf: string },
      url: string,
      body?: unknown,
    ) => {
      const response = await fetch(`${base}${url}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', 'x-csrftoken': session.csrf, cookie: session.cookie },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status, url).toBe(200);
      return ((await response.json()) as Results<T>).results;
    };
    const admin = await signIn(first.base, 'admin', ADMIN_TEST_PASSWORD);
    const webhook = await call<Webhook & { secret: string }>(first.base, admin, '/api/webhooks', {
      url: hook.url,
      events: ['user.created'],
    });
    // The receiver holds the first attempt open: the server dies in the middle of it.
    hook.answerWith('hang');
    const ping = await call<WebhookDelivery>(first.base, admin, `/api/webhooks/${webhook.id}/test`, {});
    await eventually(() => hook.received.length === 1, 20_000);
    first.child.kill('SIGKILL');
    await first.exited;
    hook.answerWith(200);

    const second = await servers.start(env);
    const again = await signIn(second.base, 'admin', ADMIN_TEST_PASSWORD);
    const delivered = await eventually(async () => {
      const found = await call<WebhookDeliveryDetail>(
        second.base,
        again,
        `/api/webhookDeliveries/${ping.id}`,
      );
      return found.status === 'delivered' ? found : undefined;
    }, 60_000);
    expect(delivered).toMatchObject({ attempts: 1, responseStatus: 200 });
    const attempts = hook.received.filter((request) => request.headers['webhook-id'] === delivered.messageId);
    // The cut-off attempt and the one after the restart: the same delivery (one webhook-id), both signed.
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(hook.verified(webhook.secret, attempt).type).toBe('ping');
  }, 120_000);
});

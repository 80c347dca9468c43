import {
  ERROR_CODES,
  MSG_OUTBOUND_BAD_URL,
  MSG_WEBHOOK_DELIVERY_NOT_FOUND,
  MSG_WEBHOOK_DISABLED,
  MSG_WEBHOOK_DISABLED_DELIVERY,
  MSG_WEBHOOK_EVENTS_REQUIRED,
  MSG_WEBHOOK_NOT_FOUND,
  MSG_WEBHOOK_RETRY_DELIVERED,
  msgOutboundRefused,
  msgOutboundScheme,
  msgWebhookDisabledAfterFailures,
  WEBHOOK_DELIVERY_KEEP_DAYS,
  WEBHOOK_FAILURES_TO_DISABLE,
  WEBHOOK_RETRY_SECONDS,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
} from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userNotifications } from '../src/modules/notifications/tables.ts';
import { emitWebhookEvent } from '../src/modules/webhooks/outbox.ts';
import { pruneEnded } from '../src/modules/webhooks/repo.ts';
import { webhookDeliveries, webhooks } from '../src/modules/webhooks/tables.ts';
import {
  buildTestApp,
  type Collection,
  type ErrorBody,
  eventually,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

type WithSecret = Results<Webhook & { secret: string }>;
/** The retry schedule runs at 50 ms per second here: 0.5 s, 1.5 s, 3 s… (apart by more than a loaded run's jitter) */
const RETRY_UNIT_MS = 50;

describe(`webhooks (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The receiver listens on 127.0.0.1; one test turns loopback off again.
    t = await buildTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1', WEBHOOK_RETRY_UNIT_MS: String(RETRY_UNIT_MS) });
    w = await makeWorld(t);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const create = async (url = receiver.url, events: string[] = ['node.created']) => {
    const made = await w.admin.client.post<WithSecret>('/api/webhooks', { url, events, description: 'Test' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.results;
  };
  const deliveryOf = async (id: number) =>
    (await w.admin.client.get<Results<WebhookDeliveryDetail>>(`/api/webhookDeliveries/${id}`)).body.results;
  const settledDelivery = (id: number, statuses: string[] = ['delivered']) =>
    eventually(async () => {
      const found = await deliveryOf(id);
      return statuses.includes(found.status) ? found : undefined;
    }, 20_000);
  const ping = async (webhookId: number) => {
    const sent = await w.admin.client.post<Results<WebhookDelivery>>(`/api/webhooks/${webhookId}/test`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    return sent.body.results;
  };

  it('makes a cloud webhook whose secret is shown once, then lists, changes and removes it', async () => {
    const made = await create(receiver.url, ['node.created', 'node.created', 'user.created']);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made).toMatchObject({ accountId: null, enabled: true, events: ['node.created', 'user.created'] });
    const list = await w.admin.client.get<Collection<Webhook>>('/api/webhooks');
    expect(list.body.channel).toBe('cloud/admin/webhooks');
    const listed = list.body.results.find((hook) => hook.id === made.id);
    expect(listed).toMatchObject({ url: receiver.url, secretPrefix: made.secret.slice(0, 10) });
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    expect(t.logs()).not.toContain(made.secret.slice(6));

    const changed = await w.admin.client.post<Results<Webhook>>(`/api/webhooks/${made.id}`, {
      description: 'Renamed',
      events: ['publish.done'],
      enabled: false,
    });
    expect(changed.body.results).toMatchObject({
      description: 'Renamed',
      events: ['publish.done'],
      enabled: false,
    });
    const rotated = await w.admin.client.post<WithSecret>(`/api/webhooks/${made.id}/rotateSecret`);
    expect(rotated.body.results.secret).toMatch(/^whsec_/);
    expect(rotated.body.results.secret).not.toBe(made.secret);
    expect((await w.admin.client.post(`/api/webhooks/${made.id}/trash`)).status).toBe(200);
    const gone = await w.admin.client.get<ErrorBody>(`/api/webhooks/${made.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toBe(MSG_WEBHOOK_NOT_FOUND);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = (await t.ctx.db.select().from(webhooks)).length;
    const cases: [unknown, string][] = [
      [{ url: 'not an address', events: ['node.created'] }, MSG_OUTBOUND_BAD_URL],
      [{ url: 'ftp://example.com/x', events: ['node.created'] }, msgOutboundScheme('ftp:')],
      [{ url: 'https://example.com/x', events: [] }, MSG_WEBHOOK_EVENTS_REQUIRED],
      [{ url: 'https://example.com/x', events: ['node.exploded'] }, ''],
      [{ url: 'https://example.com/x', events: ['node.created'], secret: 'mine' }, ''],
      [
        { url: 'http://169.254.169.254/latest', events: ['node.created'] },
        msgOutboundRefused('169.254.169.254', 'link-local', 'webhooks'),
      ],
      [
        { url: 'http://metadata.google.internal/x', events: ['node.created'] },
        msgOutboundRefused('metadata.google.internal', 'cloud-metadata', 'webhooks'),
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await w.admin.client.post<ErrorBody>('/api/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      if (message) expect(answer.body.error.message).toContain(message);
    }
    expect((await t.ctx.db.select().from(webhooks)).length).toBe(before);
    const bad = await w.admin.client.post<ErrorBody>('/api/webhooks/abc/test');
    expect(bad.status).toBe(400);
  });

  it("gives an account's webhooks to its managers and above: others get 403, unknown ids 404", async () => {
    const path = `/api/accounts/${w.account.id}/webhooks`;
    const body = { url: 'https://hooks.example.com/in', events: ['ingest.ingested'] };
    const made = await w.accountManager.client.post<WithSecret>(path, body);
    expect(made.status).toBe(200);
    expect(made.body.results.accountId).toBe(w.account.id);
    for (const level of [w.siteManager, w.resellerManager, w.admin]) {
      const list = await level.client.get<Collection<Webhook>>(path);
      expect(list.status).toBe(200);
      expect(list.body.results.map((hook) => hook.id)).toContain(made.body.results.id);
    }
    const id = made.body.results.id;
    for (const level of [w.editor, w.outsider]) {
      expect((await level.client.get(path)).status).toBe(403);
      expect((await level.client.post(path, body)).status).toBe(403);
      expect((await level.client.get(`/api/webhooks/${id}`)).status).toBe(403);
      expect((await level.client.post(`/api/webhooks/${id}/trash`)).status).toBe(403);
      expect((await level.client.get(`/api/webhooks/${id}/deliveries`)).status).toBe(403);
    }
    // Another account's manager, and the cloud's webhooks for anyone but administrators.
    expect((await w.accountManager.client.get(`/api/accounts/${w.otherAccount.id}/webhooks`)).status).toBe(
      403,
    );
    expect((await w.siteManager.client.get('/api/webhooks')).status).toBe(403);
    expect((await w.accountManager.client.post('/api/webhooks', body)).status).toBe(403);
    expect((await w.admin.client.get('/api/accounts/999999/webhooks')).status).toBe(404);
    expect((await w.admin.client.post('/api/webhooks/999999/rotateSecret')).status).toBe(404);
    const missing = await w.admin.client.get<ErrorBody>('/api/webhookDeliveries/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(MSG_WEBHOOK_DELIVERY_NOT_FOUND);
    expect((await w.admin.client.post('/api/webhookDeliveries/999999/retry')).status).toBe(404);
  });

  it('sends a signed ping the receiver verifies with standardwebhooks; the delivery keeps what was sent and answered', async () => {
    const hook = await create();
    const sent = await ping(hook.id);
    const delivered = await settledDelivery(sent.id);
    const [request] = receiver.received.filter((r) => r.headers['webhook-id'] === delivered.messageId);
    if (!request) throw new Error('the ping did not arrive');
    expect(receiver.verified(hook.secret, request)).toMatchObject({
      type: 'ping',
      data: { webhookId: hook.id },
    });
    expect(() => receiver.verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, request)).toThrow();
    expect(delivered).toMatchObject({
      type: 'ping',
      attempts: 1,
      responseStatus: 200,
      responseBody: 'thanks',
      error: null,
      requestBody: request.body,
    });
    expect(delivered.responseHeaders?.['x-receiver']).toBe('test');
    expect(delivered.requestHeaders['webhook-id']).toBe(delivered.messageId);
    // A delivered one is not retried; the secret never shows in what is kept.
    const again = await w.admin.client.post<ErrorBody>(`/api/webhookDeliveries/${sent.id}/retry`);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(MSG_WEBHOOK_RETRY_DELIVERED);
    expect(JSON.stringify(await deliveryOf(sent.id))).not.toContain(hook.secret.slice(6));
    // After a rotation the receiver needs the new secret.
    const rotated = (await w.admin.client.post<WithSecret>(`/api/webhooks/${hook.id}/rotateSecret`)).body
      .results;
    const second = await settledDelivery((await ping(hook.id)).id);
    const [next] = receiver.received.filter((r) => r.headers['webhook-id'] === second.messageId);
    if (!next) throw new Error('the second ping did not arrive');
    expect(receiver.verified(rotated.secret, next).type).toBe('ping');
    expect(() => receiver.verified(hook.secret, next)).toThrow();
    const list = await w.admin.client.get<Collection<WebhookDelivery>>(
      `/api/webhooks/${hook.id}/deliveries?limit=1`,
    );
    expect(list.body.total).toBe(2);
    expect(list.body.results.map((d) => d.id)).toEqual([second.id]);
  });

  it('retries a receiver that answers 500 with growing gaps, and delivers at Retry once it answers again', async () => {
    const hook = await create();
    receiver.answerWith(500);
    try {
      const sent = await ping(hook.id);
      const messageId = (await deliveryOf(sent.id)).messageId;
      const attempts = () => receiver.received.filter((r) => r.headers['webhook-id'] === messageId);
      await eventually(() => attempts().length >= 4, 20_000);
      const times = attempts().map((r) => r.at);
      const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
      // Each wait at least its share of the schedule, and each longer than the one before.
      for (const [i, gap] of gaps.slice(0, 3).entries())
        expect(gap).toBeGreaterThanOrEqual((WEBHOOK_RETRY_SECONDS[i] as number) * RETRY_UNIT_MS);
      expect(gaps[1]).toBeGreaterThan(gaps[0] as number);
      expect(gaps[2]).toBeGreaterThan(gaps[1] as number);
      const failing = await deliveryOf(sent.id);
      expect(failing).toMatchObject({
        status: 'retrying',
        responseStatus: 500,
        responseBody: 'receiver broke',
      });
      expect(failing.error).toContain('answered 500');
      // The receiver answers again; Retry sends it now rather than at its next turn.
      receiver.answerWith(200);
      const retried = await w.admin.client.post<Results<WebhookDelivery>>(
        `/api/webhookDeliveries/${sent.id}/retry`,
      );
      expect(retried.status).toBe(200);
      const delivered = await settledDelivery(sent.id);
      expect(delivered.attempts).toBeGreaterThanOrEqual(5);
      const [row] = await t.ctx.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
      expect(row?.consecutiveFailures).toBe(0);
    } finally {
      receiver.answerWith(200);
    }
  });

  it('disables a webhook after 50 failures in a row, fails what waits, and tells the one who made it', async () => {
    const hook = await create();
    await t.ctx.db
      .update(webhooks)
      .set({ consecutiveFailures: WEBHOOK_FAILURES_TO_DISABLE - 1 })
      .where(eq(webhooks.id, hook.id));
    receiver.answerWith(503);
    try {
      const sent = await ping(hook.id);
      await eventually(async () => {
        const [row] = await t.ctx.db.select().from(webhooks).where(eq(webhooks.id, hook.id));
        return row?.enabled === false;
      }, 20_000);
      const shown = (await w.admin.client.get<Results<Webhook>>(`/api/webhooks/${hook.id}`)).body.results;
      expect(shown).toMatchObject({ enabled: false, disabledReason: 'failures' });
      const failed = await settledDelivery(sent.id, ['failed']);
      expect(failed.error).toBe(MSG_WEBHOOK_DISABLED_DELIVERY);
      const told = await eventually(async () => {
        const rows = await t.ctx.db.select().from(userNotifications);
        return rows.find((row) => row.message === msgWebhookDisabledAfterFailures(receiver.url));
      });
      expect(told?.link).toBe('/admin/webhooks');
      const refused = await w.admin.client.post<ErrorBody>(`/api/webhooks/${hook.id}/test`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(MSG_WEBHOOK_DISABLED);
      // Enabled again: counted from nothing.
      const enabled = await w.admin.client.post<Results<Webhook>>(`/api/webhooks/${hook.id}`, {
        enabled: true,
      });
      expect(enabled.body.results).toMatchObject({
        enabled: true,
        disabledReason: null,
        consecutiveFailures: 0,
      });
    } finally {
      receiver.answerWith(200);
    }
  });

  it('removes ended deliveries after 30 days, and keeps those still being tried', async () => {
    const hook = await create();
    const old = new Date(Date.now() - (WEBHOOK_DELIVERY_KEEP_DAYS + 1) * 86_400_000);
    const row = (status: 'delivered' | 'retrying', createdAt: Date) => ({
      webhookId: hook.id,
      messageId: `msg_${status}_${createdAt.getTime()}`,
      type: 'ping',
      body: '{}',
      status,
      createdAt,
    });
    await t.ctx.db
      .insert(webhookDeliveries)
      .values([row('delivered', old), row('retrying', old), row('delivered', new Date())]);
    await pruneEnded(t.ctx.db, new Date(Date.now() - WEBHOOK_DELIVERY_KEEP_DAYS * 86_400_000), 100);
    const left = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(left.map((d) => d.status).sort()).toEqual(['delivered', 'retrying']);
  });

  it('sends nothing for a change that rolls back', async () => {
    const hook = await create(receiver.url, ['user.created']);
    const failed = t.ctx.db.transaction(async (tx) => {
      await emitWebhookEvent(t.ctx, tx, {
        type: 'user.created',
        accountId: null,
        data: () => ({ user: { id: 0 } }),
      });
      throw new Error('the change fails after its event');
    });
    await expect(failed).rejects.toThrow('the change fails');
    const rows = await t.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook.id));
    expect(rows).toEqual([]);
  });

  it('refuses a literal loopback address at creation, and fails as refused a name that resolves to loopback', async () => {
    t.ctx.config.outbound.allowLoopback = false;
    try {
      const literal = await w.admin.client.post<ErrorBody>('/api/webhooks', {
        url: `http://127.0.0.1:${receiver.port}/hook`,
        events: ['node.created'],
      });
      expect(literal.status).toBe(400);
      expect(literal.body.error.code).toBe(ERROR_CODES.validation);
      expect(literal.body.error.message).toBe(msgOutboundRefused('127.0.0.1', 'loopback', 'webhooks'));
      const named = await create(`http://localhost:${receiver.port}/hook`);
      const before = receiver.received.length;
      const refused = await settledDelivery((await ping(named.id)).id, ['refused']);
      expect(refused.error).toMatch(/is a loopback address, which webhooks may not reach/);
      expect(refused.attempts).toBe(1);
      expect(receiver.received.length).toBe(before);
    } finally {
      t.ctx.config.outbound.allowLoopback = true;
    }
  });
});

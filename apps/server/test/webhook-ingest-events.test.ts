import type { Webhook } from '@media/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { grantAccountAccess, makeUser } from '../src/seed/factories.ts';
import { makeAgentEdge } from './agent-edge.ts';
import {
  buildTestApp,
  eventually,
  makeWorld,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

type ItemData = {
  ingestQueueItem: { id: number; sourceName: string; status: string; error: string | null };
  account: { id: number } | null;
  node?: { path: string };
};

/**
 * What webhooks hear from the edge (issue 33): a file queued, ingested (with the node it made) or failed,
 * a stream starting and stopping, as the edge agent reports them; an account's webhook hears its own only.
 */
describe(`webhook ingest and stream events (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let ours: WebhookReceiver;
  let theirs: WebhookReceiver;
  let secret = '';
  let endpointId = 0;
  const token = 'agent-token-of-the-hooked-edge-01';

  let callAgent: Awaited<ReturnType<typeof makeAgentEdge>>['agent'];
  const agent = async <T>(method: 'GET' | 'POST', url: string, body?: unknown) => {
    const response = await callAgent(method, url, body);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as Results<T>).results;
  };
  const heard = async (type: string, itemId: number) => {
    const found = await eventually(
      () =>
        ours.ofType(type).find((request) => (request.payload.data as ItemData).ingestQueueItem.id === itemId),
      20_000,
    );
    return ours.verified(secret, found).data as ItemData;
  };

  beforeAll(async () => {
    t = await buildTestApp({ OUTBOUND_ALLOW_LOOPBACK: '1' });
    w = await makeWorld(t);
    [ours, theirs] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
    const events = [
      'ingest.queued',
      'ingest.ingested',
      'ingest.failed',
      'stream.started',
      'stream.stopped',
      'node.created',
    ];
    const made = await w.accountManager.client.post<Results<Webhook & { secret: string }>>(
      `/api/accounts/${w.account.id}/webhooks`,
      { url: ours.url, events },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    secret = made.body.results.secret;
    await w.admin.client.post(`/api/accounts/${w.otherAccount.id}/webhooks`, { url: theirs.url, events });
    const owner = await makeUser(t.ctx.db);
    await grantAccountAccess(t.ctx.db, owner.id, w.account.id, 'Account Manager');
    const edge = await makeAgentEdge(t, {
      token,
      userId: owner.id,
      accountId: w.account.id,
      name: 'Hooked edge',
    });
    endpointId = edge.endpoint.id;
    callAgent = edge.agent;
  });
  afterAll(async () => {
    await Promise.all([ours.close(), theirs.close()]);
    await t.close();
  });

  it('a file queued, then ingested into a node; another failed', async () => {
    const item = await agent<{ id: number }>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'hook-a',
      sourceName: 'day1/HOOK001.mov',
    });
    expect((await heard('ingest.queued', item.id)).ingestQueueItem).toMatchObject({
      sourceName: 'day1/HOOK001.mov',
      status: 'queued',
    });
    await agent('POST', `/api/agent/queueItems/${item.id}`, { status: 'ingesting' });
    await agent('POST', `/api/agent/queueItems/${item.id}`, { status: 'ingested', duration: 2 });
    const ingested = await heard('ingest.ingested', item.id);
    expect(ingested).toMatchObject({
      ingestQueueItem: { status: 'ingested' },
      account: { id: w.account.id },
      node: { path: `/${w.account.name}/Arrivals/Arrivals/HOOK001` },
    });
    expect(ours.ofType('node.created').length).toBeGreaterThanOrEqual(1);

    const broken = await agent<{ id: number }>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'hook-b',
      sourceName: 'day1/HOOK002.mov',
    });
    await agent('POST', `/api/agent/queueItems/${broken.id}`, { status: 'ingesting' });
    await agent('POST', `/api/agent/queueItems/${broken.id}`, { status: 'failed', error: 'Unreadable file' });
    expect((await heard('ingest.failed', broken.id)).ingestQueueItem).toMatchObject({
      status: 'failed',
      error: 'Unreadable file',
    });
    expect(theirs.received).toEqual([]);
  });

  it('a stream starting and stopping', async () => {
    const stream = await agent<{ id: number }>('POST', '/api/agent/queueItems', {
      endpointId,
      queueId: 'hook-stream',
      sourceName: 'rtmp://studio/live',
      isStream: true,
    });
    // Started by a person (spec2 §4): the agent takes it from the queue.
    await t.ctx.db
      .update(ingestQueueItems)
      .set({ status: 'queued' })
      .where(eq(ingestQueueItems.id, stream.id));
    await agent('POST', `/api/agent/queueItems/${stream.id}`, { status: 'ingesting' });
    expect((await heard('stream.started', stream.id)).ingestQueueItem.status).toBe('ingesting');
    await agent('POST', `/api/agent/queueItems/${stream.id}`, { status: 'ingested', duration: 3 });
    expect((await heard('stream.stopped', stream.id)).ingestQueueItem.status).toBe('ingested');
    expect(theirs.received).toEqual([]);
  });
});

import { AUDIT_EXEMPT_OPERATIONS, CHANNELS, operationIdOf } from '@media/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_STEPS } from './audit-walk-config.ts';
import { MEDIA_STEPS } from './audit-walk-media.ts';
import { CLOSING_STEPS, PEOPLE_STEPS } from './audit-walk-people.ts';
import { PUBLISHING_STEPS } from './audit-walk-publishing.ts';
import {
  AGENT_TOKEN,
  type Made,
  makeWalkWorld,
  VERSION,
  type WalkStep,
  type WalkWorld,
} from './audit-walk-world.ts';
import { auditRowsAfter, lastAuditId } from './audit-world.ts';
import { buildTestApp, type TestApp, type TestResponse, testDriver } from './harness.ts';
import { OIDC_TEST_CLIENT, startOidcProvider } from './oidc-provider.ts';
import { BOOKKEEPING_TABLES, changedTables, fingerprint } from './table-fingerprint.ts';

/** Every successful request of the walk, in order: the last ones end sessions. */
const STEPS: WalkStep[] = [
  ...PEOPLE_STEPS,
  ...CONFIG_STEPS,
  ...MEDIA_STEPS,
  ...PUBLISHING_STEPS,
  ...CLOSING_STEPS,
];

type Operation = { id: string; method: string; path: string };

/**
 * Issue 33 item 2: walks the OpenAPI document and proves that every non-GET operation writes exactly one
 * audit row with its operation id when it succeeds, and one (a failure) when it fails, which leaves the data
 * as it was. A route added without a successful request here fails the walk, as does a route the audit does
 * not reach. Rows of jobs (`job.…`) that a change starts are not the request's.
 */
describe(`audit route walk: every state-changing operation (${testDriver()})`, () => {
  let t: TestApp;
  let w: WalkWorld;
  let operations: Operation[];
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  beforeAll(async () => {
    // With an identity provider, so that linking one's identity to it can succeed.
    provider = await startOidcProvider(['http://media.test']);
    t = await buildTestApp({
      RATE_LIMIT_PER_MINUTE: '10000000',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    });
    w = await makeWalkWorld(t);
    const doc = await t
      .client()
      .get<{ paths: Record<string, Record<string, { operationId: string }>> }>('/api/openapi.json');
    operations = Object.entries(doc.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => method !== 'get')
        .map(([method, op]) => ({ id: op.operationId, method: method.toUpperCase(), path })),
    );
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** The rows a request wrote (job rows apart), after `since`. */
  const rowsOf = async (since: number) =>
    (await auditRowsAfter(t, since)).filter((row) => !row.operation.startsWith('job.'));

  it('gives every operation the id of the one rule (method and path), none twice', () => {
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations)
      expect(op.id, `${op.method} ${op.path}`).toBe(operationIdOf(op.method, op.path));
    expect(new Set(operations.map((op) => op.id)).size).toBe(operations.length);
  });

  it('writes no row for the operations exempt by name, each of which exists, nor for routine reports', async () => {
    const ids = new Set(operations.map((op) => op.id));
    for (const id of Object.keys(AUDIT_EXEMPT_OPERATIONS)) expect(ids.has(id), id).toBe(true);
    const since = await lastAuditId(t);
    const event = await w.admin.client.post<{ results: { eventId: string } }>('/api/events/create');
    expect(event.status).toBe(200);
    const { eventId } = event.body.results;
    expect(
      (await w.admin.client.post(`/api/events/${eventId}/subscribe`, { channels: [CHANNELS.loginLockouts] }))
        .status,
    ).toBe(200);
    expect((await w.admin.client.post(`/api/events/${eventId}/delete`)).status).toBe(200);
    const beat = await t.client().request({
      method: 'POST',
      url: '/api/agent/heartbeat',
      body: { agentVersion: '1' },
      headers: { authorization: `Bearer ${AGENT_TOKEN}`, ...VERSION },
      csrf: false,
    });
    expect(beat.status).toBe(200);
    const agent = (method: 'POST' | 'PUT', url: string, body: unknown, type = 'application/json') =>
      t.client().request({
        method,
        url,
        body,
        headers: { authorization: `Bearer ${AGENT_TOKEN}`, 'content-type': type, ...VERSION },
        csrf: false,
      });
    // A live segment, and progress while the stream stays as it was.
    const segment = await agent(
      'PUT',
      `/api/agent/queueItems/${w.items.stream.id}/live/0?duration=2`,
      Buffer.alloc(188 * 10, 0x47),
      'video/mp2t',
    );
    expect(segment.status).toBe(200);
    const progress = await agent('POST', `/api/agent/queueItems/${w.items.stream.id}`, {
      status: 'ingesting',
      progress: 10,
    });
    expect(progress.status).toBe(200);
    expect(await rowsOf(since)).toEqual([]);
  });

  it('writes exactly one failed row for every operation a request fails, and changes nothing else', async () => {
    const problems: string[] = [];
    let before = await fingerprint(t, BOOKKEEPING_TABLES);
    for (const op of operations.filter((o) => !(o.id in AUDIT_EXEMPT_OPERATIONS))) {
      const url = op.path.replace(/\{(\w+)\}/g, '1');
      const since = await lastAuditId(t);
      // Not JSON: refused before anything is read, as the administrator (the agent's calls with its token).
      const agent = op.path.startsWith('/api/agent/');
      const answer = await (agent ? t.client() : w.admin.client).request({
        method: op.method as 'POST',
        url,
        body: 'this is not JSON {',
        headers: {
          'content-type': 'application/json',
          ...VERSION,
          ...(agent ? { authorization: `Bearer ${AGENT_TOKEN}` } : {}),
        },
        ...(agent ? { csrf: false } : {}),
      });
      const rows = await rowsOf(since);
      const after = await fingerprint(t, BOOKKEEPING_TABLES);
      const changed = changedTables(before, after);
      before = after;
      if (answer.status < 400) problems.push(`${op.id}: ${answer.status} for a body that is not JSON`);
      if (rows.length !== 1 || rows[0]?.operation !== op.id || rows[0]?.outcome !== 'failure')
        problems.push(`${op.id}: rows ${JSON.stringify(rows.map((r) => [r.operation, r.outcome]))}`);
      if (changed.length) problems.push(`${op.id}: changed ${changed.join(', ')}`);
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('writes exactly one row with its operation id for every operation that succeeds', async () => {
    const audited = operations.filter((op) => !(op.id in AUDIT_EXEMPT_OPERATIONS)).map((op) => op.id);
    const walked = STEPS.map((step) => step.op);
    expect(
      audited.filter((id) => !walked.includes(id)),
      'operations without a successful request',
    ).toEqual([]);
    expect(
      walked.filter((id) => !audited.includes(id)),
      'requests of no operation',
    ).toEqual([]);
    const made: Made = {};
    const problems: string[] = [];
    for (const step of STEPS) {
      await step.prepare?.(t, w, made);
      const since = await lastAuditId(t);
      let answer: TestResponse;
      try {
        answer = await step.run(t, w, made);
      } catch (error) {
        problems.push(`${step.op}: ${String(error)}`);
        continue;
      }
      const rows = await rowsOf(since);
      if (answer.status >= 300)
        problems.push(`${step.op}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      else if (
        rows.length !== 1 ||
        rows[0]?.operation !== step.op ||
        rows[0]?.outcome !== 'success' ||
        rows[0]?.status !== answer.status
      )
        problems.push(
          `${step.op}: rows ${JSON.stringify(rows.map((r) => [r.operation, r.outcome, r.status]))}`,
        );
    }
    expect(problems).toEqual([]);
  }, 300_000);
});

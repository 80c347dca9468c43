import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../src/modules/audit/service.ts';
import { auditLog } from '../src/modules/audit/tables.ts';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { makeUser } from '../src/seed/factories.ts';
import { allAuditText, audited, auditRowsAfter, lastAuditId } from './audit-world.ts';
import {
  buildTestApp,
  eventually,
  makeWorld,
  multipartFile,
  type Results,
  type TestApp,
  testDriver,
  type World,
} from './harness.ts';

/** Issue 33 item 2: what every state-changing request, agent write and job writes into the audit log. */
describe(`audit log: the rows changes write (${testDriver()})`, () => {
  let t: TestApp;
  let w: World;
  let siteManagerId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await makeWorld(t);
    siteManagerId = (await w.siteManager.client.get<Results<{ id: number }>>('/api/me')).body.results.id;
  });
  afterAll(() => t.close());

  it('writes one row for a change: who, as which role, through a session, the operation, target, account, fields, address, request id, outcome', async () => {
    const { answer, rows } = await audited(t, () =>
      w.siteManager.client.post(`/api/accounts/${w.account.id}`, { contactName: 'Bea Contact' }),
    );
    expect(answer.status).toBe(200);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: 'user',
      actorId: siteManagerId,
      actorName: w.siteManager.user.username,
      actingRole: 'site manager',
      via: 'session',
      operation: 'postAccountsById',
      targetType: 'account',
      targetId: String(w.account.id),
      accountId: w.account.id,
      siteId: w.site.id,
      siteGroupId: w.siteGroup.id,
      resellerId: w.reseller.id,
      fields: [{ name: 'contactName', value: 'Bea Contact', secret: false }],
      ip: '127.0.0.1',
      outcome: 'success',
      status: 200,
    });
    expect(rows[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes one failed row for a refused or invalid request, and the data stays as it was', async () => {
    const refused = await audited(t, () =>
      w.editor.client.post(`/api/accounts/${w.account.id}`, { contactName: 'Not Allowed' }),
    );
    expect(refused.answer.status).toBe(403);
    expect(refused.rows).toMatchObject([
      { operation: 'postAccountsById', actingRole: 'account user', outcome: 'failure', status: 403 },
    ]);
    const invalid = await audited(t, () =>
      w.siteManager.client.post(`/api/accounts/${w.account.id}`, { contactName: 'x'.repeat(500) }),
    );
    expect(invalid.answer.status).toBe(400);
    expect(invalid.rows).toMatchObject([{ operation: 'postAccountsById', outcome: 'failure', status: 400 }]);
    const forged = await audited(t, () =>
      w.siteManager.client.request({
        method: 'POST',
        url: `/api/accounts/${w.account.id}`,
        body: {},
        csrf: false,
      }),
    );
    expect(forged.answer.status).toBe(403);
    expect(forged.rows).toMatchObject([{ operation: 'postAccountsById', actorType: 'user', status: 403 }]);
    const account = await w.admin.client.get<Results<{ contactName: string }>>(
      `/api/accounts/${w.account.id}`,
    );
    expect(account.body.results.contactName).toBe('Bea Contact');
  });

  it('names what a creation made, and an API token as the way its user came', async () => {
    const made = await audited(t, () =>
      w.admin.client.post<Results<{ id: number; token: string }>>('/api/me/apiTokens', {
        name: 'script',
        scope: 'write',
      }),
    );
    const { id, token } = made.answer.body.results;
    expect(made.rows).toMatchObject([
      {
        operation: 'postMeApiTokens',
        targetType: 'apiToken',
        targetId: String(id),
        actingRole: 'administrator',
      },
    ]);
    const user = await makeUser(t.ctx.db);
    const changed = await audited(t, () =>
      t.client().request({
        method: 'POST',
        url: `/api/users/${user.id}`,
        body: { fullname: 'Changed By Script' },
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(changed.answer.status).toBe(200);
    expect(changed.rows).toMatchObject([
      {
        operation: 'postUsersById',
        via: 'token',
        targetType: 'user',
        targetId: String(user.id),
        userId: user.id,
      },
    ]);
    expect(await allAuditText(t)).not.toContain(token);
  });

  it('says who signed in, and that a refused sign-in failed, never with the password', async () => {
    const user = await makeUser(t.ctx.db);
    const valid = await audited(t, () => t.client().signIn(user.username, user.password as string));
    expect(valid.rows).toMatchObject([
      { operation: 'postLogin', actorType: 'user', actorId: user.id, outcome: 'success', status: 200 },
    ]);
    const refused = await audited(t, () =>
      t.client().post('/api/login', { username: user.username, password: 'Wrong-Passw0rd-123' }),
    );
    expect(refused.rows).toMatchObject([
      {
        operation: 'postLogin',
        actorType: 'anonymous',
        outcome: 'failure',
        fields: [
          { name: 'username', value: user.username, secret: false },
          { name: 'password', value: null, secret: true },
        ],
      },
    ]);
    expect(await allAuditText(t)).not.toContain('Wrong-Passw0rd-123');
  });

  it('keeps no secret of a password change in any row or log line', async () => {
    const user = await makeUser(t.ctx.db);
    const client = await t.client().signIn(user.username, user.password as string);
    const newPassword = 'Brand-New-Secret-42!';
    const { answer, rows } = await audited(t, () =>
      client.post(`/api/users/${user.id}/setPassword`, { currentPassword: user.password, newPassword }),
    );
    expect(answer.status).toBe(200);
    expect(rows).toMatchObject([
      {
        operation: 'postUsersByIdSetPassword',
        fields: [
          { name: 'currentPassword', value: null, secret: true },
          { name: 'newPassword', value: null, secret: true },
        ],
      },
    ]);
    const text = await allAuditText(t);
    expect(text).not.toContain(newPassword);
    expect(text).not.toContain(user.password as string);
    expect(t.logs()).not.toContain(newPassword);
  });

  it("writes an agent's write as the agent's, and its heartbeat not at all", async () => {
    const token = 'audit-agent-token-0123456789abcdef';
    const [edge] = await t.ctx.db
      .insert(edgeServers)
      .values({
        name: 'Audit Edge',
        userId: siteManagerId,
        siteId: w.site.id,
        advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
        agentTokenHash: sha256(token),
      })
      .returning();
    const [service] = await t.ctx.db
      .insert(services)
      .values({
        edgeServerId: edge?.id as number,
        name: 'Files',
        typeId: 'FileIngestService',
        serviceGroupId: 0,
      })
      .returning();
    const [endpoint] = await t.ctx.db
      .insert(endpoints)
      .values({
        serviceId: service?.id as number,
        name: 'Watch',
        typeId: 'LocalFolderEndpoint',
        accountId: w.account.id,
        options: { path: '/media/in' },
      })
      .returning();
    const agent = (url: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'x-api-version': API_VERSIONS.ingest },
        payload,
      });
    const beat = await audited(t, () => agent('/api/agent/heartbeat', { agentVersion: '1' }));
    expect(beat.answer.statusCode).toBe(200);
    expect(beat.rows).toEqual([]);
    const queued = await audited(t, () =>
      agent('/api/agent/queueItems', { endpointId: endpoint?.id, queueId: 'q-1', sourceName: 'clip.mov' }),
    );
    expect(queued.answer.statusCode).toBe(200);
    const itemId = (queued.answer.json() as Results<{ id: number }>).results.id;
    expect(queued.rows).toMatchObject([
      {
        operation: 'postAgentQueueItems',
        actorType: 'agent',
        actorId: edge?.id,
        actorName: 'Audit Edge',
        via: 'agent',
        actingRole: null,
        targetType: 'ingestQueueItem',
        targetId: String(itemId),
        accountId: w.account.id,
        siteId: w.site.id,
      },
    ]);

    // Its resumable upload (tus answers by itself, past Fastify's onSend): the creation and the bytes.
    await t.ctx.db
      .update(ingestQueueItems)
      .set({ status: 'ingesting' })
      .where(eq(ingestQueueItems.id, itemId));
    const since = await lastAuditId(t);
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const tus = {
      authorization: `Bearer ${token}`,
      'x-api-version': API_VERSIONS.ingest,
      'tus-resumable': '1.0.0',
    };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/agent/uploads',
      headers: {
        ...tus,
        'upload-length': '6',
        'upload-metadata': `queueItemId ${b64(String(itemId))},rendition ${b64('source')}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const uploadId = String(created.headers.location).split('/').at(-1);
    const sent = await t.app.inject({
      method: 'PATCH',
      url: `/api/agent/uploads/${uploadId}`,
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('abc'),
    });
    expect(sent.statusCode, sent.body).toBe(204);
    // Half of it; then a chunk at the wrong offset is refused: that one is a row (a chunk appended is routine).
    const wrong = await t.app.inject({
      method: 'PATCH',
      url: `/api/agent/uploads/${uploadId}`,
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('abc'),
    });
    expect(wrong.statusCode).toBe(409);
    const rows = await eventually(async () => {
      const found = await auditRowsAfter(t, since);
      return found.length >= 2 ? found : undefined;
    });
    expect(rows).toMatchObject([
      {
        operation: 'postAgentUploads',
        actorType: 'agent',
        targetType: 'upload',
        targetId: uploadId,
        status: 201,
      },
      { operation: 'patchAgentUploadsByUploadId', targetType: 'upload', targetId: uploadId, status: 409 },
    ]);
  });

  it("writes a web upload's proxy job as the system's change: here a failure, the file being no media", async () => {
    const { body, headers } = multipartFile({ fileName: 'clip.mp4', content: 'not a video at all' });
    const sent = await w.editor.client.request<Results<{ id: number }>>({
      method: 'POST',
      url: `/api/accounts/${w.account.id}/uploads?uploadname=Clip`,
      body,
      headers,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const uploadId = sent.body.results.id;
    const [row] = await eventually(async () => {
      const rows = await t.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.operation, 'job.uploadProxy'), eq(auditLog.targetId, String(uploadId))));
      return rows.length ? rows : undefined;
    }, 30_000);
    expect(row).toMatchObject({
      actorType: 'system',
      via: 'job',
      targetType: 'upload',
      accountId: w.account.id,
      siteId: w.site.id,
      outcome: 'failure',
      fields: [
        { name: 'status', value: 'failed', secret: false },
        { name: 'error', value: 'clip.mp4 has no picture or sound that ffmpeg can read', secret: false },
      ],
    });
  });

  it("writes a job's change as the system's", async () => {
    const { rows } = await audited(t, () =>
      recordAudit(t.ctx, {
        operation: 'job.publishRun',
        target: { type: 'account', id: w.account.id },
        userId: siteManagerId,
        fields: { status: 'done' },
      }),
    );
    expect(rows).toMatchObject([
      {
        actorType: 'system',
        via: 'job',
        operation: 'job.publishRun',
        accountId: w.account.id,
        resellerId: w.reseller.id,
        userId: siteManagerId,
        fields: [{ name: 'status', value: 'done', secret: false }],
        outcome: 'success',
        status: null,
      },
    ]);
  });

  it('answers a change that succeeded as a success when its row cannot be written, with a warning', async () => {
    await t.ctx.db.execute(sql`alter table audit_log rename to audit_log_away`);
    try {
      const answer = await w.siteManager.client.post(`/api/accounts/${w.account.id}`, { contactName: 'Cy' });
      expect(answer.status).toBe(200);
    } finally {
      await t.ctx.db.execute(sql`alter table audit_log_away rename to audit_log`);
    }
    expect(t.logs()).toContain('writing the audit row of a request failed');
  });
});

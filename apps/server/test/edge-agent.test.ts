import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { endpointDestinationMissing } from '@media/contract';
import { EdgeAgent } from '@media/edge-agent';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLocalEdge } from '../src/modules/agent/local-edge.ts';
import { edgeCommands, edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestQueueItems, unprocessedFiles } from '../src/modules/ingest/tables.ts';
import { makeAccount } from '../src/seed/factories.ts';
import { buildTestApp, type TestApp, testDriver } from './harness.ts';

/**
 * The whole flow of DESIGN.md on one machine: the local edge server's agent, over real HTTP, finds a
 * file dropped into its folder, queues it, ingests it with ffmpeg and reports back.
 */
describe(`local edge agent (${testDriver()})`, () => {
  let t: TestApp;
  let agent: EdgeAgent;
  let cloudUrl: string;
  let local: NonNullable<Awaited<ReturnType<typeof ensureLocalEdge>>>;

  const items = () =>
    t.ctx.db.select().from(ingestQueueItems).where(eq(ingestQueueItems.edgeServerId, local.edgeServerId));

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const made = await ensureLocalEdge(t.ctx);
    if (!made) throw new Error('no local edge');
    local = made;
    cloudUrl = `http://127.0.0.1:${address.port}`;
    agent = new EdgeAgent({
      cloudUrl,
      token: local.token,
      allowedRoots: [local.folders.root],
      settleMs: 0,
      scanIntervalMs: 0,
    });
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine'],
      ...['-t', '2', '-c:v', 'mpeg4', '-c:a', 'aac', path.join(local.folders.arrivals, 'clip.mp4')],
    ]);
    fs.writeFileSync(path.join(local.folders.arrivals, 'notes.txt'), 'not a media file');
  });
  afterAll(() => t.close());

  it('makes the local edge once and gives it a new token on each start', async () => {
    const again = await ensureLocalEdge(t.ctx);
    expect(again?.edgeServerId).toBe(local.edgeServerId);
    expect(again?.token).not.toBe(local.token);
    const edges = await t.ctx.db.select().from(edgeServers);
    expect(edges).toHaveLength(1);
    // Back to the token the agent holds.
    local = { ...local, ...(await ensureLocalEdge(t.ctx)) } as typeof local;
    agent = new EdgeAgent({
      cloudUrl,
      token: local.token,
      allowedRoots: [local.folders.root],
      settleMs: 0,
      scanIntervalMs: 0,
    });
  });

  it('keeps a dropped video waiting until the endpoint has an account, then ingests it: duration, proxy size, thumbnail and log', async () => {
    await agent.tick();
    await agent.tick();
    await agent.idle();
    // As `npm start` makes it, the endpoint feeds no account: the files wait, and the endpoint says why.
    expect(await items()).toEqual([]);
    const [waiting] = await t.ctx.db
      .select()
      .from(endpoints)
      .where(eq(endpoints.name, 'Local arrivals folder'));
    expect(waiting).toMatchObject({
      status: 'warning',
      statusMessage: endpointDestinationMissing({ accountId: null }),
    });
    const account = await makeAccount(t.ctx.db);
    await t.ctx.db
      .update(endpoints)
      .set({ accountId: account.id })
      .where(eq(endpoints.id, waiting?.id ?? 0));
    await agent.tick();
    await agent.tick();
    await agent.idle();
    const [clip] = (await items()).filter((item) => item.sourceName === 'clip.mp4');
    // The account has no ingest formats: the default one (PAL wide, standard), never above the source's 240 lines.
    expect(clip).toMatchObject({ status: 'ingested', clipName: 'clip', proxyWidth: 426, proxyHeight: 240 });
    expect(clip?.duration).toBeGreaterThan(1.5);
    expect(clip?.fileSize).toBe(fs.statSync(path.join(local.folders.arrivals, 'clip.mp4')).size);
    expect(clip?.log).toContain('Ingested');
    const thumbnail = path.join(t.config.dataDir, clip?.thumbnailPath ?? 'none');
    expect(fs.readFileSync(thumbnail).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const [edge] = await t.ctx.db.select().from(edgeServers).where(eq(edgeServers.id, local.edgeServerId));
    expect(edge?.lastSeenAt).not.toBeNull();
  });

  it('reports a file that is not media as unprocessed, and ingests it once forced', async () => {
    const [notes] = await t.ctx.db
      .select()
      .from(unprocessedFiles)
      .where(eq(unprocessedFiles.path, 'notes.txt'));
    expect(notes?.status).toBe('missingFiles');
    expect((await items()).some((item) => item.sourceName === 'notes.txt')).toBe(false);
    await t.ctx.db
      .update(unprocessedFiles)
      .set({ forced: true })
      .where(eq(unprocessedFiles.path, 'notes.txt'));
    await agent.tick();
    await agent.tick();
    await agent.idle();
    const [item] = (await items()).filter((row) => row.sourceName === 'notes.txt');
    expect(item?.status).toBe('ingested');
    expect(item?.log).toContain('Forced past the media check');
    expect(await t.ctx.db.select().from(unprocessedFiles)).toEqual([]);
  });

  it('takes only queued items: one a person set to actionRequired stays as it is', async () => {
    const [endpoint] = await t.ctx.db
      .select()
      .from(endpoints)
      .where(eq(endpoints.name, 'Local arrivals folder'));
    const [held] = await t.ctx.db
      .insert(ingestQueueItems)
      .values({
        edgeServerId: local.edgeServerId,
        endpointId: endpoint?.id ?? null,
        queueId: 'held',
        sourceName: 'clip.mp4',
        status: 'actionRequired',
        rank: 0,
      })
      .returning();
    await agent.tick();
    const [after] = await t.ctx.db
      .select()
      .from(ingestQueueItems)
      .where(eq(ingestQueueItems.id, held?.id ?? 0));
    expect(after?.status).toBe('actionRequired');
    expect(after?.log).toBe('');
  });

  it('answers the machine load command', async () => {
    const [command] = await t.ctx.db
      .insert(edgeCommands)
      .values({ edgeServerId: local.edgeServerId, action: 'machineLoad' })
      .returning();
    await agent.tick();
    const [done] = await t.ctx.db
      .select()
      .from(edgeCommands)
      .where(eq(edgeCommands.id, command?.id ?? 0));
    expect(done?.doneAt).not.toBeNull();
    expect(done?.result).toMatchObject({ cpus: expect.any(Number), totalMemoryMb: expect.any(Number) });
  });

  it('does not read an endpoint folder outside the folders it may read', async () => {
    const outside = fs.mkdtempSync(path.join(path.dirname(t.config.dataDir), 'outside-'));
    fs.copyFileSync(path.join(local.folders.arrivals, 'clip.mp4'), path.join(outside, 'secret.mp4'));
    const [service] = await t.ctx.db
      .select()
      .from(services)
      .where(eq(services.edgeServerId, local.edgeServerId));
    await t.ctx.db.insert(endpoints).values({
      serviceId: service?.id ?? 0,
      name: 'Elsewhere',
      typeId: 'LocalFolderEndpoint',
      options: { path: outside },
      online: true,
    });
    await agent.tick();
    await agent.tick();
    expect((await items()).some((item) => item.sourceName === 'secret.mp4')).toBe(false);
    // The agent says why, and the endpoint is not shown OK.
    const [elsewhere] = await t.ctx.db.select().from(endpoints).where(eq(endpoints.name, 'Elsewhere'));
    expect(elsewhere).toMatchObject({ status: 'error' });
    expect(elsewhere?.statusMessage).toContain('outside the folders this agent may read');
    fs.rmSync(outside, { recursive: true, force: true });
  });
});

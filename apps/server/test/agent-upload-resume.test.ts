import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { API_VERSIONS, DEFAULT_EDGE_ADVANCED_OPTIONS } from '@media/contract';
import { uploadItemFile } from '@media/edge-agent';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { edgeServers, endpoints, services } from '../src/modules/edge/tables.ts';
import { ingestItemFiles, ingestQueueItems } from '../src/modules/ingest/tables.ts';
import { loadConfig } from '../src/platform/config.ts';
import type { AppContext } from '../src/platform/context.ts';
import { sha256 } from '../src/platform/crypto.ts';
import { createContext } from '../src/platform/start.ts';
import { makeUser } from '../src/seed/factories.ts';
import { ADMIN_TEST_PASSWORD, testDriver } from './harness.ts';
import { createScratchPostgresDatabase } from './scratch-postgres.ts';

const quiet = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/**
 * Agent uploads are resumable (issue 13, tus): the cloud restarts in the middle of an upload, and the
 * agent's upload goes on from the offset the cloud kept, not from zero; the stored file is the original.
 */
describe(`agent upload resumed after the cloud restarts (${testDriver()})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-resume-'));
  const token = 'agent-token-of-resumed-upload-01234';
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
  let running: { ctx: AppContext; app: FastifyInstance } | undefined;
  let port = 0;
  /** Upload-Offset of every PATCH each server instance received. */
  const offsets: number[][] = [];

  const start = async () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: ADMIN_TEST_PASSWORD,
      LOG_LEVEL: 'silent',
      LOCAL_EDGE: '0',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    const { ctx } = await createContext(config, { logStream: quiet() });
    const app = await buildApp(ctx);
    const seen: number[] = [];
    offsets.push(seen);
    app.addHook('onRequest', async (request) => {
      if (request.method === 'PATCH') seen.push(Number(request.headers['upload-offset']));
    });
    await app.listen({ port, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    port = address.port;
    running = { ctx, app };
    return running;
  };
  const stop = async () => {
    await running?.app.close();
    await running?.ctx.close();
    running = undefined;
  };

  beforeAll(async () => {
    if (testDriver() === 'postgres')
      scratch = await createScratchPostgresDatabase(process.env.DATABASE_URL as string, 'resume');
  });
  afterAll(async () => {
    await stop();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes on from the offset the cloud kept, and stores the whole file', async () => {
    const { ctx } = await start();
    const owner = await makeUser(ctx.db);
    const [edge] = await ctx.db
      .insert(edgeServers)
      .values({
        name: 'Resume edge',
        userId: owner.id,
        advancedOptions: DEFAULT_EDGE_ADVANCED_OPTIONS,
        agentTokenHash: sha256(token),
      })
      .returning();
    const [service] = await ctx.db
      .insert(services)
      .values({ edgeServerId: edge?.id ?? 0, name: 'Files', typeId: 'FileIngestService', serviceGroupId: 0 })
      .returning();
    const [endpoint] = await ctx.db
      .insert(endpoints)
      .values({ serviceId: service?.id ?? 0, name: 'Watch', typeId: 'LocalFolderEndpoint' })
      .returning();
    const [item] = await ctx.db
      .insert(ingestQueueItems)
      .values({
        edgeServerId: edge?.id ?? 0,
        endpointId: endpoint?.id ?? null,
        queueId: 'resume',
        sourceName: 'big.mov',
        status: 'ingesting',
        rank: 1,
      })
      .returning();
    const file = path.join(dataDir, 'big.mov');
    const content = randomBytes(3 * 1024 * 1024);
    fs.writeFileSync(file, content);

    let restarted: Promise<unknown> | undefined;
    const upload = uploadItemFile({
      cloudUrl: `http://127.0.0.1:${port}`,
      token,
      apiVersion: API_VERSIONS.ingest,
      file,
      queueItemId: item?.id ?? 0,
      rendition: 'source',
      stateDir: path.join(dataDir, 'agent-state'),
      chunkSize: 256 * 1024,
      onProgress: (sent) => {
        // A third of the way: the cloud stops and comes back on the same address and data.
        if (sent >= 1024 * 1024 && !restarted) restarted = stop().then(start);
      },
    });
    await upload;
    await restarted;
    const [before, after] = offsets;
    expect(before?.length).toBeGreaterThan(2);
    // The restarted cloud received the rest only: its first PATCH starts where the first one stopped.
    expect(after?.[0]).toBeGreaterThan(0);
    expect(after?.[0]).toBe(Math.max(...(before ?? [0])) + 256 * 1024);
    const db = running?.ctx.db;
    if (!db || !running) throw new Error('not running');
    const [stored] = await db
      .select()
      .from(ingestItemFiles)
      .where(eq(ingestItemFiles.queueItemId, item?.id ?? 0));
    expect(stored).toMatchObject({ rendition: 'source', size: content.length });
    const copy = await running.ctx.storage.localCopy(stored?.storagePath ?? 'none');
    expect(fs.readFileSync(copy.path).equals(content)).toBe(true);
    // Nothing of the upload is left behind in DATA_DIR/tus.
    expect(fs.readdirSync(path.join(dataDir, 'tus'))).toEqual([]);
  });
});

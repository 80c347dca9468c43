import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHANNELS, DEFAULT_EDGE_ADVANCED_OPTIONS, proxyPlan } from '@media/contract';
import { EdgeAgent } from '@media/edge-agent';
import { probe, proxyArguments } from '@media/media-tools';
import { and, eq, sql } from 'drizzle-orm';
import { edgeServers, endpoints, services } from '../apps/server/src/modules/edge/tables.ts';
import { ingestQueueItems } from '../apps/server/src/modules/ingest/tables.ts';
import { sha256 } from '../apps/server/src/platform/crypto.ts';
import { makeArrivalsFolderRow } from '../apps/server/src/seed/demo-edge.ts';
import { grantAccountAccess, makeAccount, makeSite, makeUser } from '../apps/server/src/seed/factories.ts';
import { withBenchServer } from './server-bench.ts';

const run = promisify(execFile);

/**
 * DESIGN "Performance budgets", media: a dropped file is playable in the cloud in at most 1.3x the time bare
 * ffmpeg takes to make the same proxy on the same machine, and ten files at once keep every core busy.
 * Drop-to-playable runs the real agent and cloud in one process (settle time 0: the wait for a copy to end is
 * a choice, not work): read, hash, probe, proxy, poster, filmstrip, tus upload, landing. The baseline runs
 * the agent's own ffmpeg arguments for the same plan. BENCH_INGEST_SECONDS (60) and BENCH_INGEST_HEIGHT
 * (1080) size the single file; BENCH_INGEST_FILES (10) files of 10 s at 720p make the second figure.
 */
const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
const HEIGHT = Number(process.env.BENCH_INGEST_HEIGHT ?? 1080);
const FILES = Number(process.env.BENCH_INGEST_FILES ?? 10);
const CONCURRENCY = Number(process.env.BENCH_INGEST_CONCURRENCY ?? os.availableParallelism());
const TOKEN = 'bench-ingest-agent-token-0123456789';

const makeSource = async (file: string, height: number, seconds: number) => {
  const width = Math.round((height * 16) / 9 / 2) * 2;
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`],
    ...['-f', 'lavfi', '-i', 'sine', '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-c:a', 'aac', '-shortest', file],
  ]);
};

/** Bare ffmpeg making the proxy the agent makes (same plan, same arguments), answers seconds. */
const bareProxy = async (input: string, output: string, threads?: number) => {
  const info = await probe(input);
  if (!info?.width || !info.height) throw new Error(`cannot probe ${input}`);
  const plan = proxyPlan({ width: info.width, height: info.height }, 'PAL_wide', 640);
  const started = performance.now();
  await run(
    'ffmpeg',
    proxyArguments({ input, output, plan, duration: info.duration, threads }, { proxy: output }),
  );
  return (performance.now() - started) / 1000;
};

/** CPU seconds of the finished child processes (ffmpeg, ffprobe), from /proc. */
const childrenCpu = () => {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

export const runIngestBenchmark = async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  try {
    const single = path.join(work, 'single.mp4');
    await makeSource(single, HEIGHT, SECONDS);
    const batch = Array.from({ length: FILES }, (_, i) => path.join(work, `batch-${i}.mp4`));
    await makeSource(batch[0] as string, 720, 10);
    for (const file of batch.slice(1)) {
      // Same picture, other content (the cloud would call a copy duplicated): one byte differs at the end.
      fs.copyFileSync(batch[0] as string, file);
      fs.appendFileSync(file, Buffer.from([batch.indexOf(file)]));
    }
    await withBenchServer('pglite', 'ingest', async ({ ctx, start }) => {
      const { app } = await start();
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening');
      const db = ctx.db;
      const owner = await makeUser(db);
      const account = await makeAccount(db, { siteId: (await makeSite(db)).id, maxVideo: '640x360' });
      // An edge server of a user lands media only in accounts its owner manages (issue 30).
      await grantAccountAccess(db, owner.id, account.id, 'Account Manager');
      const folder = await makeArrivalsFolderRow(db, {
        accountId: account.id,
        name: 'Bench',
        typeId: 'proxyOnly',
      });
      const [edge] = await db
        .insert(edgeServers)
        .values({
          name: 'Bench edge',
          userId: owner.id,
          advancedOptions: {
            ...DEFAULT_EDGE_ADVANCED_OPTIONS,
            maxConcurrentIngests: CONCURRENCY,
          },
          agentTokenHash: sha256(TOKEN),
        })
        .returning();
      const [service] = await db
        .insert(services)
        .values({
          edgeServerId: edge?.id ?? 0,
          name: 'Files',
          typeId: 'FileIngestService',
          serviceGroupId: 0,
          options: { maxConcurrentFiles: { value: String(CONCURRENCY) } },
        })
        .returning();
      const drop = path.join(work, 'drop');
      fs.mkdirSync(drop);
      const [endpoint] = await db
        .insert(endpoints)
        .values({
          serviceId: service?.id ?? 0,
          name: 'Drop',
          typeId: 'LocalFolderEndpoint',
          accountId: account.id,
          arrivalsFolderId: folder.id,
          options: { path: drop },
          online: true,
        })
        .returning();
      const newAgent = () =>
        new EdgeAgent({
          cloudUrl: `http://127.0.0.1:${address.port}`,
          token: TOKEN,
          allowedRoots: [work],
          settleMs: 0,
          scanIntervalMs: 0,
          heartbeatMs: 1000,
          stateDir: path.join(work, 'state'),
        });
      const ingested = async (names: string[]) => {
        const rows = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(ingestQueueItems)
          .where(
            and(
              eq(ingestQueueItems.endpointId, endpoint?.id ?? 0),
              eq(ingestQueueItems.status, 'ingested'),
              sql`${ingestQueueItems.sourceName} in ${names}`,
            ),
          );
        return (rows[0]?.n ?? 0) === names.length;
      };
      /**
       * Resolves when every named file is ingested: checked at each change of the account's nodes (a landed
       * item announces its node there) and once a second, so that measuring costs the server nearly nothing.
       */
      const allIngested = (names: string[]) =>
        new Promise<void>((resolve, reject) => {
          let checking = false;
          let again = false;
          const check = async (): Promise<void> => {
            if (checking) {
              again = true;
              return;
            }
            checking = true;
            again = false;
            try {
              if (await ingested(names)) {
                stop();
                resolve();
                return;
              }
            } catch (error) {
              stop();
              reject(error);
              return;
            }
            checking = false;
            if (again) await check();
          };
          const channel = CHANNELS.nodes(account.id);
          const unsubscribe = ctx.bus.subscribe((notice) => {
            if ('reset' in notice || notice.channel === channel) void check();
          });
          const timer = setInterval(() => void check(), 1000);
          const stop = () => {
            unsubscribe();
            clearInterval(timer);
          };
          void check();
        });
      /** Drops files and answers the seconds until each is playable (ingested, its node's proxy stored). */
      const dropAndWait = async (files: string[]) => {
        const names = files.map((file) => path.basename(file));
        const agent = newAgent();
        for (const file of files) fs.copyFileSync(file, path.join(drop, path.basename(file)));
        const started = performance.now();
        agent.start();
        await allIngested(names);
        const seconds = (performance.now() - started) / 1000;
        await agent.stop();
        return seconds;
      };

      const bareOne = await bareProxy(single, path.join(work, 'bare-single.mp4'));
      const productOne = await dropAndWait([single]);
      if (process.env.BENCH_INGEST_LOG) {
        const [row] = await db
          .select({ log: ingestQueueItems.log })
          .from(ingestQueueItems)
          .where(eq(ingestQueueItems.sourceName, path.basename(single)));
        console.log(row?.log);
      }
      console.log(`one ${HEIGHT}p file of ${SECONDS} s:`);
      console.log(`  bare ffmpeg making the proxy     ${bareOne.toFixed(2)} s`);
      console.log(`  dropped until playable (product) ${productOne.toFixed(2)} s`);
      console.log(`  ratio ${(productOne / bareOne).toFixed(2)} (goal ≤ 1.3)`);

      const threads = Math.max(
        1,
        Math.floor(os.availableParallelism() / Math.min(FILES, os.availableParallelism())),
      );
      const bareStarted = performance.now();
      await Promise.all(batch.map((file, i) => bareProxy(file, path.join(work, `bare-${i}.mp4`), threads)));
      const bareBatch = (performance.now() - bareStarted) / 1000;
      const cpuBefore = { own: process.cpuUsage(), children: childrenCpu() };
      const productBatch = await dropAndWait(batch);
      if (process.env.BENCH_INGEST_LOG) {
        const own = process.cpuUsage(cpuBefore.own);
        console.log(
          `cpu: node ${((own.user + own.system) / 1e6).toFixed(2)} s, tools ${(childrenCpu() - cpuBefore.children).toFixed(2)} s`,
        );
      }
      if (process.env.BENCH_INGEST_LOG) {
        const rows = await db
          .select({ log: ingestQueueItems.log, name: ingestQueueItems.sourceName })
          .from(ingestQueueItems)
          .where(sql`${ingestQueueItems.sourceName} like 'batch-%'`);
        for (const row of rows) console.log(row.name, row.log);
      }
      console.log(`${FILES} files of 10 s at 720p dropped at once:`);
      console.log(`  bare ffmpeg, all at once         ${bareBatch.toFixed(2)} s`);
      console.log(`  dropped until all playable        ${productBatch.toFixed(2)} s`);
      console.log(`  ratio ${(productBatch / bareBatch).toFixed(2)} (goal ≤ 1.3)`);
      await app.close();
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
};

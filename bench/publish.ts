import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHANNELS, newButtonBody, type Phase } from '@media/contract';
import { probe, transcodeArguments } from '@media/media-tools';
import { eq } from 'drizzle-orm';
import { publishes } from '../apps/server/src/modules/publishing/tables.ts';
import { makeAccount, makeSite } from '../apps/server/src/seed/factories.ts';
import { makeMediaRow, makeNodeRow } from '../apps/server/src/seed/node-factories.ts';
import { BenchmarkFailure } from './failure.ts';
import { withBenchServer } from './server-bench.ts';

const run = promisify(execFile);

/**
 * DESIGN "Performance budgets", publishing: a publish with a transcode takes at most 1.2x bare ffmpeg doing
 * the same work on the same machine. A real server (PGlite, its own publish workers) publishes a node whose
 * file is a BENCH_PUBLISH_SECONDS (60) s BENCH_PUBLISH_HEIGHT (1080) p video with a button transcode (MP4 at
 * BENCH_PUBLISH_KBPS, 5000) → export to folder, timed from the publish request until the publish is done;
 * the baseline is ffmpeg run with the very arguments the transcode module runs (transcodeArguments). The two
 * take turns BENCH_PUBLISH_ROUNDS (2) times and the ratio is taken pair by pair; the median is judged. The
 * CPU seconds of each (ffmpeg and ffprobe; the server's own) show where any difference goes, since on a busy
 * machine wall times drift. BENCH_PUBLISH_SOURCE names a video to publish instead of making one;
 * BENCH_PUBLISH_BARE=0 leaves the baseline out (to time the publish as a whole process from outside).
 */
const SECONDS = Number(process.env.BENCH_PUBLISH_SECONDS ?? 60);
const HEIGHT = Number(process.env.BENCH_PUBLISH_HEIGHT ?? 1080);
const KBPS = Number(process.env.BENCH_PUBLISH_KBPS ?? 5000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_PUBLISH_ROUNDS ?? 2));
const WITH_BARE = process.env.BENCH_PUBLISH_BARE !== '0';
const GOAL = 1.2;
const BUTTON = 'Bench transcode';

const makeSource = async (file: string) => {
  const width = Math.round((HEIGHT * 16) / 9 / 2) * 2;
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${HEIGHT}:rate=25`],
    ...['-f', 'lavfi', '-i', 'sine', '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-c:a', 'aac', '-shortest', file],
  ]);
};

/** CPU seconds of the finished child processes (ffmpeg, ffprobe), from /proc. */
const childrenCpu = () => {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
};
/** CPU seconds that `work` cost: its child processes, and this process (the server, for a publish). */
const measured = async <T>(work: () => Promise<T>) => {
  const own = process.cpuUsage();
  const children = childrenCpu();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(own);
  return { result, wall, tools: childrenCpu() - children, server: (used.user + used.system) / 1e6 };
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export const runPublishBenchmark = async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-publish-'));
  try {
    const source = process.env.BENCH_PUBLISH_SOURCE ?? path.join(work, 'source.mp4');
    if (!process.env.BENCH_PUBLISH_SOURCE) await makeSource(source);
    const info = await probe(source);
    if (!info?.width) throw new BenchmarkFailure(`cannot probe ${source}`);
    const transcode = { format: 'mp4' as const, videoBitrateKbps: KBPS, hasAudio: info.hasAudio };

    /** Bare ffmpeg doing the transcode module's work: its own argument list. */
    const bare = async (round: number) => {
      const output = path.join(work, `bare-${round}.mp4`);
      const figures = await measured(() =>
        run('ffmpeg', transcodeArguments({ ...transcode, input: source }, output), {
          maxBuffer: 64 * 1024 * 1024,
        }),
      );
      fs.rmSync(output, { force: true });
      return figures;
    };

    await withBenchServer('pglite', 'publish', async ({ ctx, start }) => {
      const { app, cookie } = await start();
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new BenchmarkFailure('not listening');
      const base = `http://127.0.0.1:${address.port}`;
      const csrf = /(?:^|; )csrftoken=([^;]*)/.exec(cookie)?.[1] ?? '';
      const post = async (url: string, body: unknown) => {
        const response = await fetch(`${base}${url}`, {
          method: 'POST',
          headers: { cookie, 'x-csrftoken': csrf, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { results?: Record<string, unknown> };
        if (!response.ok) throw new BenchmarkFailure(`${url}: ${response.status} ${JSON.stringify(answer)}`);
        return answer.results ?? {};
      };

      const db = ctx.db;
      const account = await makeAccount(db, { siteId: (await makeSite(db)).id });
      const key = `media/accounts/${account.id}/bench/source.mp4`;
      await ctx.storage.putStream(key, fs.createReadStream(source));
      const media = await makeMediaRow(db, {
        accountId: account.id,
        name: 'Source',
        storagePath: key,
        contentType: 'video/mp4',
        width: info.width,
        height: info.height,
        duration: info.duration,
      });
      await makeNodeRow(db, { accountId: account.id, name: 'Source', type: 'source', mediaId: media.id });
      const body = newButtonBody({
        name: BUTTON,
        processModuleId: 'transcode',
        destinationModuleId: 'folder-export',
      });
      for (const node of (body.phases[0] as Phase).phase.network.nodes) {
        if (node.moduleId === 'transcode') node.options = { format: 'mp4', videoBitrate: KBPS };
        if (node.moduleId === 'folder-export') node.options = { folder: 'bench' };
      }
      await post(`/api/accounts/${account.id}/publishButtons`, body);

      const row = async (id: number) => (await db.select().from(publishes).where(eq(publishes.id, id)))[0];
      /** Resolves with the publish once it has ended: looked at on each change of the account's publishes. */
      const ended = (id: number) =>
        new Promise<NonNullable<Awaited<ReturnType<typeof row>>>>((resolve, reject) => {
          let looking = false;
          const look = async () => {
            if (looking) return;
            looking = true;
            try {
              const found = await row(id);
              if (found && ['done', 'failed'].includes(found.status)) {
                stop();
                resolve(found);
              }
            } catch (error) {
              stop();
              reject(error);
            } finally {
              looking = false;
            }
          };
          const channel = CHANNELS.publishes(account.id);
          const unsubscribe = ctx.bus.subscribe((notice) => {
            if ('reset' in notice || notice.channel === channel) void look();
          });
          const timer = setInterval(() => void look(), 1000);
          const stop = () => {
            unsubscribe();
            clearInterval(timer);
          };
          void look();
        });
      /** One publish of the node through the HTTP API, from the request until it is done. */
      const product = async () => {
        const figures = await measured(async () => {
          const answer = await post('/api/nodesTransfer', {
            srcPath: `/${account.name}/Source`,
            dstPath: `/${account.name}/Publish/${BUTTON}`,
            operation: 'publish',
          });
          const [id] = answer.publishIds as number[];
          return ended(id as number);
        });
        const done = figures.result;
        if (done.status !== 'done') throw new BenchmarkFailure(`the publish failed: ${done.error}`);
        fs.rmSync(path.join(ctx.config.dataDir, done.outputs[0]?.location ?? 'none'), { force: true });
        return { ...figures, done };
      };

      console.log(
        `a ${Math.round(info.duration ?? SECONDS)} s ${info.width}x${info.height} node published with transcode (MP4, ${KBPS} kbps) → export to folder:`,
      );
      const ratios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        if (!WITH_BARE) {
          const published = await product();
          console.log(`  round ${round}: publish ${published.wall.toFixed(2)} s (no baseline)`);
          continue;
        }
        const baseline = await bare(round);
        const published = await product();
        const { done } = published;
        const ratio = published.wall / baseline.wall;
        ratios.push(ratio);
        const queued = ((done.startedAt?.getTime() ?? 0) - done.createdAt.getTime()) / 1000;
        const running = ((done.finishedAt?.getTime() ?? 0) - (done.startedAt?.getTime() ?? 0)) / 1000;
        console.log(
          `  round ${round}: bare ffmpeg ${baseline.wall.toFixed(2)} s, publish ${published.wall.toFixed(2)} s (queued ${queued.toFixed(2)} s, running ${running.toFixed(2)} s), ratio ${ratio.toFixed(3)}`,
        );
        console.log(
          `    cpu: bare ffmpeg ${baseline.tools.toFixed(2)} s; publish: ffmpeg and ffprobe ${published.tools.toFixed(2)} s, server ${published.server.toFixed(2)} s, ratio ${((published.tools + published.server) / baseline.tools).toFixed(3)}`,
        );
      }
      if (!WITH_BARE) return;
      const judged = median(ratios);
      console.log(`  median ratio ${judged.toFixed(3)} (goal ≤ ${GOAL})`);
      await app.close();
      if (judged > GOAL)
        throw new BenchmarkFailure(`a publish took ${judged.toFixed(2)}x bare ffmpeg (goal ≤ ${GOAL})`);
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
};

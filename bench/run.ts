import { runApiReadBenchmark } from './api-read.ts';
import { runAuditBenchmark } from './audit.ts';
import { BenchmarkFailure } from './failure.ts';
import { runIngestBenchmark } from './ingest.ts';
import { runIngestQueueBenchmark } from './ingest-queue.ts';
import { runListsBenchmark } from './lists.ts';
import { runLoadMixBenchmark } from './load-mix.ts';
import { runLongPollBenchmark } from './longpoll.ts';
import { runMetadataBenchmark } from './metadata.ts';
import { runNodesBenchmark } from './nodes.ts';
import { runPublishBenchmark } from './publish.ts';
import { runStreamsBenchmark } from './streams.ts';
import { runWebSizeBenchmark } from './web-size.ts';
import { runWebhooksBenchmark } from './webhooks.ts';

type Benchmark = { name: string; title: string; run: () => Promise<void> };

const benchmarks: Benchmark[] = [
  {
    name: 'web-size',
    title: 'Web: JavaScript of the sign-in page and the first signed-in page, on the wire in Chromium',
    run: runWebSizeBenchmark,
  },
  {
    name: 'api-read',
    title:
      'API read: /api/me, a list and a paged search against a bare Fastify route, then the mixed load (PGlite; PostgreSQL too with DATABASE_URL)',
    run: runApiReadBenchmark,
  },
  {
    name: 'longpoll',
    title: 'Live updates: one change to BENCH_POLLERS (2,000) pages that long-poll again after each answer',
    run: runLongPollBenchmark,
  },
  {
    name: 'webhooks',
    title:
      'Webhooks: the first delivery attempt after each of 50 changes a second (PGlite; PostgreSQL too with DATABASE_URL)',
    run: runWebhooksBenchmark,
  },
  {
    name: 'audit',
    title: 'Audit log: filtered pages of 50 among 1M rows (PGlite; PostgreSQL too with DATABASE_URL)',
    run: runAuditBenchmark,
  },
  {
    name: 'load-mix',
    title: 'Mixed load: 200 long-polling pages plus 50 connections on lists; where the wait goes',
    run: runLoadMixBenchmark,
  },
  {
    name: 'lists',
    title: 'Lists: accounts, user search and userAccess on 10k accounts and 50k users',
    run: runListsBenchmark,
  },
  {
    name: 'ingest-queue',
    title: 'Ingest queue: pages of 100, filtered and sorted, among 200k queue items',
    run: runIngestQueueBenchmark,
  },
  {
    name: 'ingest',
    title: 'Media: a dropped 1080p file until playable, and ten at once, against bare ffmpeg',
    run: runIngestBenchmark,
  },
  {
    name: 'publish',
    title: 'Publishing: a 60 s 1080p publish with a transcode against bare ffmpeg',
    run: runPublishBenchmark,
  },
  {
    name: 'streams',
    title: 'Streams: agent CPU per recorded 1080p stream and live latency, by segment length',
    run: runStreamsBenchmark,
  },
  {
    name: 'metadata',
    title: 'Metadata: export (CSV, XLSX) and import (dry run, import) of 100k media nodes',
    run: runMetadataBenchmark,
  },
  {
    name: 'nodes',
    title: 'Media tree: children pages and searches among 1M nodes',
    run: runNodesBenchmark,
  },
];

// `npm run bench` runs them all; `npm run bench -- api-read longpoll` runs the ones named.
const names = process.argv.slice(2);
const unknown = names.filter((name) => !benchmarks.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark ${unknown.join(', ')}; known: ${benchmarks.map((b) => b.name).join(', ')}`,
  );
  process.exit(2);
}

const failures: string[] = [];
for (const benchmark of benchmarks.filter((b) => names.length === 0 || names.includes(b.name))) {
  console.log(`\n=== ${benchmark.title} ===\n`);
  try {
    await benchmark.run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof BenchmarkFailure)) console.error(error);
    console.error(`\nFAILED: ${benchmark.name}: ${message}`);
    failures.push(benchmark.name);
  }
}

if (failures.length > 0) console.error(`\n${failures.length} benchmark(s) failed: ${failures.join(', ')}`);
// Exit even if a library left a timer or socket behind.
process.exit(failures.length > 0 ? 1 : 0);

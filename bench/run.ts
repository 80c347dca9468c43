import { runApiReadBenchmark } from './api-read.ts';
import { runLongPollBenchmark } from './longpoll.ts';
import { runWebSizeBenchmark } from './web-size.ts';

const benchmarks: [string, () => Promise<void>][] = [
  ['Web: JavaScript of the sign-in page plus shell', runWebSizeBenchmark],
  ['API read: /api/me and a list route against a bare Fastify route', runApiReadBenchmark],
  ['Live updates: one change to 2,000 long-pollers', runLongPollBenchmark],
];

for (const [title, run] of benchmarks) {
  console.log(`\n=== ${title} ===\n`);
  await run();
}

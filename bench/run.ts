import { runApiReadBenchmark } from './api-read.ts';

const benchmarks: [string, () => Promise<void>][] = [
  ['API read: /api/me and a list route against a bare Fastify route', runApiReadBenchmark],
];

for (const [title, run] of benchmarks) {
  console.log(`\n=== ${title} ===\n`);
  await run();
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION_HEADER, API_VERSIONS } from '@media/contract';
import { makeAccount } from '../apps/server/src/seed/factories.ts';
import { BenchmarkFailure } from './failure.ts';
import { quantile, withBenchServer } from './server-bench.ts';

/** Issue 33: a change's first delivery attempt reaches its receiver within this, at p95. */
const P95_BUDGET_MS = 2000;
const CHANGES_PER_SECOND = 50;
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
const CHANGES = CHANGES_PER_SECOND * SECONDS;

/**
 * Webhooks under load: CHANGES_PER_SECOND folders created a second for SECONDS through the API, a cloud
 * webhook that wants node.created, and a receiver on 127.0.0.1 noting when each first arrives; the time
 * from each change's request to its delivery's first arrival, at p50, p95 and max.
 */
const runOn = (driver: 'pglite' | 'postgres') =>
  withBenchServer(driver, 'webhooks', async ({ ctx, start }) => {
    // The receiver listens on loopback, as a single-box trial's would (OUTBOUND_ALLOW_LOOPBACK=1).
    ctx.config.outbound.allowLoopback = true;
    const account = await makeAccount(ctx.db, { name: 'bench-hooks' });
    const arrived = new Map<string, number>();
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const payload = JSON.parse(Buffer.concat(chunks).toString()) as { data: { node?: { name: string } } };
        const name = payload.data.node?.name;
        if (name && !arrived.has(name)) arrived.set(name, performance.now());
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const { app, cookie } = await start();
      const csrf = /csrftoken=([^;]+)/.exec(cookie)?.[1] ?? '';
      const post = (url: string, payload: object) =>
        app.inject({
          method: 'POST',
          url,
          headers: {
            cookie,
            'x-csrftoken': csrf,
            [API_VERSION_HEADER]: API_VERSIONS.supported[0] as string,
          },
          payload,
        });
      const { port } = receiver.address() as AddressInfo;
      const hook = await post('/api/webhooks', {
        url: `http://127.0.0.1:${port}/hook`,
        events: ['node.created'],
      });
      if (hook.statusCode !== 200) throw new BenchmarkFailure(`the webhook was refused: ${hook.body}`);
      const launched = await post(`/api/accounts/${account.id}/launch`, {});
      if (launched.statusCode !== 200) throw new BenchmarkFailure(`launch failed: ${launched.body}`);

      const sentAt = new Map<string, number>();
      const began = performance.now();
      const changes: Promise<void>[] = [];
      for (let i = 0; i < CHANGES; i++) {
        // Paced: change i starts at i / CHANGES_PER_SECOND seconds.
        const due = began + (i * 1000) / CHANGES_PER_SECOND;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const name = `Folder ${i}`;
        sentAt.set(name, performance.now());
        changes.push(
          post('/api/nodes', { parentPath: `/${account.name}`, name, type: 'folder' }).then((answer) => {
            if (answer.statusCode !== 200) throw new BenchmarkFailure(`a change failed: ${answer.body}`);
          }),
        );
      }
      await Promise.all(changes);
      const deadline = Date.now() + 60_000;
      while (arrived.size < CHANGES && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const delays = [...sentAt]
        .map(([name, at]) => (arrived.get(name) ?? Number.POSITIVE_INFINITY) - at)
        .sort((a, b) => a - b);
      const p95 = quantile(delays, 0.95);
      const label = driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
      console.log(
        `${label}: ${CHANGES} changes at ${CHANGES_PER_SECOND}/s, ${arrived.size} delivered; first attempt after the change: p50 ${quantile(delays, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms (budget ${P95_BUDGET_MS} ms), max ${delays.at(-1)?.toFixed(0)} ms`,
      );
      return { driver: label, p95, delivered: arrived.size };
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

export const runWebhooksBenchmark = async () => {
  const results = [await runOn('pglite')];
  if (process.env.DATABASE_URL) results.push(await runOn('postgres'));
  else console.log('PostgreSQL: skipped (set DATABASE_URL)');
  const below = results.flatMap((result) => [
    ...(result.delivered < CHANGES ? [`${result.driver}: ${CHANGES - result.delivered} not delivered`] : []),
    ...(result.p95 > P95_BUDGET_MS
      ? [`${result.driver}: p95 ${result.p95.toFixed(0)} ms > ${P95_BUDGET_MS} ms`]
      : []),
  ]);
  if (below.length > 0) throw new BenchmarkFailure(below.join('; '));
  console.log('\nPASS');
};

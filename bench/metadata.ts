import type { AddressInfo } from 'node:net';
import { MEDIA_UPDATE_API_VERSION } from '@media/contract';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import * as columnsRepo from '../apps/server/src/modules/config/repo.ts';
import type { AppContext } from '../apps/server/src/platform/context.ts';
import { BenchmarkFailure } from './failure.ts';
import { withBenchServer } from './server-bench.ts';

/** spec1 §7 metadata export and import of this many media nodes. */
const ROWS = Number(process.env.BENCH_METADATA_ROWS ?? 100_000);
/** The issue's goal on PostgreSQL for each of export, dry run and import. */
const BUDGET_S = 2;

const seed = async (ctx: AppContext) => {
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
  await ctx.db.execute(sql`insert into resellers (name) values ('Metadata reseller')`);
  await ctx.db.execute(
    sql`insert into site_groups (name, reseller_id) select 'Metadata group', id from resellers where name = 'Metadata reseller'`,
  );
  await ctx.db.execute(
    sql`insert into sites (name, site_group_id) select 'Metadata site', id from site_groups where name = 'Metadata group'`,
  );
  const [account] = await rows<{ id: number }>(
    sql`insert into accounts (name, site_id) select 'bench-metadata', id from sites where name = 'Metadata site' returning id`,
  );
  const accountId = account?.id as number;
  await ctx.db.execute(
    sql`insert into nodes (account_id, path, name, type) values (${accountId}, '/', 'bench-metadata', 'folder')`,
  );
  await ctx.db.execute(sql`insert into nodes (account_id, parent_id, path, name, type)
    select ${accountId}, id, '/Rushes', 'Rushes', 'folder' from nodes where account_id = ${accountId} and path = '/'`);
  await ctx.db.execute(sql`insert into nodes (account_id, parent_id, path, name, type, metadata)
    select ${accountId}, f.id, '/Rushes/Clip ' || lpad(g::text, 6, '0'), 'Clip ' || lpad(g::text, 6, '0'), 'source',
      jsonb_build_object('reel', 'R' || g, 'tape', 'T' || (g % 97), '_IMPORTDISKLAB', 'Disk ' || (g % 13),
        'filename', 'A' || g || '.mov')
    from generate_series(1, ${ROWS}) g cross join (select id from nodes where account_id = ${accountId} and path = '/Rushes') f`);
  await ctx.db.execute(sql`analyze nodes`);
  const column = (displayName: string, internalName: string, editable: boolean) => ({
    displayName,
    internalName,
    hidden: false,
    searchable: true,
    editable,
  });
  await columnsRepo.saveColumnSet(ctx.db, { scope: 'account', scopeId: accountId }, 'file', {
    columns: [
      column('Disk label', '_IMPORTDISKLAB', false),
      column('Reel', 'reel', true),
      column('Tape', 'tape', true),
    ],
    autoInherit: false,
  });
  return accountId;
};

/** The process's peak resident memory while `work` runs, sampled every 20 ms, above what it was before. */
const peakMemory = async <T>(work: () => Promise<T>) => {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, seconds: (performance.now() - started) / 1000, peakMb: (peak - before) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
};

const runOn = (driver: 'pglite' | 'postgres') =>
  withBenchServer(driver, 'metadata', async ({ ctx, start }) => {
    const seeding = performance.now();
    const accountId = await seed(ctx);
    console.log(
      `${driver}: seeded ${ROWS.toLocaleString('en-GB')} media nodes in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const { app, cookie } = await start();
    // A real socket: the export is read as a stream, as a browser downloads it.
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const csrf = /csrftoken=([^;]+)/.exec(cookie)?.[1] ?? '';
    const lines: string[] = [];

    const download = async (format: 'csv' | 'xlsx') => {
      const response = await fetch(`${base}/api/media?format=${format}&accountId=${accountId}&metadata=`, {
        headers: { cookie },
      });
      if (response.status !== 200 || !response.body)
        throw new BenchmarkFailure(`export answered ${response.status}: ${await response.text()}`);
      let bytes = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) {
        bytes += chunk.length;
        if (format === 'csv') chunks.push(Buffer.from(chunk));
      }
      return { bytes, text: Buffer.concat(chunks).toString('utf8') };
    };
    const send = async (csv: string, dryRun: boolean) => {
      const response = await fetch(
        `${base}/api/mediaUpdate?format=json&accountId=${accountId}&dryRun=${dryRun}`,
        {
          method: 'POST',
          headers: {
            cookie,
            'x-csrftoken': csrf,
            'content-type': 'text/csv',
            'x-api-version': MEDIA_UPDATE_API_VERSION,
          },
          body: csv,
        },
      );
      const body = (await response.json()) as { results: { status: string; summary: { changes: number } } };
      if (response.status !== 200)
        throw new BenchmarkFailure(`import answered ${response.status}: ${JSON.stringify(body)}`);
      return body.results;
    };

    let failed = false;
    const report = (label: string, seconds: number, peakMb: number, detail: string) => {
      const pass = seconds < BUDGET_S;
      if (driver === 'postgres') failed ||= !pass;
      lines.push(
        `  ${label.padEnd(26)} ${seconds.toFixed(2).padStart(6)} s  ${Math.round(ROWS / seconds)
          .toLocaleString('en-GB')
          .padStart(
            9,
          )} rows/s  peak +${peakMb.toFixed(0)} MB  ${detail}${driver === 'postgres' ? (pass ? '  ok' : `  OVER ${BUDGET_S} s`) : ''}`,
      );
    };

    await download('csv'); // warm-up
    const csv = await peakMemory(() => download('csv'));
    report('export csv', csv.seconds, csv.peakMb, `${(csv.result.bytes / 2 ** 20).toFixed(1)} MB`);
    const xlsx = await peakMemory(() => download('xlsx'));
    report('export xlsx', xlsx.seconds, xlsx.peakMb, `${(xlsx.result.bytes / 2 ** 20).toFixed(1)} MB`);

    const rows = Papa.parse<string[]>(csv.result.text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    const reel = rows[0]?.indexOf('Reel') ?? -1;
    for (const row of rows.slice(1)) row[reel] = `${row[reel]} edited`;
    const edited = Papa.unparse(rows);
    const dry = await peakMemory(() => send(edited, true));
    report(
      'import dry run',
      dry.seconds,
      dry.peakMb,
      `${dry.result.status}, ${dry.result.summary.changes} changes`,
    );
    const done = await peakMemory(() => send(edited, false));
    report(
      'import',
      done.seconds,
      done.peakMb,
      `${done.result.status}, ${done.result.summary.changes} changes`,
    );
    if (done.result.summary.changes !== ROWS)
      throw new BenchmarkFailure(`the import changed ${done.result.summary.changes} fields, not ${ROWS}`);
    console.log(lines.join('\n'));
    return failed;
  });

export const runMetadataBenchmark = async () => {
  const drivers: ('pglite' | 'postgres')[] = process.env.DATABASE_URL
    ? process.env.BENCH_DRIVER === 'postgres'
      ? ['postgres']
      : ['pglite', 'postgres']
    : ['pglite'];
  const over: string[] = [];
  for (const driver of drivers) if (await runOn(driver)) over.push(driver);
  if (!process.env.DATABASE_URL) console.log('  (DATABASE_URL unset: the PostgreSQL goal was not measured)');
  if (over.length)
    throw new BenchmarkFailure(`metadata export or import over ${BUDGET_S} s on ${over.join(', ')}`);
};

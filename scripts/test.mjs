// `npm test`: every test — contract unit/property tests, server integration tests on PGlite and (when
// DATABASE_URL is set) on PostgreSQL, then the e2e tests in Chromium. Each part says what it runs on.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** Seconds of each part, printed at the end (and handed to .ci/run's table through TEST_TIMINGS_FILE). */
const timings = [];
const printTimings = () => {
  const lines = timings.map(([title, seconds]) => `${title.padEnd(60)} ${String(seconds).padStart(6)} s`);
  console.log(`\nTest phases:\n${lines.map((line) => `  ${line}`).join('\n')}`);
  if (process.env.TEST_TIMINGS_FILE)
    fs.appendFileSync(process.env.TEST_TIMINGS_FILE, `${lines.join('\n')}\n`);
};
const run = (title, command, args, env = {}) => {
  console.log(`\n=== ${title} ===\n`);
  const began = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push([title, Math.round((Date.now() - began) / 1000)]);
  if (result.status !== 0) {
    console.error(`\n${title}: FAILED`);
    printTimings();
    process.exit(result.status ?? 1);
  }
};

run('Unit and property tests (packages/contract, packages/media-tools, apps/web, apps/edge-agent)', 'npx', [
  'vitest',
  'run',
  '--project',
  'contract',
  '--project',
  'media-tools',
  '--project',
  'web',
  '--project',
  'edge-agent',
  '--passWithNoTests',
]);
/**
 * Server test files about media and processes (ffmpeg, edge agents, servers restarted), whose statements the
 * other files run too: on PGlite only. The PostgreSQL run is for what the driver changes (SQL, pools,
 * LISTEN/NOTIFY, the job queue, instances), and the SQL coverage check below shows that it still sends every
 * statement these files sent on PGlite (a file whose statements no other file sends stays in both runs).
 * TEST_PG_ALL=1 runs every file on PostgreSQL too.
 */
const PGLITE_ONLY = [
  'agent-ingest-settings',
  'agent-source-buckets',
  'agent-source-smb',
  'clip-render',
  'publish-destinations-sftp',
  'publish-restart',
].map((name) => `apps/server/test/${name}.test.ts`);
const allOnPostgres = process.env.TEST_PG_ALL === '1';
for (const file of PGLITE_ONLY)
  if (!fs.existsSync(path.join(root, file)))
    throw new Error(`${file} (PGLITE_ONLY in scripts/test.mjs) is gone`);
/** The statements each server run sent (sql-coverage.ts), compared when both ran. */
const sqlCoverage = fs.mkdtempSync(path.join(os.tmpdir(), 'sql-coverage-'));
process.on('exit', () => fs.rmSync(sqlCoverage, { recursive: true, force: true }));

run('Integration tests on PGlite (embedded)', 'npx', ['vitest', 'run', '--project', 'server*'], {
  TEST_DB: 'pglite',
  SQL_COVERAGE_DIR: path.join(sqlCoverage, 'pglite'),
});
/**
 * Parts run at the same time, each into its own log, printed whole when it ends: the e2e files mostly wait
 * on Chromium and their servers, so they share the machine with the PostgreSQL run well (issue 31: CI under
 * 30 minutes on two cores). TEST_SERIAL=1 runs them one after the other.
 */
const runTogether = async (parts) => {
  if (process.env.TEST_SERIAL === '1') {
    for (const part of parts) run(part.title, part.command, part.args, part.env);
    return;
  }
  console.log(`\n=== At the same time: ${parts.map((part) => part.title).join('; ')} ===\n`);
  const ended = await Promise.all(
    parts.map(
      (part) =>
        new Promise((resolve) => {
          const began = Date.now();
          const log = path.join(os.tmpdir(), `npm-test-${process.pid}-${parts.indexOf(part)}.log`);
          const out = fs.openSync(log, 'w');
          const child = spawn(part.command, part.args, {
            cwd: root,
            stdio: ['ignore', out, out],
            env: { ...process.env, ...part.env },
          });
          child.on('close', (code) => {
            fs.closeSync(out);
            timings.push([part.title, Math.round((Date.now() - began) / 1000)]);
            console.log(`\n=== ${part.title} (${code === 0 ? 'passed' : 'FAILED'}) ===\n`);
            const output = fs.readFileSync(log, 'utf8');
            process.stdout.write(output);
            fs.rmSync(log, { force: true });
            resolve({ part, code, output });
          });
        }),
    ),
  );
  const failed = ended.filter(({ code }) => code !== 0);
  if (failed.length > 0) {
    for (const { part, output } of failed) console.error(`\n${part.title}: FAILED${failureSummary(output)}`);
    printTimings();
    process.exit(1);
  }
};

/**
 * A failed part's "Failed Tests" section, repeated after every log: a CI report that keeps only the end of
 * the output (the e2e log, printed last) still says which test failed and why.
 */
const failureSummary = (output) => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes vitest writes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const start = plain.indexOf('Failed Tests');
  if (start < 0) return '';
  const lines = plain.slice(start).split('\n');
  const shown = lines.slice(0, 60);
  return `\n${shown.join('\n')}${lines.length > shown.length ? '\n  [… the rest is in the log above]' : ''}`;
};

const e2e = { title: 'End-to-end tests in Chromium', command: 'node', args: ['scripts/e2e.mjs'], env: {} };
if (process.env.DATABASE_URL) {
  await runTogether([
    {
      title: `Integration tests on PostgreSQL (${new URL(process.env.DATABASE_URL).host}${allOnPostgres ? '' : `; not the ${PGLITE_ONLY.length} files about media and processes`})`,
      command: 'npx',
      args: [
        'vitest',
        'run',
        '--project',
        'server*',
        ...(allOnPostgres ? [] : PGLITE_ONLY.map((file) => `--exclude=${file}`)),
      ],
      env: { TEST_DB: 'postgres', SQL_COVERAGE_DIR: path.join(sqlCoverage, 'postgres') },
    },
    e2e,
  ]);
  if (!allOnPostgres)
    run('Every statement of the files run on PGlite only also ran on PostgreSQL', 'node', [
      'scripts/sql-coverage.mjs',
      path.join(sqlCoverage, 'pglite'),
      path.join(sqlCoverage, 'postgres'),
      ...PGLITE_ONLY.map((file) => path.basename(file)),
    ]);
} else {
  console.log('\n=== Integration tests on PostgreSQL: skipped (set DATABASE_URL to run them) ===');
  run(e2e.title, e2e.command, e2e.args);
}
printTimings();
console.log('\nAll tests passed.');

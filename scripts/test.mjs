// `npm test`: every test — contract unit/property tests, server integration tests on PGlite and (when
// DATABASE_URL is set) on PostgreSQL, then the e2e tests in Chromium. Each part says what it runs on.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const run = (title, command, args, env = {}) => {
  console.log(`\n=== ${title} ===\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n${title}: FAILED`);
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
run('Integration tests on PGlite (embedded)', 'npx', ['vitest', 'run', '--project', 'server'], {
  TEST_DB: 'pglite',
});
if (process.env.DATABASE_URL) {
  run(
    `Integration tests on PostgreSQL (${new URL(process.env.DATABASE_URL).host})`,
    'npx',
    ['vitest', 'run', '--project', 'server'],
    {
      TEST_DB: 'postgres',
    },
  );
} else {
  console.log('\n=== Integration tests on PostgreSQL: skipped (set DATABASE_URL to run them) ===');
}
run('End-to-end tests in Chromium', 'node', ['scripts/e2e.mjs']);
console.log('\nAll tests passed.');

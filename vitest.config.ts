import { defineConfig } from 'vitest/config';

/**
 * Test files side by side. Vitest's default is one worker fewer than the cores: one on a two-core CI machine,
 * where the server files mostly wait (on PGlite, ffmpeg, timers): three took the server suite from 24 to 7
 * minutes there. TEST_WORKERS overrides it.
 */
const workers = Number(process.env.TEST_WORKERS) || 3;

/** Server test files that replace a module (vi.mock): a module another file loaded first cannot be replaced. */
const MOCKING_SERVER_TESTS = [
  'apps/server/test/auth-lockout.test.ts',
  'apps/server/test/sign-in-timing.test.ts',
];

const serverTests = {
  include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
  // A test with a second factor waits for the next TOTP step (up to 30 s), and a fresh PGlite takes
  // seconds to open on a busy machine: 30 s failed such tests now and then.
  testTimeout: 90000,
  hookTimeout: 90000,
  pool: 'forks' as const,
  // Initdb and the migrations once; each file's database is loaded from that dump.
  globalSetup: ['apps/server/test/pglite-template.ts'],
  // Names the file whose statements SQL_COVERAGE_DIR records (scripts/sql-coverage.mjs).
  setupFiles: ['apps/server/test/sql-coverage-source.ts'],
};

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      {
        test: { name: 'media-tools', include: ['packages/media-tools/src/**/*.test.ts'], testTimeout: 60000 },
      },
      // One process per worker for all its files (isolate: false): each file loading the server's modules anew
      // took ~5 s of a two-core machine, 1,006 -> 763 s for the PGlite run (2026-11-29).
      { test: { ...serverTests, name: 'server', isolate: false, exclude: MOCKING_SERVER_TESTS } },
      { test: { ...serverTests, name: 'server-mocking', include: MOCKING_SERVER_TESTS } },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'edge-agent', include: ['apps/edge-agent/src/**/*.test.ts'], testTimeout: 30000 } },
    ],
  },
});

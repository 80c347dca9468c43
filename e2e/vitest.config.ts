import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/tests/**/*.e2e.test.ts'],
    // A migrated DATA_DIR made once, copied by each file's server.
    globalSetup: ['e2e/data-template.ts'],
    // A flow of a few pages takes 10–30 s alone and twice that on a loaded two-core CI machine (media timed
    // out at 60 s on 2026-11-29).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file has its own server (port, data directory) and Chromium: files run side by side. Vitest's
    // default is one worker fewer than the cores (one, on a two-core CI machine); three took the e2e files
    // from 1,499 s (two) to 1,178 s there (2026-11-29).
    maxWorkers: Number(process.env.E2E_WORKERS) || 3,
    // A page's answer to a click can take seconds on a loaded two-core CI machine; 1 s (the default) flakes.
    expect: { poll: { timeout: 10_000 } },
  },
});

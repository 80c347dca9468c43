import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/tests/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file has its own server (port, data directory) and Chromium: files run side by side. Vitest's
    // default is one worker fewer than the cores (one, on a two-core CI machine), while a file mostly waits.
    maxWorkers: Number(process.env.E2E_WORKERS) || 2,
    // A page's answer to a click can take seconds on a loaded two-core CI machine; 1 s (the default) flakes.
    expect: { poll: { timeout: 10_000 } },
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/tests/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A page's answer to a click can take seconds on a loaded two-core CI machine; 1 s (the default) flakes.
    expect: { poll: { timeout: 10_000 } },
  },
});

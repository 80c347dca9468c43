import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      {
        test: { name: 'media-tools', include: ['packages/media-tools/src/**/*.test.ts'], testTimeout: 60000 },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          // A test with a second factor waits for the next TOTP step (up to 30 s), and a fresh PGlite takes
          // seconds to open on a busy machine: 30 s failed such tests now and then.
          testTimeout: 90000,
          hookTimeout: 90000,
          pool: 'forks',
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'edge-agent', include: ['apps/edge-agent/src/**/*.test.ts'], testTimeout: 30000 } },
    ],
  },
});

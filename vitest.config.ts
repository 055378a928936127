import { defineConfig } from 'vitest/config';

// Two projects: fast pure/unit tests, and integration tests (real HTTP, real Chromium) that share
// one real build per interface shape, made once by the integration project's global setup.
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/contract/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['./test/support/build-dists.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
        },
      },
    ],
  },
});

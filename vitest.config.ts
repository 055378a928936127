import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { UnitFirst } from './test/support/unit-first.ts';

// Projects: fast pure/unit tests; integration tests (real HTTP against the local server, real
// Chromium) sharing one real build per interface shape; and the same contract tests answered by
// Cloudflare's runtime (wrangler pages dev) over the same builds.
export default defineConfig({
  test: {
    // One test file per core, and at least two: vitest's default (cores - 1) runs the suite one file
    // at a time on a 2-core machine, while the contract and browser tests spend much of their time
    // waiting on a server, wrangler or Chromium.
    maxWorkers: Math.max(2, availableParallelism()),
    // Closing removes both real builds (some 19,000 files) and stops the wrangler runtimes: more
    // than vitest's default 10 s on a busy 2-core machine.
    teardownTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // The unit files first: they run while the global setup builds (test/support/build-dists.ts).
    sequence: { sequencer: UnitFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Reads the real sources through the parsed-source cache the builds fill: it waits for them.
          exclude: ['test/unit/**/*.integration.test.ts'],
          testTimeout: 60_000,
          pool: 'forks',
          // The unit files share their worker processes (no global, environment or working folder
          // is changed by any of them), so a file does not pay a process start and the model's
          // imports again.
          isolate: false,
        },
      },
      {
        test: {
          // Tests that start processes or servers (npm start, the build CLI, the fetch against
          // stand-in publishers) on fixtures: they need no real build, so they run beside the unit
          // files while the global setup builds.
          name: 'spawn',
          include: ['test/spawn/**/*.test.ts'],
          testTimeout: 60_000,
          // Their afterAll stops process groups and removes copies of the repository and built
          // trees: more than vitest's default 10 s on a busy machine.
          hookTimeout: 60_000,
          pool: 'forks',
          // As the unit files: none changes a global, the environment or the working folder.
          isolate: false,
        },
      },
      {
        test: {
          name: 'cloudflare',
          include: ['test/contract/**/*.test.ts'],
          // Two files at a time, each worker process running file after file (below), all sharing
          // the two runtimes and one local D1: each votes on occupations and as clients of its
          // own, a runtime starts while no other does (startWrangler), and a GET that wrangler
          // resets is sent again (test/contract/setup.ts).
          maxWorkers: 2,
          globalSetup: ['./test/support/cloudflare-sites.ts'],
          setupFiles: ['./test/support/dists-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // Its files one after the other in one process, as the integration project's share theirs
          // (see there); vitest then needs this project in a group of its own, after the others.
          // No test cancels a body through wrangler: that hangs the runtime, shared or not.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/contract/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/unit/**/*.integration.test.ts'],
          globalSetup: ['./test/support/build-dists.ts'],
          // Each file waits for the global setup's builds, which run while the unit files do.
          setupFiles: ['./test/support/dists-ready.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          pool: 'forks',
          // A worker process runs file after file: each file still starts and stops its own
          // servers, browser and databases (no test file relies on a fresh process), without
          // paying a process start and the harness's imports each time.
          isolate: false,
        },
      },
    ],
  },
});

// vitest's order of test files (longest first, from its last run), but the unit and spawn
// projects' first: they need no real build, so they run while the global setup's builds do
// (build-dists.ts), and the files that wait for those builds come after them, the browser tests
// (test/e2e) first of those.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The projects whose files need no real build. */
const WITHOUT_BUILD = new Set(['unit', 'spawn']);

/**
 * The browser tests are the longest of the files that wait for the builds (a minute or more each
 * on a 2-core machine, the contract files seconds). Without durations of an earlier run (a fresh
 * clone) vitest orders a project's files largest first, and several browser test files are a few
 * lines over a shared module: they started last, and the run ended with one of them alone on one
 * core. Longest first leaves the short files to even out the end.
 */
const isBrowserTest = (s: TestSpecification) => /[\\/]test[\\/]e2e[\\/]/.test(s.moduleId);

export class UnitFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (s: TestSpecification) => (WITHOUT_BUILD.has(s.project.name) ? 0 : isBrowserTest(s) ? 1 : 2);
    // Array.prototype.sort is stable: within each rank, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

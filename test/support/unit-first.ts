// vitest's order of test files (longest first, from its last run), but the unit and spawn
// projects' first: they need no real build, so they run while the global setup's builds do
// (build-dists.ts), and the files that wait for those builds come after them.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The projects whose files need no real build. */
const WITHOUT_BUILD = new Set(['unit', 'spawn']);

export class UnitFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (s: TestSpecification) => (WITHOUT_BUILD.has(s.project.name) ? 0 : 1);
    // Array.prototype.sort is stable: within each rank, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Prints one plain closing line ("N passed, N failed, N skipped") after vitest's own summary,
// the form CI reads to tell a run that tested something from one that ran no test.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of modules) {
      // A module that failed to load has no test cases; count it as a failure so it is not hidden.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed += 1;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

// A build that found problems: every one of them, reported at once.
export class BuildError extends Error {
  constructor(readonly problems: string[]) {
    super(`build failed with ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
  }
}

// A build that found problems: every one of them, reported at once.
export class BuildError extends Error {
  /** `heading`: what failed, when not "build failed with N problem(s)". */
  constructor(
    readonly problems: string[],
    heading = `build failed with ${problems.length} problem(s)`,
  ) {
    super(`${heading}:\n  - ${problems.join('\n  - ')}`);
  }
}

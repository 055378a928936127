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

/** The failure of a --strict build with rejected rows: each row by file:line and why. */
export function strictError(rows: ReadonlyArray<{ file: string; line: number; reason: string }>): BuildError {
  return new BuildError(
    rows.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    `build failed (--strict): ${rows.length} source row(s) rejected; nothing was written`,
  );
}

// A source problem the build cannot work around (missing folder, missing required file, a header
// without the columns we need). Row-level problems are never thrown: they go to the report.

/** How to get the data; appended to every error about missing sources. */
export const HOW_TO_GET_DATA =
  'Get the data with `npm run data:fetch` (downloads the official files into data/raw/), ' +
  'or set ODR_SOURCE_DIR / pass --source DIR pointing at a folder that holds the official files.';

export class SourceError extends Error {
  override readonly name = 'SourceError';
  /** Relative path or official file name the error is about, when there is one. */
  readonly file: string | null;
  /** The problems an error about several files lists, each on its own (a list of lists is told as one list). */
  readonly problems: readonly string[];

  constructor(message: string, file: string | null = null, problems: readonly string[] = [message]) {
    super(message);
    this.file = file;
    this.problems = problems;
  }
}

/** One error for several problems: one line each, under a line saying how many. */
export function sourceProblems(problems: readonly string[]): SourceError {
  return problems.length === 1
    ? new SourceError(problems[0]!)
    : new SourceError(`${problems.length} source file problems:\n- ${problems.join('\n- ')}`, null, problems);
}

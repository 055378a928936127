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

  constructor(message: string, file: string | null = null) {
    super(message);
    this.file = file;
  }
}

// Validating the rows of one file: header check (fatal), then every row through its zod schema;
// a failing row is rejected with its line and reason and counted, never thrown. Then the key check
// every keyed table goes through (uniqueRows): a key repeated with other values stops the build,
// naming both lines; an exact repeat is dropped and counted.
import type { z } from 'zod';
import type { SourceFileReport, SourceProblem } from './report.ts';
import { SourceError } from './errors.ts';
import { rowRecord, type Table } from './table.ts';

/** Collects the outcome of one file for the report. */
export class FileLog {
  rows = 0;
  kept = 0;
  rejected = 0;
  /** Exact repeats of an earlier row (same key, same values), dropped. */
  repeats = 0;
  /** The line of the last data row read (0: none): where a file cut short at a line end ends. */
  lastLine = 0;
  readonly notes: string[] = [];
  readonly problems: SourceProblem[] = [];

  constructor(
    /** Official file name, e.g. "Task Statements.txt". */
    readonly file: string,
    /** Path relative to the source directory. */
    readonly path: string,
  ) {}

  /** `about`: the occupation the row is about (its code and, when the row has one, title), so the build can name what it lost. */
  reject(line: number, reason: string, about?: { code: string; title?: string }): void {
    this.rejected++;
    const code = about?.code.trim();
    const title = about?.title?.trim();
    this.problems.push({ file: this.path, line, reason, ...(code ? { code } : {}), ...(title ? { title } : {}) });
  }

  note(text: string): void {
    this.notes.push(text);
  }

  /** Where the next note goes: for noteAt, when a note is known only after later ones were written. */
  notePlace(): number {
    return this.notes.length;
  }

  /** A note put at a place taken earlier, before the notes written since. */
  noteAt(place: number, text: string): void {
    this.notes.splice(place, 0, text);
  }

  /** Takes in what a parse job (maybe on another thread) logged for this file. */
  absorb(job: Pick<FileLog, 'rows' | 'kept' | 'rejected' | 'repeats' | 'lastLine' | 'notes' | 'problems'>): void {
    this.rows += job.rows;
    this.lastLine = Math.max(this.lastLine, job.lastLine);
    this.kept += job.kept;
    this.rejected += job.rejected;
    this.repeats += job.repeats;
    this.notes.push(...job.notes);
    this.problems.push(...job.problems);
  }

  toReport(): SourceFileReport {
    return {
      file: this.file,
      path: this.path,
      rows: this.rows,
      kept: this.kept,
      rejected: this.rejected,
      repeats: this.repeats,
      notes: [...this.notes],
    };
  }
}

export function requireColumns(table: Table, columns: string[], log: FileLog): void {
  const missing = columns.filter((c) => !table.header.includes(c));
  if (missing.length === 0) return;
  throw new SourceError(
    `${log.path}: header lacks required column(s) ${missing.map((c) => `"${c}"`).join(', ')}; ` +
      `expected the official ${log.file} columns, found: ${table.header.map((c) => `"${c}"`).join(', ') || '(no header)'}`,
    log.path,
  );
}

function describeIssues(error: z.ZodError, record: Record<string, string>): string {
  return error.issues
    .map((issue) => {
      const column = issue.path.length > 0 ? String(issue.path[0]) : '';
      if (!column) return issue.message;
      // A column name of the file, or (for checks after the transform) a bundle field whose
      // value the issue carries (reportInput).
      const raw = column in record ? record[column] : 'input' in issue ? issue.input : undefined;
      const text = typeof raw === 'string' ? raw : raw === undefined ? undefined : JSON.stringify(raw);
      const shown = text === undefined ? '' : ` (got "${text.length > 40 ? `${text.slice(0, 40)}...` : text}")`;
      return `${column}: ${issue.message}${shown}`;
    })
    .join('; ');
}

export interface ParsedRow<T> {
  line: number;
  value: T;
}

/**
 * The fields of a parsed row that identify it in its file (the table's key): no two rows of a file
 * may share them. An OEWS national file, for one, repeats a code as broad and detailed group: its
 * key is code and group.
 */
export type RowKey<T> = ReadonlyArray<keyof T & string>;

export interface RowOptions<T> {
  /** Drops a valid-looking row on purpose (a filter, not an error); returns the reason counted in the notes. */
  skip?: (record: Record<string, string>) => string | null;
  /** The table's key (see uniqueRows). */
  key?: RowKey<T>;
  /** Columns naming the occupation a row is about: a rejected row carries them, so the build can say which occupation lost data. */
  occupation?: { code: string; title?: string };
}

/**
 * Runs every row through `schema` (input: column -> trimmed cell), then checks the key
 * (uniqueRows) when `key` is given. `rows` counts data rows read, `kept` the rows returned;
 * rejected rows go to the log.
 */
export function parseRows<T>(
  table: Table,
  log: FileLog,
  columns: string[],
  schema: z.ZodType<T, Record<string, string>>,
  opts: RowOptions<T> = {},
): Array<ParsedRow<T>> {
  requireColumns(table, columns, log);
  const { skip, key, occupation } = opts;
  let out: Array<ParsedRow<T>> = [];
  const skipped = new Map<string, number>();
  for (const row of table.rows) {
    log.rows++;
    log.lastLine = row.line;
    const record = rowRecord(table.header, row.cells);
    // A row with fewer fields than the header lost its end (its cells would read as blanks).
    if (row.cells.length < table.header.length) {
      log.reject(row.line, `${row.cells.length} of the header's ${table.header.length} fields: the row is cut short`, aboutRow(record, occupation));
      continue;
    }
    const why = skip?.(record) ?? null;
    if (why !== null) {
      skipped.set(why, (skipped.get(why) ?? 0) + 1);
      continue;
    }
    // reportInput (the rejected value in the message) turns off zod's compiled fast path and made
    // every row much slower: only a failing row is parsed again with it, for the message.
    const result = schema.safeParse(record);
    if (result.success) {
      out.push({ line: row.line, value: result.data });
    } else {
      const described = schema.safeParse(record, { reportInput: true });
      log.reject(row.line, describeIssues(described.success ? result.error : described.error, record), aboutRow(record, occupation));
    }
  }
  if (table.noteRows > 0) log.note(`${table.noteRows} title/footnote rows skipped`); // known once the rows are read
  for (const [why, count] of skipped) log.note(`${count} rows skipped: ${why}`);
  if (key) out = uniqueRows(out, key, log);
  log.kept += out.length;
  return out;
}

/** The occupation a row names, for a rejection. */
const aboutRow = (record: Record<string, string>, occupation: RowOptions<unknown>['occupation']) =>
  occupation && record[occupation.code] ? { code: record[occupation.code]!, ...(occupation.title && record[occupation.title] ? { title: record[occupation.title] } : {}) } : undefined;

/** Conflicts named in the error; the count says how many more there are. */
const SHOWN_CONFLICTS = 10;

/**
 * The one key check of every keyed source table. A row whose key an earlier row of the file
 * already has: when every value the loader read is the same, an exact repeat, dropped and counted
 * (log.repeats, and a note naming its line); when any differs, the build cannot know which row is
 * right, so it stops (SourceError) naming both file:line and what differs. Does not touch
 * log.kept: callers count what they return.
 */
export function uniqueRows<T>(rows: ReadonlyArray<ParsedRow<T>>, key: RowKey<T>, log: FileLog): Array<ParsedRow<T>> {
  const first = new Map<string, number>();
  const out: Array<ParsedRow<T>> = [];
  const repeatedAt: number[] = [];
  const conflicts: string[] = [];
  for (const row of rows) {
    const k = key.length === 1 ? String(row.value[key[0]!]) : key.map((f) => String(row.value[f])).join('\u0000');
    const at = first.get(k);
    if (at === undefined) {
      first.set(k, out.length);
      out.push(row);
      continue;
    }
    const earlier = out[at]!;
    const differs = differingFields(earlier.value, row.value);
    if (differs.length === 0) {
      repeatedAt.push(row.line);
      continue;
    }
    conflicts.push(
      `${log.path}:${earlier.line} and ${log.path}:${row.line} have the same ${key.map((f) => `${f} ${show(row.value[f])}`).join(', ')} ` +
        `but different values: ${differs.map((f) => `${f} ${show(earlier.value[f])} (line ${earlier.line}) vs ${show(row.value[f])} (line ${row.line})`).join('; ')}`,
    );
  }
  if (conflicts.length > 0) {
    const more = conflicts.length > SHOWN_CONFLICTS ? [`... and ${conflicts.length - SHOWN_CONFLICTS} more`] : [];
    const rule = 'a key may appear once per file: the build cannot tell which of the rows is right (an exact repeat is dropped)';
    throw new SourceError(
      conflicts.length === 1
        ? `conflicting repeated row: ${conflicts[0]}; ${rule}`
        : `${log.path}: ${conflicts.length} keys repeated with different values; ${rule}:\n- ${[...conflicts.slice(0, SHOWN_CONFLICTS), ...more].join('\n- ')}`,
      log.path,
    );
  }
  if (repeatedAt.length > 0) {
    log.repeats += repeatedAt.length;
    const lines = repeatedAt.slice(0, SHOWN_CONFLICTS).join(', ') + (repeatedAt.length > SHOWN_CONFLICTS ? ', ...' : '');
    log.note(`${repeatedAt.length} exact repeat${repeatedAt.length === 1 ? '' : 's'} of an earlier row dropped (same ${key.join(', ')} and values; line ${lines})`);
  }
  return out;
}

function differingFields<T>(a: T, b: T): Array<keyof T & string> {
  const fields = new Set([...Object.keys(a as object), ...Object.keys(b as object)]) as Set<keyof T & string>;
  return [...fields].filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]));
}

/** A value as the messages show it: a string quoted (cut at 60 characters), anything else as JSON. */
function show(v: unknown): string {
  if (typeof v !== 'string') return JSON.stringify(v) ?? 'undefined';
  return `"${v.length > 60 ? `${v.slice(0, 60)}...` : v}"`;
}

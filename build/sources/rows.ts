// Validating the rows of one file: header check (fatal), then every row through its zod schema;
// a failing row is rejected with its line and reason and counted, never thrown.
import type { z } from 'zod';
import type { SourceFileReport, SourceProblem } from './report.ts';
import { SourceError } from './errors.ts';
import { rowRecord, type Table } from './table.ts';

/** Collects the outcome of one file for the report. */
export class FileLog {
  rows = 0;
  kept = 0;
  rejected = 0;
  readonly notes: string[] = [];
  readonly problems: SourceProblem[] = [];

  constructor(
    /** Official file name, e.g. "Task Statements.txt". */
    readonly file: string,
    /** Path relative to the source directory. */
    readonly path: string,
  ) {}

  reject(line: number, reason: string): void {
    this.rejected++;
    this.problems.push({ file: this.path, line, reason });
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
  absorb(job: Pick<FileLog, 'rows' | 'kept' | 'rejected' | 'notes' | 'problems'>): void {
    this.rows += job.rows;
    this.kept += job.kept;
    this.rejected += job.rejected;
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
 * Runs every row through `schema` (input: column -> trimmed cell). `skip` may drop a valid-looking
 * row on purpose (a filter, not an error) and returns the reason counted in the notes.
 * `rows` counts data rows read, `kept` the rows returned; rejected rows go to the log.
 */
export function parseRows<T>(
  table: Table,
  log: FileLog,
  columns: string[],
  schema: z.ZodType<T, Record<string, string>>,
  skip?: (record: Record<string, string>) => string | null,
): Array<ParsedRow<T>> {
  requireColumns(table, columns, log);
  const out: Array<ParsedRow<T>> = [];
  const skipped = new Map<string, number>();
  for (const row of table.rows) {
    log.rows++;
    const record = rowRecord(table.header, row.cells);
    const why = skip?.(record) ?? null;
    if (why !== null) {
      skipped.set(why, (skipped.get(why) ?? 0) + 1);
      continue;
    }
    // reportInput (the rejected value in the message) turns off zod's compiled fast path and made
    // every row 4x slower: only a failing row is parsed again with it, for the message.
    const result = schema.safeParse(record);
    if (result.success) {
      out.push({ line: row.line, value: result.data });
    } else {
      const described = schema.safeParse(record, { reportInput: true });
      log.reject(row.line, describeIssues(described.success ? result.error : described.error, record));
    }
  }
  if (table.noteRows > 0) log.note(`${table.noteRows} title/footnote rows skipped`); // known once the rows are read
  for (const [why, count] of skipped) log.note(`${count} rows skipped: ${why}`);
  log.kept += out.length;
  return out;
}

// One shape for every source file, whatever its format: a header and rows of string cells, each
// row with the line (text) or sheet row (xlsx) it came from, so problems can say where. Rows are
// made as they are read: a large file's cells are never all alive at once, so what a parser keeps
// is nearly all the memory it uses (holding every row had made most of the parsing time garbage
// collection). Pure: the file reading lives in read-table.ts.
import { parse } from 'csv-parse/sync';
import type { SheetCell, SheetRow } from './xlsx-read.ts';

export interface TableRow {
  /** 1-based line in a text file (the line the record ends on) or row number in the sheet. */
  line: number;
  cells: string[];
}

/** A table's data rows, read as they are iterated and only once: a second pass would find nothing, so it throws. */
export class Rows implements Iterable<TableRow> {
  private read = false;

  constructor(private readonly source: Iterable<TableRow>) {}

  [Symbol.iterator](): Iterator<TableRow> {
    if (this.read) throw new Error("a table's rows can be read only once");
    this.read = true;
    return this.source[Symbol.iterator]();
  }
}

export interface Table {
  header: string[];
  rows: Rows;
  /** Rows skipped as sheet notes (title lines, footnotes): not data, not errors. Counted as the rows are read: final once they have been. */
  readonly noteRows: number;
}

/** The table with only the rows `keep` accepts; `dropped()` counts the others read so far. */
export function filterRows(table: Table, keep: (cells: string[]) => boolean): { table: Table; dropped: () => number } {
  let dropped = 0;
  const rows = table.rows;
  function* kept(): Generator<TableRow> {
    for (const row of rows) {
      if (keep(row.cells)) yield row;
      else dropped++;
    }
  }
  return {
    table: { header: table.header, rows: new Rows(kept()), get noteRows() { return table.noteRows; } },
    dropped: () => dropped,
  };
}

/** Header names compared after trimming and collapsing inner whitespace ("2022 NAICS US   Code"). */
export function normalizeHeader(name: string): string {
  return name.replace(/^\uFEFF/, '').replace(/\s+/g, ' ').trim();
}

/**
 * Tab- or comma-delimited text. O*NET's tab files quote a field only when it holds a double
 * quote (CSV-style, e.g. "Conduct ""head counts"" ..."), so one CSV parser serves all formats.
 */
export function parseDelimited(text: string, delimiter: '\t' | ','): Table {
  return text.includes('"') ? (splitQuoted(text, delimiter) ?? parseCsv(text, delimiter)) : splitDelimited(text, delimiter);
}

/** The general path: csv-parse, for text with quoted fields. */
export function parseCsv(text: string, delimiter: '\t' | ','): Table {
  const records = parse(text, {
    delimiter,
    bom: true,
    info: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  const [first, ...rest] = records;
  if (!first) return { header: [], rows: new Rows([]), noteRows: 0 };
  return {
    header: first.record.map(normalizeHeader),
    rows: new Rows(rest.map(({ record, info }) => ({ line: info.lines, cells: record }))),
    noteRows: 0,
  };
}

/**
 * The same table as parseDelimited for text without any double quote, where a field can hold
 * neither a delimiter nor a line break: plain splitting, much faster than the CSV parser
 * on the large O*NET tab files, a line at a time. A unit test holds the two together.
 */
export function splitDelimited(text: string, delimiter: '\t' | ','): Table {
  const lines = textLines(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  let header: string[] | null = null;
  let i = 0;
  for (let next = lines.next(); !next.done; next = lines.next()) {
    i++;
    if (next.value === '') continue;
    header = next.value.split(delimiter).map(normalizeHeader);
    break;
  }
  function* rows(): Generator<TableRow> {
    for (let next = lines.next(); !next.done; next = lines.next()) {
      i++;
      if (next.value !== '') yield { line: i, cells: next.value.split(delimiter) };
    }
  }
  return { header: header ?? [], rows: new Rows(rows()), noteRows: 0 };
}

/** The lines of a text as split(/\r\n|\n|\r/) gives them, one at a time. */
function* textLines(text: string): Generator<string> {
  let pos = 0;
  let nextN = text.indexOf('\n');
  let nextR = text.indexOf('\r');
  for (;;) {
    // Each search runs once per break of its kind, not once per line: the file may have none.
    if (nextN >= 0 && nextN < pos) nextN = text.indexOf('\n', pos);
    if (nextR >= 0 && nextR < pos) nextR = text.indexOf('\r', pos);
    const end = nextR < 0 ? nextN : nextN < 0 ? nextR : Math.min(nextN, nextR);
    if (end < 0) {
      yield text.slice(pos);
      return;
    }
    yield text.slice(pos, end);
    pos = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
}

/**
 * The same table as parseCsv for regular quoted text, much faster (csv-parse was a large part of
 * a cold build's parsing): one kind of line ending, no line break inside a quoted
 * field, every quoted field closed by a quote followed by the delimiter or the line's end. On
 * anything else it returns null and csv-parse reads the text, with its own handling and errors.
 * A quote inside an unquoted field is text (csv-parse's relax_quotes). Unit tests and a test on
 * every quoted file of the data mirror hold the two together.
 */
export function splitQuoted(text: string, delimiter: '\t' | ','): Table | null {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstBreak = body.search(/[\r\n]/);
  // csv-parse takes the first line ending as the record delimiter; any other kind is irregular.
  const eol = firstBreak < 0 || body[firstBreak] === '\n' ? '\n' : body[firstBreak + 1] === '\n' ? '\r\n' : null;
  if (eol === null) return null;
  const lines = body.split(eol);
  let header: string[] | null = null;
  const rows: TableRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    if (line.includes('\r') || (eol === '\r\n' && line.includes('\n'))) return null;
    const cells = splitQuotedLine(line, delimiter);
    if (cells === null) return null;
    if (header === null) header = cells.map(normalizeHeader);
    else rows.push({ line: i + 1, cells });
  }
  // Whole, not a line at a time: any irregular line sends the text to csv-parse instead.
  return { header: header ?? [], rows: new Rows(rows), noteRows: 0 };
}

function splitQuotedLine(line: string, delimiter: string): string[] | null {
  const cells: string[] = [];
  let pos = 0;
  for (;;) {
    if (line.charCodeAt(pos) === 0x22) {
      let value = '';
      let from = pos + 1;
      for (;;) {
        const q = line.indexOf('"', from);
        if (q < 0) return null; // not closed on this line
        value += line.slice(from, q);
        if (line.charCodeAt(q + 1) === 0x22) {
          value += '"';
          from = q + 2;
          continue;
        }
        pos = q + 1;
        break;
      }
      cells.push(value);
      if (pos === line.length) return cells;
      if (line[pos] !== delimiter) return null; // text after a closing quote
      pos++;
    } else {
      const end = line.indexOf(delimiter, pos);
      if (end < 0) {
        cells.push(line.slice(pos));
        return cells;
      }
      cells.push(line.slice(pos, end));
      pos = end + 1;
    }
  }
}


export function cellToString(cell: SheetCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  // String(number) is the shortest round-trip form, so "4.2664" stays "4.2664".
  return String(cell);
}

/** Rows a reader yields, from a sheet already read as a 2D array (tests, small sheets). */
export function* matrixRows(data: SheetCell[][]): Generator<SheetRow> {
  for (let index = 0; index < data.length; index++) yield { index, cells: [...data[index]!] };
}

/** The first rows looked at for a header (BLS puts a title line or two above it). */
const HEADER_SEARCH_ROWS = 20;

/**
 * A sheet's rows as a table. BLS workbooks put a title line above the header and footnotes below
 * the data, so the header is the first row (of the first 20) holding all wanted columns, else the
 * first non-blank row; rows with only their first cell filled are notes. Rows are padded to the
 * widest row read so far (as read-excel-file padded a sheet to its widest row).
 */
export function sheetTable(source: Iterable<SheetRow>, wantedColumns: string[]): Table {
  const it = source[Symbol.iterator]();
  const wanted = wantedColumns.map(normalizeHeader);
  let width = 0;
  const strings = (cells: SheetCell[]): string[] => {
    for (let i = 0; i < cells.length; i++) cells[i] = cellToString(cells[i]);
    if (cells.length > width) width = cells.length;
    return cells as string[];
  };
  const pad = (cells: string[]) => {
    while (cells.length < width) cells.push('');
    return cells;
  };
  const filledCount = (cells: string[]) => {
    let n = 0;
    for (const c of cells) if (c.trim() !== '') n++;
    return n;
  };

  // Rows read while looking for the header; those after it are data, replayed first.
  const seen: Array<{ index: number; cells: string[] }> = [];
  let firstFilled = -1;
  let header = -1;
  for (let next = it.next(); !next.done; next = it.next()) {
    const row = { index: next.value.index, cells: strings(next.value.cells) };
    seen.push(row);
    const filled = filledCount(row.cells) > 0;
    if (filled && firstFilled < 0) firstFilled = seen.length - 1;
    if (wanted.length > 0 && row.index < HEADER_SEARCH_ROWS) {
      const names = new Set(row.cells.map(normalizeHeader));
      if (wanted.every((w) => names.has(w))) {
        header = seen.length - 1;
        break;
      }
    }
    // Without wanted columns the first filled row is the header; with them, so it is once no later
    // row can be among the rows searched (rows come in order).
    if (firstFilled >= 0 && (wanted.length === 0 || row.index >= HEADER_SEARCH_ROWS - 1)) {
      header = firstFilled;
      break;
    }
  }
  if (header < 0) header = firstFilled;
  if (header < 0) return { header: [], rows: new Rows([]), noteRows: 0 };
  const headerRow = seen[header]!;
  let noteRows = headerRow.index;
  const names = pad(headerRow.cells).map(normalizeHeader);
  const after = seen.slice(header + 1);
  seen.length = 0;

  function* rows(): Generator<TableRow> {
    const data = (index: number, cells: string[]): TableRow | null => {
      pad(cells);
      const filled = filledCount(cells);
      if (filled === 0) return null;
      if (filled === 1 && cells[0]!.trim() !== '' && cells.length > 1) {
        noteRows++;
        return null;
      }
      return { line: index + 1, cells };
    };
    for (const { index, cells } of after) {
      const row = data(index, cells);
      if (row) yield row;
    }
    after.length = 0;
    for (let next = it.next(); !next.done; next = it.next()) {
      const row = data(next.value.index, strings(next.value.cells));
      if (row) yield row;
    }
  }
  return { header: names, rows: new Rows(rows()), get noteRows() { return noteRows; } };
}

/**
 * The table with its header names made canonical: matched case-insensitively against `canonical`
 * (BLS wrote OEWS headers in lower case in some years), then `renames` (old name -> current).
 * Names matching neither are kept as they are.
 */
export function canonicalHeader(table: Table, canonical: readonly string[], renames: Readonly<Record<string, string>> = {}): Table {
  const byUpper = new Map(canonical.map((c) => [c.toUpperCase(), c]));
  for (const [from, to] of Object.entries(renames)) byUpper.set(from.toUpperCase(), to);
  const header = table.header.map((h) => byUpper.get(h.toUpperCase()) ?? h);
  // A renamed column never shadows the current one when a file has both.
  const seen = new Set<string>();
  const deduped = header.map((h, i) => (seen.has(h) ? table.header[i]! : (seen.add(h), h)));
  return { ...table, header: deduped };
}

/** Row as column name -> trimmed cell ('' when the row is short). */
export function rowRecord(header: string[], cells: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < header.length; i++) {
    const name = header[i]!;
    // The first of duplicate names wins; duplicates do not occur in the official files.
    if (name in out) continue;
    out[name] = (cells[i] ?? '').trim();
  }
  return out;
}

// One in-memory shape for every source file, whatever its format: a header and rows of string
// cells, each row with the line (text) or sheet row (xlsx) it came from, so problems can say where.
// Pure: the file reading lives in read-table.ts.
import { parse } from 'csv-parse/sync';

export interface TableRow {
  /** 1-based line in a text file (the line the record ends on) or row number in the sheet. */
  line: number;
  cells: string[];
}

export interface Table {
  header: string[];
  rows: TableRow[];
  /** Rows skipped as sheet notes (title lines, footnotes): not data, not errors. */
  noteRows: number;
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
  if (!first) return { header: [], rows: [], noteRows: 0 };
  return {
    header: first.record.map(normalizeHeader),
    rows: rest.map(({ record, info }) => ({ line: info.lines, cells: record })),
    noteRows: 0,
  };
}

/**
 * The same table as parseDelimited for text without any double quote, where a field can hold
 * neither a delimiter nor a line break: plain splitting, several times faster than the CSV parser
 * on the large O*NET tab files. A unit test holds the two together.
 */
export function splitDelimited(text: string, delimiter: '\t' | ','): Table {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\n|\r/);
  let header: string[] | null = null;
  const rows: TableRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const cells = line.split(delimiter);
    if (header === null) header = cells.map(normalizeHeader);
    else rows.push({ line: i + 1, cells });
  }
  return { header: header ?? [], rows, noteRows: 0 };
}

/**
 * The same table as parseCsv for regular quoted text, several times faster (csv-parse was a
 * quarter of a cold build's parsing): one kind of line ending, no line break inside a quoted
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
  return { header: header ?? [], rows, noteRows: 0 };
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

export type SheetCell = string | number | boolean | Date | null | undefined;

export function cellToString(cell: SheetCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  // String(number) is the shortest round-trip form, so "4.2664" stays "4.2664".
  return String(cell);
}

/**
 * A sheet read as a 2D array. BLS workbooks put a title line above the header and footnotes
 * below the data, so the header is the first row (of the first 20) holding all wanted columns;
 * rows with only their first cell filled are notes.
 */
export function sheetToTable(data: SheetCell[][], wantedColumns: string[]): Table {
  const strings = data.map((row) => row.map(cellToString));
  const wanted = wantedColumns.map(normalizeHeader);
  let headerIndex = strings.findIndex((row) => row.some((c) => c.trim() !== ''));
  for (let i = 0; wanted.length > 0 && i < Math.min(strings.length, 20); i++) {
    const names = new Set(strings[i]!.map(normalizeHeader));
    if (wanted.every((w) => names.has(w))) {
      headerIndex = i;
      break;
    }
  }
  if (headerIndex < 0) return { header: [], rows: [], noteRows: 0 };
  const rows: TableRow[] = [];
  let noteRows = headerIndex;
  for (let i = headerIndex + 1; i < strings.length; i++) {
    const cells = strings[i]!;
    const filled = cells.filter((c) => c.trim() !== '').length;
    if (filled === 0) continue;
    if (filled === 1 && cells[0]!.trim() !== '' && cells.length > 1) {
      noteRows++;
      continue;
    }
    rows.push({ line: i + 1, cells });
  }
  return { header: strings[headerIndex]!.map(normalizeHeader), rows, noteRows };
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

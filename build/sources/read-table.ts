// File I/O for tables: text by extension (.txt/.tsv tab, .csv comma), xlsx through xlsx-read.ts.
import { SourceError } from './errors.ts';
import { parseDelimited, Rows, sheetTable, type Table, type TableRow } from './table.ts';
import { readWhole } from '../whole-file.ts';
import { openXlsx, type SheetReader, type SheetRow } from './xlsx-read.ts';
import { parseXls } from './xls-read.ts';

export type TableFormat = 'tsv' | 'csv' | 'xlsx' | 'xls';

export function formatOf(file: string): TableFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
  if (lower.endsWith('.xls')) return 'xls';
  if (lower.endsWith('.csv')) return 'csv';
  return 'tsv';
}

/**
 * @param sheet sheet name for workbooks with several tables (EP "Table 1.2"); default: the first
 *   sheet whose header holds the wanted columns, else the first sheet.
 */
export async function readTable(
  absPath: string,
  relPath: string,
  wantedColumns: string[],
  sheet?: string,
): Promise<Table> {
  const format = formatOf(absPath);
  if (format === 'xls') return xlsTable(absPath, relPath, wantedColumns, sheet);
  if (format !== 'xlsx') {
    const text = (await readWhole(absPath)).toString('utf8');
    checkLastLineEnds(text, relPath);
    let table: Table;
    try {
      table = parseDelimited(text, format === 'csv' ? ',' : '\t');
    } catch (err) {
      throw new SourceError(`${relPath}: cannot be read as ${format} text (${err instanceof Error ? err.message : String(err)})`, relPath);
    }
    return { ...table, rows: new Rows(lastRowWhole(table, relPath)) };
  }
  let sheets: SheetReader[];
  try {
    sheets = openXlsx(await readWhole(absPath));
  } catch (err) {
    throw unreadable(relPath, err);
  }
  const table = (s: SheetReader) => sheetTable(guarded(s.rows(), relPath), wantedColumns);
  if (sheet !== undefined) {
    const found = sheets.find((s) => s.sheet === sheet);
    if (!found) {
      throw new SourceError(
        `${relPath}: sheet "${sheet}" not found (sheets: ${sheets.map((s) => s.sheet).join(', ')})`,
        relPath,
      );
    }
    return table(found);
  }
  let first: Table | null = null;
  for (const s of sheets) {
    const t = table(s);
    first ??= t;
    if (wantedColumns.every((c) => t.header.includes(c))) return t;
  }
  return first ?? { header: [], rows: new Rows([]), noteRows: 0 };
}

const unreadable = (relPath: string, err: unknown) =>
  new SourceError(`${relPath}: not a readable xlsx workbook (${err instanceof Error ? err.message : String(err)})`, relPath);

/** A sheet's rows, with a damaged worksheet (found only as its rows are read) reported as the file's problem. */
function* guarded(rows: Iterable<SheetRow>, relPath: string): Generator<SheetRow> {
  try {
    yield* rows;
  } catch (err) {
    throw unreadable(relPath, err);
  }
}

/** A legacy .xls workbook (BIFF8, small: read whole), picked by sheet name like an xlsx. */
async function xlsTable(absPath: string, relPath: string, wantedColumns: string[], sheet?: string): Promise<Table> {
  let book: ReturnType<typeof parseXls>;
  try {
    book = parseXls(await readWhole(absPath));
  } catch (err) {
    throw new SourceError(`${relPath}: not a readable xls workbook (${err instanceof Error ? err.message : String(err)})`, relPath);
  }
  const found = sheet === undefined ? book[0] : book.find((s) => s.sheet === sheet);
  if (!found) throw new SourceError(`${relPath}: sheet "${sheet}" not found (sheets: ${book.map((s) => s.sheet).join(', ')})`, relPath);
  return sheetTable(found.data.map((cells, index) => ({ index, cells })), wantedColumns);
}

/**
 * Every line of a complete text file ends with a line end, its last included: one that does not
 * is where the file was cut short (a download or a copy stopped), and its rows would be read as
 * if whole (a task's text cut, a wage cut to its first digits). Fatal, --strict or not.
 */
function checkLastLineEnds(text: string, relPath: string): void {
  const last = text.charCodeAt(text.length - 1);
  if (text.length === 0 || last === 10 || last === 13) return;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) line++;
  throw new SourceError(
    `${relPath}:${line}: the file ends inside this line, without a line end: it was cut short (a complete file ends every line with one); get the whole file again`,
    relPath,
  );
}

/**
 * The rows, the last checked for all the header's fields before it is given out: a last row with
 * fewer is the end of a file cut short at a field's edge. Fatal (a short row elsewhere is
 * rejected and counted, rows.ts).
 */
function* lastRowWhole(table: Table, relPath: string): Generator<TableRow> {
  let held: TableRow | null = null;
  for (const row of table.rows) {
    if (held) yield held;
    held = row;
  }
  if (held && held.cells.length < table.header.length) {
    throw new SourceError(
      `${relPath}:${held.line}: the last row has ${held.cells.length} of the header's ${table.header.length} fields: the file was cut short; get the whole file again`,
      relPath,
    );
  }
  if (held) yield held;
}

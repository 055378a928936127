// File I/O for tables: text by extension (.txt/.tsv tab, .csv comma), xlsx through xlsx-read.ts.
import { readFile } from 'node:fs/promises';
import { SourceError } from './errors.ts';
import { parseDelimited, sheetToTable, type Table } from './table.ts';
import { readXlsx, type Workbook } from './xlsx-read.ts';

export type TableFormat = 'tsv' | 'csv' | 'xlsx';

export function formatOf(file: string): TableFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.xlsx')) return 'xlsx';
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
  if (format !== 'xlsx') {
    const text = await readFile(absPath, 'utf8');
    return parseDelimited(text, format === 'csv' ? ',' : '\t');
  }
  let sheets: Workbook;
  try {
    sheets = await readXlsx(absPath);
  } catch (err) {
    throw new SourceError(`${relPath}: not a readable xlsx workbook (${(err as Error).message})`, relPath);
  }
  if (sheet !== undefined) {
    const found = sheets.find((s) => s.sheet === sheet);
    if (!found) {
      throw new SourceError(
        `${relPath}: sheet "${sheet}" not found (sheets: ${sheets.map((s) => s.sheet).join(', ')})`,
        relPath,
      );
    }
    return sheetToTable(found.data, wantedColumns);
  }
  let first: Table | null = null;
  for (const s of sheets) {
    const table = sheetToTable(s.data, wantedColumns);
    first ??= table;
    if (wantedColumns.every((c) => table.header.includes(c))) return table;
  }
  return first ?? { header: [], rows: [], noteRows: 0 };
}

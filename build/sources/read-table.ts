// File I/O for tables: text by extension (.txt/.tsv tab, .csv comma), xlsx through read-excel-file.
import { readFile } from 'node:fs/promises';
import readXlsxFile from 'read-excel-file/node';
import { SourceError } from './errors.ts';
import type { XlsxPool } from './xlsx-pool.ts';
import { parseDelimited, sheetToTable, type SheetCell, type Table } from './table.ts';

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
 * @param pool worker threads for xlsx; without one the workbook is parsed in-process.
 */
export async function readTable(
  absPath: string,
  relPath: string,
  wantedColumns: string[],
  sheet?: string,
  pool?: XlsxPool,
): Promise<Table> {
  const format = formatOf(absPath);
  if (format !== 'xlsx') {
    const text = await readFile(absPath, 'utf8');
    return parseDelimited(text, format === 'csv' ? ',' : '\t');
  }
  let sheets: Array<{ sheet: string; data: SheetCell[][] }>;
  try {
    sheets = pool
      ? await pool.read(absPath)
      : ((await readXlsxFile(absPath)) as unknown as Array<{ sheet: string; data: SheetCell[][] }>);
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

// BLS Employment Projections Table 1.12, "Factors affecting occupational utilization": the sheet
// "Table 1.12" of occupation.xlsx (a title line above the header), or the mirror's CSV of that
// sheet. Columns are found by their text without the year, so the next round reads the same way.
// Every statement says whether the occupation's share of the industry's employment "decreases"
// or "increases"; a statement saying neither (or both) is rejected, never guessed.
import { z } from 'zod';
import { EpFactorRow } from '../model/inputs.ts';
import { required } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import { SourceError } from './errors.ts';
import type { Table } from './table.ts';

export const EP_FACTORS_SHEET = 'Table 1.12';
/** A header cell every version of the table has (the loader finds the header row by it). */
export const EP_FACTORS_MARKER = 'Factors affecting occupational utilization';

const COLUMN_PATTERNS = {
  title: /^\d{4} National Employment Matrix occupation title$/,
  code: /^\d{4} National Employment Matrix occupation code$/,
  industry_title: /^\d{4} National Employment Matrix industry title$/,
  industry_code: /^\d{4} National Employment Matrix industry code$/,
  statement: /^Factors affecting occupational utilization$/,
};

function columns(header: string[], file: string) {
  const entries = Object.entries(COLUMN_PATTERNS).map(([k, re]) => [k, header.find((h) => re.test(h))] as const);
  const missing = entries.filter(([, v]) => v === undefined).map(([k]) => k);
  if (missing.length > 0) throw new SourceError(`${file}: EP Table 1.12 header lacks ${missing.join(', ')}; found: ${header.join(' | ')}`, file);
  return Object.fromEntries(entries) as Record<keyof typeof COLUMN_PATTERNS, string>;
}

/** The stated direction of the occupation's share: exactly one of "share decreases" / "share increases". */
export function shareDirection(statement: string): 'decreases' | 'increases' | null {
  const dec = /share decreases/i.test(statement);
  const inc = /share increases/i.test(statement);
  return dec === inc ? null : dec ? 'decreases' : 'increases';
}

export function parseEpFactors(table: Table, log: FileLog): EpFactorRow[] {
  const c = columns(table.header, log.path);
  const schema = z
    .object({
      [c.title]: required,
      [c.code]: z.string().regex(/^\d{2}-\d{4}$/, 'is not a SOC code'),
      [c.industry_title]: required,
      [c.industry_code]: z.string().regex(/^[0-9A-Z]{4,6}(?:-[0-9])?$/, 'is not a National Employment Matrix industry code'),
      [c.statement]: z.string().refine((s) => shareDirection(s) !== null, 'says neither "share decreases" nor "share increases" (or both)'),
    })
    .transform((r) => ({
      soc: r[c.code]!,
      title: r[c.title]!,
      industry_title: r[c.industry_title]!,
      industry_code: r[c.industry_code]!,
      statement: r[c.statement]!,
      direction: shareDirection(r[c.statement]!)!,
    }))
    .pipe(EpFactorRow);
  return parseRows(table, log, Object.values(c), schema as z.ZodType<EpFactorRow, Record<string, string>>, { key: ['soc', 'industry_code'] }).map((r) => r.value);
}

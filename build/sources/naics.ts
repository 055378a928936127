// NAICS 2022 codes and titles: the Census "2-6 digit_2022_Codes.xlsx" (columns Seq. No.,
// 2022 NAICS US Code, 2022 NAICS US Title) or the mirror's code,title,level CSV.
import { z } from 'zod';
import { NaicsCode } from '../model/inputs.ts';
import { required } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import type { Table } from './table.ts';

/** Sector ranges (31-33, 44-45, 48-49) are level 2; otherwise the number of digits. */
export function naicsCodeLevel(code: string): number | null {
  if (/^\d{2}-\d{2}$/.test(code)) return 2;
  if (/^\d{2,6}$/.test(code)) return code.length;
  return null;
}

const CENSUS_CODE = '2022 NAICS US Code';
const CENSUS_TITLE = '2022 NAICS US Title';

export function parseNaics(table: Table, log: FileLog): NaicsCode[] {
  const census = table.header.includes(CENSUS_CODE);
  const codeCol = census ? CENSUS_CODE : 'code';
  const titleCol = census ? CENSUS_TITLE : 'title';
  const schema = z
    .object({ [codeCol]: required, [titleCol]: required })
    .transform((r, ctx) => {
      const code = r[codeCol]!;
      const level = naicsCodeLevel(code);
      if (level === null) {
        ctx.addIssue({ code: 'custom', path: [codeCol], message: 'is not a NAICS code' });
        return z.NEVER;
      }
      // Census titles carry trailing spaces (cells are trimmed on read).
      return { code, title: r[titleCol]!, level };
    })
    .pipe(NaicsCode);
  return parseRows(table, log, [codeCol, titleCol], schema, { key: ['code'] }).map((r) => r.value);
}

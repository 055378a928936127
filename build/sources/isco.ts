// The BLS crosswalks that carry the scores to ISCO-08: the ISCO-08 -> 2010 SOC crosswalk
// (isco_soc_crosswalk.xls, sheet "ISCO-08 to 2010 SOC", title lines above the header) and the
// 2010 -> 2018 SOC crosswalk (soc_2010_to_2018_crosswalk.xlsx, or the mirror's CSV of it).
import { z } from 'zod';
import { IscoLink, SocCrosswalkRow } from '../model/inputs.ts';
import { required, text } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import type { Table } from './table.ts';

/** The crosswalk sheet read ISCO-08 first; its twin ("2010 SOC to ISCO-08") holds the same links. */
export const ISCO_SOC_SHEET = 'ISCO-08 to 2010 SOC';
export const ISCO_SOC_COLUMNS = { isco: 'ISCO-08 Code', title: 'ISCO-08 Title EN', part: 'part', soc: '2010 SOC Code', comment: 'Comment 8/17/11' } as const;
export const SOC_CROSSWALK_COLUMNS = { soc2010: '2010 SOC Code', soc2018: '2018 SOC Code' } as const;

const soc = z.string().regex(/^\d{2}-\d{4}$/, 'is not a SOC code');

export function parseIscoLinks(table: Table, log: FileLog): IscoLink[] {
  const c = ISCO_SOC_COLUMNS;
  const schema = z
    .object({
      [c.isco]: z.string().regex(/^\d{3,4}$/, 'is not an ISCO-08 code (3 or 4 digits)'),
      [c.title]: required,
      [c.part]: z.enum(['', '*'], { message: 'is neither blank nor the part marker "*"' }),
      [c.soc]: soc,
      // The comment column is optional: a release without it reads as no comments.
      [c.comment]: text.optional(),
    })
    .transform((r) => ({ isco_code: r[c.isco]!, isco_title: r[c.title]!, soc2010: r[c.soc]!, part: r[c.part] === '*', comment: r[c.comment] ? r[c.comment]! : null }))
    .pipe(IscoLink);
  const rows = parseRows(table, log, [c.isco, c.title, c.part, c.soc], schema as z.ZodType<IscoLink, Record<string, string>>, { key: ['isco_code', 'soc2010'] });
  return rows.map((r) => r.value);
}

export function parseSocCrosswalk(table: Table, log: FileLog): SocCrosswalkRow[] {
  const c = SOC_CROSSWALK_COLUMNS;
  const schema = z
    .object({ [c.soc2010]: soc, [c.soc2018]: soc })
    .transform((r) => ({ soc2010: r[c.soc2010]!, soc2018: r[c.soc2018]! }))
    .pipe(SocCrosswalkRow);
  return parseRows(table, log, [c.soc2010, c.soc2018], schema as z.ZodType<SocCrosswalkRow, Record<string, string>>, { key: ['soc2010', 'soc2018'] }).map((r) => r.value);
}

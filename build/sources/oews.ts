// BLS OEWS: national cross-industry estimates and occupation-by-industry employment. The mirror's
// CSVs are verbatim conversions of the official xlsx (markers kept as text), so one parser serves
// both; xlsx cells arrive as strings too (see table.ts).
import { z } from 'zod';
import { OewsIndustryRow, OewsNationalRow } from '../model/inputs.ts';
import { numOrNull, required, text, trueOrBlank, wage } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import { canonicalHeader, type Table } from './table.ts';

/** "May 2025" from the reference year in the file name (OEWS estimates are for May). */
export function oewsPeriod(year: string): string {
  return `May ${year}`;
}

const NATIONAL_COLUMNS = ['OCC_CODE', 'OCC_TITLE', 'O_GROUP', 'TOT_EMP', 'A_MEDIAN', 'A_MEAN', 'H_MEDIAN', 'ANNUAL', 'HOURLY'];
const INDUSTRY_COLUMNS = ['NAICS', 'NAICS_TITLE', 'I_GROUP', 'OWN_CODE', 'OCC_CODE', 'O_GROUP', 'TOT_EMP'];

/**
 * OEWS header names across official releases: upper case from May 2021, lower case in May 2019
 * and 2020 (`occ_code`, `o_group`); the group column was OCC_GROUP in the May 2012-2018 files and
 * GROUP before. Canonical names are the current ones.
 */
export const OEWS_HEADER_RENAMES: Readonly<Record<string, string>> = { OCC_GROUP: 'O_GROUP', GROUP: 'O_GROUP' };

export const oewsHeader = (table: Table): Table =>
  canonicalHeader(table, [...new Set([...NATIONAL_COLUMNS, ...INDUSTRY_COLUMNS])], OEWS_HEADER_RENAMES);

export function parseOewsNational(table: Table, log: FileLog): OewsNationalRow[] {
  const schema = z
    .object({
      OCC_CODE: text,
      OCC_TITLE: text,
      O_GROUP: text,
      // '**' = employment estimate not released.
      TOT_EMP: numOrNull(['**', '*']),
      A_MEDIAN: wage,
      A_MEAN: wage,
      H_MEDIAN: wage,
      ANNUAL: trueOrBlank,
      HOURLY: trueOrBlank,
    })
    .transform((r) => ({
      occ_code: r.OCC_CODE,
      occ_title: r.OCC_TITLE,
      o_group: r.O_GROUP,
      tot_emp: r.TOT_EMP,
      a_median: r.A_MEDIAN,
      a_mean: r.A_MEAN,
      h_median: r.H_MEDIAN,
      annual_only: r.ANNUAL,
      hourly_only: r.HOURLY,
    }))
    .pipe(OewsNationalRow);
  // A code may appear as a broad and as a detailed group (13-1020 in every year since 2019): the key is both.
  const rows = parseRows(oewsHeader(table), log, NATIONAL_COLUMNS, schema, {
    key: ['occ_code', 'o_group'],
    occupation: { code: 'OCC_CODE', title: 'OCC_TITLE' },
  }).map((r) => r.value);
  const topCoded = rows.filter((r) => r.a_median.flag === 'top_coded').length;
  if (topCoded > 0) log.note(`${topCoded} occupations with top-coded annual median ('#')`);
  return rows;
}

export type IndustryFileKind = 'natsector' | 'nat3d' | 'nat4d' | 'nat5d_6d';

/**
 * Level of an OEWS industry code. I_GROUP says it ('sector', '3-digit', ... '6-digit'); without
 * it, by significant digits: OEWS pads codes with zeros (113000 = 3-digit 113, 237130 = 5-digit
 * 23713), which is ambiguous only for 6-digit codes ending in 0, hence I_GROUP first.
 */
export function naicsLevel(naics: string, iGroup: string, kind: IndustryFileKind): number | null {
  if (kind === 'natsector' || iGroup === 'sector') return 2;
  const m = iGroup.match(/^([3-6])-digit$/);
  if (m) return Number(m[1]);
  if (!/^\d{6}$/.test(naics)) return null;
  const significant = naics.replace(/0+$/, '').length;
  return Math.min(6, Math.max(3, significant));
}

/**
 * Ownership: every industry in the May 2024 files is published under exactly one OWN_CODE, the
 * widest the industry has (5 = private for most; 123 = all government for 99/999000, 235 for
 * schools, 57/58/59 where a government part is folded into a private industry, 1 for 491000
 * Postal Service). Those rows ARE the cross-ownership figures, so all are kept. Should a file list
 * one industry under several OWN_CODEs, only the widest (most ownership digits; first seen on a
 * tie) is kept, so employment is never double-counted.
 */
export function pickOwnership(rows: Array<{ naics: string; own_code: string }>): Map<string, string> {
  const best = new Map<string, string>();
  for (const r of rows) {
    const current = best.get(r.naics);
    if (current === undefined || r.own_code.length > current.length) best.set(r.naics, r.own_code);
  }
  return best;
}

const KEPT_GROUPS = new Set(['total', 'detailed']);

export function parseOewsIndustry(table: Table, log: FileLog, kind: IndustryFileKind, period: string): OewsIndustryRow[] {
  const columns = INDUSTRY_COLUMNS.filter((c) => c !== 'I_GROUP');
  // I_GROUP is in every official file and the mirror's trims; tolerate its absence (level by digits).
  const schema = z
    .object({
      NAICS: required,
      NAICS_TITLE: text,
      I_GROUP: z.string().optional().transform((s) => s ?? ''),
      OWN_CODE: required,
      OCC_CODE: z.string().regex(/^\d{2}-\d{4}$|^\d{2}-\d{3}X$|^\d{2}-\d{2}XX$/, 'is not an OEWS occupation code'),
      O_GROUP: required,
      TOT_EMP: numOrNull(['**', '*']),
    })
    .transform((r, ctx) => {
      const level = naicsLevel(r.NAICS, r.I_GROUP, kind);
      if (level === null) {
        ctx.addIssue({ code: 'custom', path: ['NAICS'], message: 'has no recognisable NAICS level' });
        return z.NEVER;
      }
      return {
        period,
        naics: r.NAICS,
        naics_title: r.NAICS_TITLE,
        naics_level: level,
        own_code: r.OWN_CODE,
        occ_code: r.OCC_CODE,
        o_group: r.O_GROUP,
        tot_emp: r.TOT_EMP,
      };
    })
    .pipe(OewsIndustryRow);
  // One row per industry (at its level), ownership and occupation among the rows kept; pickOwnership
  // then keeps one ownership per industry.
  const rows = parseRows(oewsHeader(table), log, columns, schema, {
    skip: (r) => (KEPT_GROUPS.has(r.O_GROUP ?? '') ? null : 'O_GROUP not total/detailed'),
    key: ['naics', 'naics_level', 'own_code', 'occ_code'],
    occupation: { code: 'OCC_CODE' },
  }).map((r) => r.value);
  const own = pickOwnership(rows);
  const kept = rows.filter((r) => own.get(r.naics) === r.own_code);
  if (kept.length < rows.length) {
    log.note(`${rows.length - kept.length} rows skipped: narrower OWN_CODE of an industry also published wider`);
    log.kept -= rows.length - kept.length;
  }
  const codes = [...new Set([...own.entries()].filter(([, c]) => c !== '5').map(([n, c]) => `${n}:${c}`))];
  log.note(`${own.size} industries; OWN_CODE other than 5 (private): ${codes.join(', ') || 'none'}`);
  return kept;
}

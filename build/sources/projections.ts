// BLS Employment Projections, occupation.xlsx sheet "Table 1.2" (or the mirror's CSV of that
// sheet). Columns are found by their text without the years, so the next projection round
// (2025-35) reads the same way. Employment is in thousands; '—' = not available.
import { z } from 'zod';
import { Projection } from '../model/inputs.ts';
import { numOrNull, required, wage } from './cells.ts';
import { parseRows, type FileLog } from './rows.ts';
import { SourceError } from './errors.ts';
import type { Table } from './table.ts';

export const PROJECTIONS_SHEET = 'Table 1.2';
const DASH = ['—', '–', '-'];

const COLUMN_PATTERNS = {
  title: /^\d{4} National Employment Matrix title$/,
  code: /^\d{4} National Employment Matrix code$/,
  type: /^Occupation type$/,
  employment: /^Employment, \d{4}$/,
  change_pct: /^Employment change, percent, /,
  openings: /^Occupational openings, .*annual average$/,
  median_wage: /^Median annual wage, dollars, /,
  education: /^Typical education needed for entry$/,
  experience: /^Work experience in a related occupation$/,
  training: /^Typical on-the-job training needed to attain competency in the occupation$/,
};

/** The header names the projections loader needs; first match in header order. */
export function projectionColumns(header: string[], file: string) {
  const find = (re: RegExp) => header.filter((h) => re.test(h));
  const employment = find(COLUMN_PATTERNS.employment);
  const one = (key: keyof typeof COLUMN_PATTERNS) => find(COLUMN_PATTERNS[key])[0];
  const cols = {
    title: one('title'),
    code: one('code'),
    type: one('type'),
    base: employment[0],
    projected: employment[1],
    change_pct: one('change_pct'),
    openings: one('openings'),
    median_wage: one('median_wage'),
  };
  // The education and training columns: read when present (a table without them gives nulls).
  const optional = { education: one('education'), experience: one('experience'), training: one('training') };
  const missing = Object.entries(cols).filter(([, v]) => v === undefined).map(([k]) => k);
  if (missing.length > 0) {
    throw new SourceError(
      `${file}: EP Table 1.2 header lacks ${missing.join(', ')} (expected "Employment, 2024", "Employment, 2034", ` +
        `"Employment change, percent, ...", "Occupational openings, ... annual average", "Median annual wage, dollars, ..."); found: ${header.join(' | ')}`,
      file,
    );
  }
  return { ...(cols as { [K in keyof typeof cols]: string }), ...optional };
}

/** A category cell: its text, or null for BLS's dash (summary rows); the model's enums check the text. */
const category = z.string().transform((v) => (DASH.includes(v.trim()) || v.trim() === '' ? null : v.trim()));

export function parseProjections(table: Table, log: FileLog): Projection[] {
  const c = projectionColumns(table.header, log.path);
  const schema = z
    .object({
      [c.title]: required,
      [c.code]: z.string().regex(/^\d{2}-\d{4}$/, 'is not a SOC code'),
      [c.type]: required,
      [c.base]: numOrNull(DASH),
      [c.projected]: numOrNull(DASH),
      [c.change_pct]: numOrNull(DASH),
      [c.openings]: numOrNull(DASH),
      [c.median_wage]: wage,
      ...(c.education ? { [c.education]: category } : {}),
      ...(c.experience ? { [c.experience]: category } : {}),
      ...(c.training ? { [c.training]: category } : {}),
    })
    .transform((r) => ({
      soc: r[c.code],
      title: r[c.title],
      occupation_type: r[c.type],
      employment_2024: r[c.base],
      employment_2034: r[c.projected],
      change_pct: r[c.change_pct],
      openings_annual: r[c.openings],
      median_wage_2024: r[c.median_wage],
      entry_education: c.education ? r[c.education] : null,
      related_experience: c.experience ? r[c.experience] : null,
      on_the_job_training: c.training ? r[c.training] : null,
    }))
    .pipe(Projection);
  if (!c.education || !c.experience || !c.training) log.note('no education and training columns (typical education for entry, related work experience, on-the-job training): read as null');
  return parseRows(table, log, Object.values(c).filter((v): v is string => v !== undefined), schema as z.ZodType<Projection, Record<string, string>>, {
    key: ['soc'],
    occupation: { code: c.code, title: c.title },
  }).map((r) => r.value);
}

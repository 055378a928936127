// What is happening to the job, shown beside the score and never read by it (3.1.0): BLS EP Table
// 1.12's statements about the occupation, its OEWS national employment in each year the sources
// hold, and the 2024-34 projection. Nothing here is an input to final_score or to any rule.
import type { Table112Statement } from './ep-factors.ts';
import type { OewsNational, Projection } from './inputs.ts';
import type { JobEvidence } from './record-schemas.ts';

/** OEWS adopted SOC 2018 fully in May 2021; May 2019 and 2020 publish hybrid SOC 2010/2018 codes. */
export const FIRST_FULL_SOC2018_YEAR = 2021;

export const EVIDENCE_ABOUT =
  'What is happening to the job, beside the score and never an input to it: BLS Employment Projections Table 1.12 statements, OEWS national employment by year and the BLS 2024-34 projection.';

export const NO_STATEMENT_NOTE =
  'BLS Employment Projections Table 1.12 makes no statement about this occupation. No statement is not the same as unaffected: the table names only the changes BLS analysts expect to move an occupation\'s share of an industry\'s employment.';

export const STATEMENTS_NOTE =
  'BLS Employment Projections Table 1.12 (2024-34), factors affecting occupational utilization: each statement says whether the occupation\'s share of an industry\'s employment is expected to rise or fall, and why. Statements for an aggregate code (ending in 0) cover every occupation under it.';

export const OEWS_CAUTION =
  'BLS cautions that OEWS estimates are not designed as a time series: survey methods, samples and occupation codes change between years, so year-to-year differences are not reliable measures of change. May 2019 (and 2020) use hybrid SOC 2010/2018 codes; a year the sources do not hold is listed in missing_years.';

export interface EmploymentYears {
  year: number;
  /** OEWS code (detailed or broad) -> employment. */
  employment: ReadonlyMap<string, number>;
}

/** "May 2025" -> 2025. */
export const periodYear = (period: string): number => Number(/(\d{4})/.exec(period)?.[1] ?? NaN);

/** Each OEWS national file's employment by code (detailed and broad rows), oldest year first. */
export function employmentByYear(files: readonly OewsNational[]): EmploymentYears[] {
  return files
    .map((f) => {
      const employment = new Map<string, number>();
      for (const r of f.rows) if ((r.o_group === 'detailed' || r.o_group === 'broad') && r.tot_emp !== null) employment.set(r.occ_code, Math.round(r.tot_emp));
      return { year: periodYear(f.period), employment };
    })
    .filter((y) => Number.isFinite(y.year))
    .sort((a, b) => a.year - b.year);
}

/** Years between the first and last held that the sources lack (the mirror has no May 2020). */
export function missingYears(years: readonly EmploymentYears[]): number[] {
  if (years.length === 0) return [];
  const held = new Set(years.map((y) => y.year));
  const out: number[] = [];
  for (let y = years[0]!.year; y <= years.at(-1)!.year; y++) if (!held.has(y)) out.push(y);
  return out;
}

const thousands = (v: number | null): number | null => (v === null ? null : Math.round(v * 1000));

export function jobEvidence(
  statements: readonly Table112Statement[],
  oewsCode: string | null,
  years: readonly EmploymentYears[],
  missing: readonly number[],
  projection: Projection | null,
): JobEvidence {
  return {
    about: EVIDENCE_ABOUT,
    bls_statements: statements.map((s) => ({ code: s.code, industry_code: s.industry_code, industry_title: s.industry_title, statement: s.statement, share: s.direction === 'increases' ? 'rises' : 'falls' })),
    bls_statements_note: statements.length > 0 ? STATEMENTS_NOTE : NO_STATEMENT_NOTE,
    employment_history: {
      oews_code: oewsCode,
      years: oewsCode === null ? [] : years.map((y) => ({ year: y.year, employment: y.employment.get(oewsCode) ?? null, hybrid_codes: y.year < FIRST_FULL_SOC2018_YEAR })),
      missing_years: [...missing],
      caution: OEWS_CAUTION,
    },
    projection: {
      period: '2024-34',
      code: projection?.soc ?? null,
      employment_2024: thousands(projection?.employment_2024 ?? null),
      employment_2034: thousands(projection?.employment_2034 ?? null),
      change_pct: projection?.change_pct ?? null,
      openings_annual: thousands(projection?.openings_annual ?? null),
    },
  };
}

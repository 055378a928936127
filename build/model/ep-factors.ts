// BLS EP Table 1.12 statements per served occupation, and the rule that names an occupation as
// cut by technology or AI (guidance only: moves and routes read it, the score never does).
//  - The table's codes are SOC 2018 detailed codes or broad aggregates (13-1020, 29-2010,
//    31-1120: a code ending in 0 covers every detailed code under it); a served O*NET code takes
//    the statements of its SOC code and of the aggregate above it.
//  - Each "share decreases" statement has one cause in seeds/ep-factor-causes.json.
//  - A technology statement counts when it is for "Total, all industries" (TE1000), or when the
//    industries of the occupation's technology statements together hold at least
//    material_industry_share of its jobs (OEWS May 2024, NAICS 3-digit file: the matrix's finer
//    industries and ownership splits are read at their 3-digit parent, so the share is an upper bound).
import type { EpFactorCausesSeed } from './advice-params.ts';
import type { EpFactorRow, OewsIndustryRow } from './inputs.ts';

export type { EpFactorCausesSeed } from './advice-params.ts';

export const TOTAL_ALL_INDUSTRIES = 'TE1000';

export interface Table112Statement {
  /** The table's occupation code (detailed, or the aggregate above the occupation). */
  code: string;
  industry_code: string;
  industry_title: string;
  statement: string;
  direction: 'decreases' | 'increases';
  /** The seed's cause of a decrease; null for an increase. */
  cause: 'technology_or_ai' | 'other' | null;
}

/** The SOC prefix a table code covers: 13-1020 -> 13-102, 15-1252 -> 15-1252. */
export const coveredPrefix = (code: string): string => (code.endsWith('0') ? code.replace(/0+$/, '') : code);

/**
 * Every statement per served O*NET code, with its cause. Throws when the seed and the table
 * disagree (a decrease without a cause, a cause twice, a cause for no statement): the rule would
 * otherwise be silently partial.
 */
export function table112BySoc(rows: readonly EpFactorRow[], causes: EpFactorCausesSeed, socs: readonly string[]): Map<string, Table112Statement[]> {
  const out = new Map<string, Table112Statement[]>();
  if (rows.length === 0) return out;
  const causeOf = new Map<string, 'technology_or_ai' | 'other'>();
  const problems: string[] = [];
  for (const c of causes.statements) {
    const k = `${c.soc}|${c.industry}`;
    if (causeOf.has(k)) problems.push(`${k} classified twice`);
    causeOf.set(k, c.cause);
  }
  const decreases = new Set<string>();
  const statements = rows.map((r) => {
    const k = `${r.soc}|${r.industry_code}`;
    if (r.direction === 'decreases') {
      decreases.add(k);
      if (!causeOf.has(k)) problems.push(`${k}: a "share decreases" statement with no cause`);
    }
    return { code: r.soc, industry_code: r.industry_code, industry_title: r.industry_title, statement: r.statement, direction: r.direction, cause: r.direction === 'decreases' ? (causeOf.get(k) ?? null) : null };
  });
  for (const k of causeOf.keys()) if (!decreases.has(k)) problems.push(`${k}: classified, but the table has no such "share decreases" statement`);
  if (problems.length > 0) throw new Error(`seeds/ep-factor-causes.json does not match BLS Table 1.12:\n  ${problems.slice(0, 20).join('\n  ')}`);
  for (const soc of socs) {
    const soc7 = soc.slice(0, 7);
    const mine = statements.filter((s) => soc7.startsWith(coveredPrefix(s.code)));
    if (mine.length > 0) out.set(soc, mine);
  }
  return out;
}

/** 3-digit NAICS of a National Employment Matrix industry code (62210P -> 622, 5220A1 -> 522). */
export const naics3 = (industryCode: string): string => industryCode.slice(0, 3);

/** An OEWS occupation's employment per NAICS 3-digit industry (the widest ownership published). */
export function industryEmployment(rows: readonly OewsIndustryRow[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (r.naics_level !== 3 || r.tot_emp === null || r.occ_code === '00-0000') continue;
    const m = out.get(r.occ_code) ?? new Map<string, number>();
    const k = r.naics.slice(0, 3);
    m.set(k, Math.max(m.get(k) ?? 0, r.tot_emp));
    out.set(r.occ_code, m);
  }
  return out;
}

export interface TechnologyCut {
  cut: boolean;
  /** 'total': a statement for all industries; 'industries': statements for industries holding `share` of the jobs. */
  basis: 'total' | 'industries' | null;
  /** Share of the occupation's jobs in the industries its technology statements name (null: no statement, or no OEWS figures). */
  share: number | null;
  /** The technology statements (for the reason shown). */
  statements: Table112Statement[];
}

/** Whether Table 1.12 says technology or AI cuts the occupation (the rule in the header). */
export function technologyCut(statements: readonly Table112Statement[] | undefined, jobsByIndustry: ReadonlyMap<string, number> | undefined, materialShare: number): TechnologyCut {
  const tech = (statements ?? []).filter((s) => s.cause === 'technology_or_ai');
  if (tech.length === 0) return { cut: false, basis: null, share: null, statements: [] };
  if (tech.some((s) => s.industry_code === TOTAL_ALL_INDUSTRIES)) return { cut: true, basis: 'total', share: 1, statements: tech };
  if (!jobsByIndustry || jobsByIndustry.size === 0) return { cut: false, basis: null, share: null, statements: tech };
  let total = 0;
  for (const v of jobsByIndustry.values()) total += v;
  const named = new Set(tech.map((s) => naics3(s.industry_code)));
  let inNamed = 0;
  for (const k of named) inNamed += jobsByIndustry.get(k) ?? 0;
  const share = total > 0 ? inNamed / total : null;
  return { cut: share !== null && share >= materialShare, basis: share !== null && share >= materialShare ? 'industries' : null, share, statements: tech };
}

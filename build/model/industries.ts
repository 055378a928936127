// Industries (NAICS 2022 levels 2-4) with their occupations from OEWS industry estimates.
// Level 2 from the sector file, level 3 from the 3-digit file; level 4 (no OEWS 4-digit file
// here) from the published 5/6-digit children where any exist, else the 3-digit parent.
// OEWS occupation codes map to served O*NET occupations: the O*NET occupations of that SOC
// code, or those whose national OEWS code is that aggregate; employment is split equally.
import type { NaicsCode, OewsIndustryRow } from './inputs.ts';
import { industryId } from './ids.ts';
import { round } from './num.ts';
import type { IndustryOccupationRef, IndustryRecord } from './record-schemas.ts';
import type { ScoredRef } from './transitions.ts';
import { compareText } from './text.ts';

/** Significant digits of an OEWS industry code: '31-33' -> '31', '541330' (5-digit) -> '54133'. */
export const oewsSig = (r: Pick<OewsIndustryRow, 'naics' | 'naics_level'>): string =>
  /^\d{2}-\d{2}$/.test(r.naics) ? r.naics.slice(0, 2) : r.naics.slice(0, r.naics_level);

/** Significant digits of a NAICS code: ranges ('31-33') by their first sector. */
export const naicsSig = (code: string): string => (/^\d{2}-\d{2}$/.test(code) ? code.slice(0, 2) : code);

export interface IndustryInputs {
  naics: readonly NaicsCode[];
  rows: readonly OewsIndustryRow[];
  /** OEWS occupation code -> served O*NET occupations it covers. */
  occupationsOf: (oewsCode: string) => string[];
  scored: ReadonlyMap<string, ScoredRef>;
}

interface Slice {
  level: number;
  codes: string[];
  note: string;
}

export function computeIndustries(inp: IndustryInputs): { industries: IndustryRecord[]; report: Record<string, number> } {
  const chosen = chosenOwnership(inp.rows);
  const sliceFor = slicer(chosen);
  const unmapped = new Set<string>();
  const aggregateOnce = aggregator(chosen, inp, unmapped);

  const report = { industries: 0, level_2: 0, level_3: 0, level_4: 0, with_occupations: 0, level_4_from_children: 0, level_4_from_parent: 0, unmapped_oews_codes: 0 };
  const industries: IndustryRecord[] = [];
  const naics = inp.naics.filter((n) => n.level >= 2 && n.level <= 4);
  for (const n of [...naics].sort((a, b) => a.level - b.level || compareText(a.code, b.code))) {
    const slice = sliceFor(n);
    const { total, occupations, weighted } = aggregateOnce(slice?.codes ?? []);
    industries.push({
      id: industryId(n.code),
      naics_code: n.code,
      title: n.title,
      level: n.level as 2 | 3 | 4,
      occupations_source: slice
        ? { naics_level: slice.level, naics_codes: slice.codes, note: slice.note }
        : {
            naics_level: n.level,
            naics_codes: [],
            // OEWS reports government under its own code 99 (excluding public schools and
            // hospitals), which is not NAICS 92, so it is not mapped.
            note: naicsSig(n.code).startsWith('92')
              ? 'OEWS publishes government as its own industry 99 (not NAICS 92); no occupation estimates for this industry'
              : 'OEWS publishes no occupation estimates for this industry',
          },
      employment: Math.round(total),
      weighted_risk_score: weighted,
      occupations,
    });
    report.industries++;
    report[`level_${n.level}` as 'level_2']++;
    if (occupations.length) report.with_occupations++;
    if (n.level === 4 && slice) report[slice.level >= 5 ? 'level_4_from_children' : 'level_4_from_parent']++;
  }
  report.unmapped_oews_codes = unmapped.size;
  return { industries, report };
}

/** One ownership per OEWS industry code: the one with the largest all-occupations total. */
function chosenOwnership(rows: readonly OewsIndustryRow[]): Map<string, OewsIndustryRow[]> {
  const byCode = new Map<string, OewsIndustryRow[]>();
  for (const r of rows) {
    const rows = byCode.get(r.naics);
    if (rows) rows.push(r);
    else byCode.set(r.naics, [r]);
  }
  const chosen = new Map<string, OewsIndustryRow[]>();
  for (const [code, codeRows] of byCode) {
    const owns = [...new Set(codeRows.map((r) => r.own_code))].sort();
    const total = (own: string) => codeRows.find((r) => r.own_code === own && r.occ_code === '00-0000')?.tot_emp ?? 0;
    const own = owns.reduce((best, o) => (total(o) > total(best) ? o : best), owns[0]!);
    chosen.set(code, codeRows.filter((r) => r.own_code === own));
  }
  return chosen;
}

/** Which OEWS industry codes stand for a NAICS industry (see the file's head), or null when none does. */
function slicer(chosen: ReadonlyMap<string, OewsIndustryRow[]>): (n: NaicsCode) => Slice | null {
  const oewsCodes = [...chosen.keys()].map((code) => ({ code, row: chosen.get(code)![0]! }));
  const sigOf = new Map(oewsCodes.map(({ code, row }) => [code, oewsSig(row)]));
  const atLevel = (lvl: number) => oewsCodes.filter(({ row }) => row.naics_level === lvl);

  return (n: NaicsCode): Slice | null => {
    const sig = naicsSig(n.code);
    if (n.level === 2 || n.level === 3) {
      const codes = atLevel(n.level).filter(({ code }) => sigOf.get(code) === sig).map((x) => x.code);
      return codes.length ? { level: n.level, codes, note: `OEWS ${n.level === 2 ? 'sector' : '3-digit'} estimates` } : null;
    }
    const kids = oewsCodes
      .filter(({ row, code }) => row.naics_level >= 5 && sigOf.get(code)!.startsWith(sig))
      .map(({ code }) => code);
    // Drop a child whose own ancestor is also published, so no employment is counted twice.
    const top = kids.filter((c) => !kids.some((o) => o !== c && sigOf.get(c)!.startsWith(sigOf.get(o)!)));
    if (top.length) {
      const level = Math.min(...top.map((c) => chosen.get(c)![0]!.naics_level));
      return {
        level,
        codes: top.sort(),
        note: 'Sum of the published 5/6-digit industries in this group (OEWS publishes no 4-digit file here); employment and shares may cover only part of the group',
      };
    }
    const parent = atLevel(3).filter(({ code }) => sigOf.get(code) === sig.slice(0, 3)).map((x) => x.code);
    return parent.length
      ? { level: 3, codes: parent, note: 'Occupations of the 3-digit parent subsector (no finer OEWS data published for this group); employment, shares and weighted risk are the subsector\'s, not this group\'s alone' }
      : null;
  };
}

/**
 * Employment per served occupation in a slice's codes, the slice's total, and its employment-weighted
 * score; OEWS codes that cover no served occupation are added to `unmapped`.
 */
function aggregator(chosen: ReadonlyMap<string, OewsIndustryRow[]>, inp: IndustryInputs, unmapped: Set<string>) {
  // The served occupations an OEWS occupation code covers, looked up once per code.
  const servedOf = new Map<string, string[]>();
  const socsOf = (code: string): string[] => {
    let socs = servedOf.get(code);
    if (!socs) servedOf.set(code, (socs = inp.occupationsOf(code).filter((s) => inp.scored.has(s))));
    return socs;
  };
  /** Employment per served occupation in the slice's codes, and the slice's total, largest first. */
  const aggregate = (codes: readonly string[]) => {
    const emp = new Map<string, number>();
    let total = 0;
    for (const code of codes) {
      for (const r of chosen.get(code)!) {
        if (r.tot_emp === null) continue;
        if (r.occ_code === '00-0000') {
          total += r.tot_emp;
          continue;
        }
        if (r.o_group !== 'detailed') continue;
        const socs = socsOf(r.occ_code);
        if (socs.length === 0) {
          unmapped.add(r.occ_code);
          continue;
        }
        for (const s of socs) emp.set(s, (emp.get(s) ?? 0) + r.tot_emp / socs.length);
      }
    }
    if (total === 0) total = [...emp.values()].reduce((a, b) => a + b, 0);
    const occupations: IndustryOccupationRef[] = [...emp]
      .map(([soc, e]) => ({ soc_code: soc, employment: Math.round(e), share: total > 0 ? round(Math.min(1, e / total), 4) : 0 }))
      .filter((o) => o.employment > 0)
      .sort((a, b) => b.employment - a.employment || compareText(a.soc_code, b.soc_code));
    const wsum = occupations.reduce((a, o) => a + o.employment, 0);
    const weighted = wsum > 0 ? round(occupations.reduce((a, o) => a + o.employment * inp.scored.get(o.soc_code)!.final_score, 0) / wsum, 1) : null;
    return { total, occupations, weighted };
  };
  // Many groups share a slice (level-4 groups that take their 3-digit parent's estimates): each
  // distinct slice is summed once, and every industry gets its own copy of the records.
  const slices = new Map<string, ReturnType<typeof aggregate>>();
  return (codes: readonly string[]) => {
    const key = codes.join('|');
    let a = slices.get(key);
    if (!a) {
      slices.set(key, (a = aggregate(codes)));
      return a;
    }
    return { ...a, occupations: a.occupations.map((o) => ({ ...o })) };
  };
}

// Scores for ISCO-08 unit groups, made from the scored O*NET occupations through the BLS
// crosswalks: ISCO-08 -> SOC 2010 (BLS, many-to-many) -> SOC 2018 (BLS) -> the O*NET-SOC 2019
// occupations under each SOC 2018 code. Pure.
//
// Rules (METHODOLOGY "ISCO-08"):
// - A link given at the 3-digit level (ISCO 211 and 315 in the BLS file) stands for every unit
//   group of that minor group the crosswalk names, and counts as a partial link of each.
// - The unit group's occupations are the union of the O*NET occupations reached, each once.
// - Weights: each occupation's U.S. employment weight as the percentile uses it (its OEWS code's
//   employment split equally among the served occupations sharing that code, so nothing is counted
//   twice), normalized to sum to 1. Occupations without employment weigh 0 beside ones with it;
//   when none of the linked occupations has employment, all weigh equally (counted, and the note
//   says so). An occupation's full U.S. employment counts in every unit group it links to: the
//   crosswalk carries no shares (the "part" marker says a link is partial, not how much).
// - Score: the weighted mean of the occupations' final scores, one decimal.
// - Interval: from the lowest score_low to the highest score_high among the occupations with
//   weight, so it covers both their own intervals and the spread between them.
// - Tier: the occupations' tier cuts; confidence: the occupations' interval-width rule.
import { tierFor } from './assess.ts';
import { confidenceFromWidth, intervalWidth } from './displacement.ts';
import { assignSlugs } from './ids.ts';
import type { IscoLink, SocCrosswalkRow } from './inputs.ts';
import { round, roundPreservingSum } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import type { IscoAlternateTitle, IscoRecord, IscoTitlesSeed, IscoUnscored, TierTable } from './record-schemas.ts';

/** What the ISCO scores need of a scored occupation. */
export interface IscoOccupationInput {
  soc_code: string;
  title: string;
  final_score: number;
  score_low: number;
  score_high: number;
  /** Employment weight (employmentWeights in labor.ts); null without employment. */
  weight: number | null;
}

export interface IscoOutput {
  units: IscoRecord[];
  unscored: IscoUnscored[];
  report: Record<string, number>;
}

/** Decimals of a published weight; the weights are rounded so that they still sum to exactly 1. */
export const ISCO_WEIGHT_DECIMALS = 4;

export function computeIsco(
  links: readonly IscoLink[],
  crosswalk: readonly SocCrosswalkRow[],
  occupations: readonly IscoOccupationInput[],
  tiers: TierTable,
  p: ModelParamsSeed,
): IscoOutput {
  const unitTitles = new Map<string, string>();
  for (const l of links) if (l.isco_code.length === 4 && !unitTitles.has(l.isco_code)) unitTitles.set(l.isco_code, l.isco_title);
  const codes = [...unitTitles.keys()].sort();

  // Each unit group's SOC 2010 links: direct, or through its minor group.
  const socLinks = new Map<string, Array<{ soc2010: string; part: boolean; minor: boolean }>>(codes.map((c) => [c, []]));
  let minorLinks = 0;
  let minorExpanded = 0;
  for (const l of links) {
    if (l.isco_code.length === 4) {
      socLinks.get(l.isco_code)!.push({ soc2010: l.soc2010, part: l.part, minor: false });
      continue;
    }
    minorLinks++;
    for (const c of codes.filter((u) => u.startsWith(l.isco_code))) {
      socLinks.get(c)!.push({ soc2010: l.soc2010, part: true, minor: true });
      minorExpanded++;
    }
  }

  const to2018 = new Map<string, string[]>();
  for (const r of crosswalk) to2018.set(r.soc2010, [...(to2018.get(r.soc2010) ?? []), r.soc2018]);
  const bySoc7 = new Map<string, IscoOccupationInput[]>();
  for (const o of occupations) bySoc7.set(o.soc_code.slice(0, 7), [...(bySoc7.get(o.soc_code.slice(0, 7)) ?? []), o]);

  const slugs = assignSlugs(codes.map((c) => ({ soc_code: c, title: unitTitles.get(c)! })));
  const counts = {
    isco_unit_groups: codes.length,
    isco_scored: 0,
    isco_unscored: 0,
    isco_links: links.length,
    isco_links_partial: links.filter((l) => l.part).length,
    isco_minor_group_links: minorLinks,
    isco_minor_group_expanded: minorExpanded,
    isco_soc2010_not_in_crosswalk: 0,
    isco_equal_weights: 0,
  };
  const missing2010 = new Set<string>();
  const units: IscoRecord[] = [];
  const unscored: IscoUnscored[] = [];
  for (const code of codes) {
    const own = socLinks.get(code)!;
    const soc2010 = [...new Set(own.map((l) => l.soc2010))].sort();
    const reached = new Map<string, IscoOccupationInput>();
    for (const s of soc2010) {
      const s2018 = to2018.get(s);
      if (!s2018) missing2010.add(s);
      for (const t of s2018 ?? []) for (const o of bySoc7.get(t) ?? []) reached.set(o.soc_code, o);
    }
    const title = unitTitles.get(code)!;
    const partial = own.some((l) => l.part);
    const viaMinor = own.filter((l) => l.minor).length;
    if (reached.size === 0) {
      counts.isco_unscored++;
      unscored.push({ isco_code: code, title, soc_codes: soc2010, reason: unscoredReason(soc2010, own.length) });
      continue;
    }
    const occ = [...reached.values()].sort((a, b) => (a.soc_code < b.soc_code ? -1 : 1));
    const anyEmployment = occ.some((o) => (o.weight ?? 0) > 0);
    if (!anyEmployment) counts.isco_equal_weights++;
    const raw = occ.map((o) => (anyEmployment ? Math.max(0, o.weight ?? 0) : 1));
    const total = raw.reduce((a, b) => a + b, 0);
    const share = raw.map((w) => w / total);
    const score = round(occ.reduce((a, o, i) => a + share[i]! * o.final_score, 0), 1);
    const weighed = occ.filter((_, i) => raw[i]! > 0);
    const low = Math.min(score, ...weighed.map((o) => o.score_low));
    const high = Math.max(score, ...weighed.map((o) => o.score_high));
    const weights = roundPreservingSum(share, ISCO_WEIGHT_DECIMALS);
    counts.isco_scored++;
    units.push({
      isco_code: code,
      title,
      slug: slugs.get(code)!,
      major_group: code[0]!,
      final_score: score,
      risk_tier: tierFor(score, tiers),
      score_low: low,
      score_high: high,
      confidence: confidenceFromWidth(intervalWidth(low, high), p),
      us_occupations: occ.map((o, i) => ({ soc_code: o.soc_code, title: o.title, weight: weights[i]! })),
      mapping: {
        soc_codes: soc2010.length,
        partial,
        minor_group_links: viaMinor,
        note: mappingNote(soc2010.length, partial, viaMinor, code, anyEmployment),
      },
    });
  }
  counts.isco_soc2010_not_in_crosswalk = missing2010.size;
  return { units, unscored, report: counts };
}

function mappingNote(socCodes: number, partial: boolean, viaMinor: number, code: string, anyEmployment: boolean): string {
  const parts = [
    `Linked by the BLS ISCO-08 / 2010 SOC crosswalk to ${socCodes} U.S. SOC 2010 code${socCodes === 1 ? '' : 's'}, taken to SOC 2018 and to the O*NET occupations under them.`,
    partial ? 'At least one link covers only part of an occupation (the BLS "part" marker); the crosswalk does not say how much, so each linked occupation counts in full.' : 'Every link covers the whole occupation.',
    ...(viaMinor > 0 ? [`${viaMinor} link${viaMinor === 1 ? ' is' : 's are'} given for the whole minor group ${code.slice(0, 3)} and applied to each of its unit groups.`] : []),
    anyEmployment
      ? 'Weights are U.S. employment (OEWS), not employment in any other country; the tasks are those of the U.S. occupations (O*NET).'
      : 'None of the linked occupations has U.S. employment figures, so they weigh equally; the tasks are those of the U.S. occupations (O*NET).',
  ];
  return parts.join(' ');
}

function unscoredReason(soc2010: readonly string[], links: number): string {
  if (links === 0) return 'The BLS crosswalk links it to no U.S. SOC occupation.';
  return `The BLS crosswalk links it only to U.S. SOC code${soc2010.length === 1 ? '' : 's'} ${soc2010.join(', ')}, under which the model scores no O*NET occupation (military occupations and "All Other" residual groups have no O*NET task statements).`;
}

/**
 * The seed's alternate titles with their sources' citations, in the seed's order, and those naming
 * a unit group the model does not score (left out: the page they promise is not built). The build
 * report names them; on the real data there are none (test/contract/isco.test.ts reaches every
 * seed title's unit group), while a small fixture scores few unit groups.
 */
export function iscoAlternateTitles(seed: IscoTitlesSeed, units: readonly IscoRecord[]): { titles: Array<IscoAlternateTitle & { source_title: string; source_url: string }>; unmatched: string[] } {
  const scored = new Set(units.map((u) => u.isco_code));
  return {
    titles: seed.titles.filter((t) => scored.has(t.isco_code)).map((t) => ({ ...t, source_title: seed.sources[t.source]!.title, source_url: seed.sources[t.source]!.url })),
    unmatched: seed.titles.filter((t) => !scored.has(t.isco_code)).map((t) => `${t.title} (${t.isco_code})`),
  };
}

/** ISCO-08's ten major groups (ILO, ISCO-08 Volume I): the first digit of a unit group's code. */
export const ISCO_MAJOR_GROUPS: Readonly<Record<string, string>> = {
  '1': 'Managers',
  '2': 'Professionals',
  '3': 'Technicians and associate professionals',
  '4': 'Clerical support workers',
  '5': 'Service and sales workers',
  '6': 'Skilled agricultural, forestry and fishery workers',
  '7': 'Craft and related trades workers',
  '8': 'Plant and machine operators, and assemblers',
  '9': 'Elementary occupations',
  '0': 'Armed forces occupations',
};

/** A major group's name; a digit ISCO-08 does not have is a programming error. */
export function iscoMajorName(digit: string): string {
  const name = ISCO_MAJOR_GROUPS[digit];
  if (!name) throw new Error(`ISCO-08 major group ${digit} has no name`);
  return name;
}

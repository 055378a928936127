// Figures of the transition options over a whole build (issue 28, item 1): how many lead into a
// licensed profession or a doctoral entry from outside, decline, are small, are not measurably
// safer, come from O*NET's Related Occupations; how many high-tier occupations have two options.
// Pure: the records, the BLS projections and O*NET related occupations of the same build.
import type { Projection, RelatedOccupation } from '../model/inputs.ts';
import type { ModelParamsSeed } from '../model/params.ts';
import { isSpecialty, licenceAllows } from '../model/transitions.ts';

export interface FigureOccupation {
  soc_code: string;
  title: string;
  risk_score: { final_score: number; score_low: number; risk_tier: string };
  labor_data: { employment: number | null; projected_employment_change_pct: number | null };
  transition_options: ReadonlyArray<{ soc_code: string; final_score: number; safer_by?: { low: number; high: number } }>;
  transition_note?: string | null;
}

export interface TransitionFigures {
  origins: number;
  options: number;
  /** Options into a licensed family from outside it, or needing a doctoral/professional degree the origin's entry does not. */
  licence_or_doctorate_from_outside: number;
  licence_from_outside: number;
  doctorate_from_non_doctorate: number;
  declining_pct: number;
  under_10000_jobs_pct: number;
  /** Options whose score is at or above the origin's score_low (inside its interval). */
  inside_origin_interval_pct: number;
  /** Options without safer_by.low > 0 (all of them before safer_by existed). */
  not_safer_under_every_alternative: number;
  onet_related_pct: number;
  /** Options that are O*NET specialties (their jobs and projection are their SOC occupation's), and of those not O*NET-related to the origin. */
  specialty_options: number;
  specialty_not_related: number;
  high_tier: number;
  high_tier_with_2_pct: number;
  with_none: number;
  short_without_note: number;
}

const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((1000 * n) / d) / 10);

export function transitionFigures(occupations: readonly FigureOccupation[], projections: readonly Projection[], related: readonly RelatedOccupation[], p: ModelParamsSeed): TransitionFigures {
  const proj = new Map(projections.filter((r) => r.occupation_type === 'Line item').map((r) => [r.soc, r]));
  const edu = (soc: string) => proj.get(soc.slice(0, 7))?.entry_education ?? null;
  const bySoc = new Map(occupations.map((o) => [o.soc_code, o]));
  const rel = new Set(related.map((r) => `${r.soc_code}>${r.related_soc_code}`));
  const DOC = 'Doctoral or professional degree';
  let options = 0;
  let licence = 0;
  let doctorate = 0;
  let either = 0;
  let declining = 0;
  let small = 0;
  let inside = 0;
  let notSafer = 0;
  let related_ = 0;
  let specialty = 0;
  let specialtyNotRelated = 0;
  let high = 0;
  let high2 = 0;
  let none = 0;
  let shortNoNote = 0;
  for (const o of occupations) {
    const list = o.transition_options;
    if (list.length === 0) none++;
    if (list.length < 2 && !o.transition_note) shortNoNote++;
    if (o.risk_score.risk_tier === 'high') {
      high++;
      if (list.length >= 2) high2++;
    }
    for (const t of list) {
      options++;
      const target = bySoc.get(t.soc_code);
      const l = !licenceAllows(o.soc_code, t.soc_code, p);
      const d = edu(t.soc_code) === DOC && edu(o.soc_code) !== DOC;
      if (l) licence++;
      if (d) doctorate++;
      if (l || d) either++;
      const ch = target?.labor_data.projected_employment_change_pct;
      if (ch != null && ch < 0) declining++;
      const emp = target?.labor_data.employment;
      if (emp == null || emp < 10000) small++;
      if (t.final_score >= o.risk_score.score_low) inside++;
      if (!(t.safer_by && t.safer_by.low > 0)) notSafer++;
      const isRelated = rel.has(`${o.soc_code}>${t.soc_code}`);
      if (isRelated) related_++;
      if (isSpecialty(t.soc_code)) {
        specialty++;
        if (!isRelated) specialtyNotRelated++;
      }
    }
  }
  return {
    origins: occupations.length,
    options,
    licence_or_doctorate_from_outside: either,
    licence_from_outside: licence,
    doctorate_from_non_doctorate: doctorate,
    declining_pct: pct(declining, options),
    under_10000_jobs_pct: pct(small, options),
    inside_origin_interval_pct: pct(inside, options),
    not_safer_under_every_alternative: notSafer,
    onet_related_pct: pct(related_, options),
    specialty_options: specialty,
    specialty_not_related: specialtyNotRelated,
    high_tier: high,
    high_tier_with_2_pct: pct(high2, high),
    with_none: none,
    short_without_note: shortNoNote,
  };
}

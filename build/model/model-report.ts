// The build report of one model run: what was joined, counted and fallen back on, and how the
// scores are distributed. It is printed by the build and kept in the model output, never served.
import type { DraftCounts } from './draft.ts';
import type { EvidenceIndex } from './evidence.ts';
import type { BroadGroupUse, LaborIndex } from './labor.ts';
import { round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import type { ProtectiveResult } from './protective.ts';
import type { ModelOutput, OccupationRecord, RiskTier, UnscoredOccupation } from './record-schemas.ts';
import type { OccupationScores } from './occupation-scores.ts';

export interface ReportParts {
  occupationsInOnet: number;
  occupations: readonly OccupationRecord[];
  unscored: readonly UnscoredOccupation[];
  evidence: EvidenceIndex['report'];
  draftCounts: DraftCounts;
  skillsFill: { release: string | null; occupations: number };
  scores: OccupationScores;
  recordCounts: { skill_gaps_empty: number; transitions_empty: number; year_basis: Record<string, number>; moves_removed?: Record<string, number>; table_1_12?: Record<string, number>; routes?: Record<string, number>; focus?: Record<string, number> };
  coreShare: number;
  taskRatingsUsed: boolean;
  /** Working with AI per-IWA evidence: IWAs read, with a W, below the minimum share; the propensity weight (0: unused). */
  wwai: { iwas_in_file: number; iwas_with_share: number; iwas_below_min_share: number; weight: number };
  protective: ProtectiveResult['report'];
  labor: LaborIndex['report'];
  /** Occupations given a SOC broad group's numbers (labor.ts). */
  broadGroup: LaborIndex['broadGroup'];
  industries: Record<string, number>;
  params: ModelParamsSeed;
  /** ISCO-08 unit groups scored, unscored, links by kind (isco.ts). */
  isco: Record<string, number>;
  /** Seed alternate titles whose unit group the model does not score (left out of search and pages). */
  iscoTitlesUnmatched: string[];
}

/** "15-1250 (May 2025): employment 2,150,000, median wage $X": the group and the numbers it gave. */
export function broadGroupText(u: BroadGroupUse): string {
  const took = [u.employment !== null ? `employment ${u.employment.toLocaleString('en-US')}` : null, u.wage !== null ? `median wage $${u.wage.toLocaleString('en-US')}` : null];
  return `the SOC broad group ${u.code} (${u.period}): ${took.filter((t) => t !== null).join(' and ')}`;
}

const countBy = <T extends string>(xs: T[]) => xs.reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});

export function modelReport(r: ReportParts): ModelOutput['report'] {
  const p = r.params;
  const scores = r.scores.scored.map((x) => x.score).sort((a, b) => a - b);
  const q = (f: number) => scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] ?? null;
  return {
    occupations_in_onet: r.occupationsInOnet,
    occupations_served: r.occupations.length,
    occupations_unscored: r.unscored.length,
    evidence: r.evidence,
    time_weight_sources: r.draftCounts.time_sources,
    skills_filled: r.skillsFill,
    complementarity: {
      theta_min: round(r.scores.thetaMin, 4),
      prior_displacement: round(r.scores.prior, 4),
      education_rl_missing: r.draftCounts.education_missing.rl,
      education_rw_missing: r.draftCounts.education_missing.rw,
    },
    displacement_years: r.recordCounts.year_basis,
    transitions_empty: r.recordCounts.transitions_empty,
    guidance: { moves_removed: r.recordCounts.moves_removed ?? null, table_1_12: r.recordCounts.table_1_12 ?? null, routes: r.recordCounts.routes ?? null, focus: r.recordCounts.focus ?? null },
    tasks: {
      ...r.draftCounts.tasks,
      blank_type_weight: round(r.coreShare * p.time_weights.core.value + (1 - r.coreShare) * p.time_weights.supplemental.value, 4),
      core_share: round(r.coreShare, 4),
      task_ratings_used: r.taskRatingsUsed,
    },
    working_with_ai: r.wwai,
    task_categories: r.draftCounts.categories,
    protective_factor_sources: r.protective,
    labor: r.labor,
    // Named one by one (the build prints them, and beside the rejected rows those that caused them).
    ...(r.broadGroup.size > 0 ? { oews_broad_group: Object.fromEntries([...r.broadGroup].sort(([a], [b]) => (a < b ? -1 : 1)).map(([soc, u]) => [soc, broadGroupText(u)])) } : {}),
    skill_gaps_empty: r.recordCounts.skill_gaps_empty,
    industries: r.industries,
    isco: r.isco,
    isco_alternate_titles_unmatched: r.iscoTitlesUnmatched,
    tier_distribution: countBy(r.occupations.map((o) => o.risk_score.risk_tier as RiskTier)),
    confidence_distribution: countBy(r.occupations.map((o) => o.risk_score.confidence)),
    score_quantiles: { min: q(0), p10: q(0.1), p25: q(0.25), median: q(0.5), p75: q(0.75), p90: q(0.9), max: scores.at(-1) ?? null },
  };
}

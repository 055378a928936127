// The published occupation records: ranks across occupations (employment-weighted percentiles,
// tiers, slugs), the adoption window, transitions and skill gaps (these need every score), votes.
import { tierFor } from './assess.ts';
import { complementarityMultiplier } from './complementarity.ts';
import type { Draft } from './draft.ts';
import { releaseYears } from './evidence.ts';
import { explainScore, explanationBaseline } from './explanation.ts';
import { skillGaps, transitionChoice, transitionNote, type ScoredRef } from './transitions.ts';
import { assignSlugs, occupationId } from './ids.ts';
import type { RelatedOccupation, VoteRow } from './inputs.ts';
import { employmentWeights, type LaborIndex } from './labor.ts';
import { round } from './num.ts';
import type { Seeds } from './params.ts';
import type { DescriptorIndex } from './protective.ts';
import type { OccupationRecord, TierTable } from './record-schemas.ts';
import type { OccupationScores } from './occupation-scores.ts';
import { employmentPercentiles } from './percentiles.ts';
import { buildProfiles, profileOf, similaritiesAtLeast, unitZ } from './similarity.ts';
import { adoptionYears } from './displacement-years.ts';
import { voteStats } from './vote-stats.ts';
import { confidenceFromEvidence, percentileRanges, tierShares } from './uncertainty.ts';

export interface RecordContext {
  seeds: Seeds;
  tiers: TierTable;
  labor: LaborIndex;
  descriptors: DescriptorIndex;
  /** AEI releases, oldest first (the adoption window's observed points). */
  releases: readonly string[];
  skillRelease: (soc: string) => string;
  knowledgeRelease: string;
  votes: readonly VoteRow[] | null;
  /** O*NET Related Occupations (each occupation's list, with its tiers). */
  related: readonly RelatedOccupation[];
  /** Whether the AEI usage level agrees across releases enough to set the adoption level (evidence report). */
  usageLevelSignal: boolean;
}

/** Every served occupation as a reference other occupations' transitions can point to. */
export function scoredRefs(scores: OccupationScores, ctx: Pick<RecordContext, 'labor' | 'tiers'>): ScoredRef[] {
  const slugs = assignSlugs(scores.scored.map(({ d }) => ({ soc_code: d.soc, title: d.title })));
  return scores.scored.map(({ d, score, alternatives }) => {
    const labor = ctx.labor.data.get(d.soc)!;
    return {
      soc_code: d.soc,
      title: d.title,
      slug: slugs.get(d.soc)!,
      final_score: score,
      risk_tier: tierFor(score, ctx.tiers),
      job_zone: d.job_zone,
      median_annual_wage: labor.median_annual_wage,
      alternatives,
      entry_education: labor.entry_education,
      related_experience: labor.related_experience,
      on_the_job_training: labor.on_the_job_training,
      employment: labor.employment,
      projected_change_pct: labor.projected_employment_change_pct,
      projected_openings_annual: labor.projected_openings_annual,
    };
  });
}

export function occupationRecords(scores: OccupationScores, refs: readonly ScoredRef[], ctx: RecordContext) {
  const p = ctx.seeds.params;
  const { scored, thetaMin, kappa } = scores;
  const drafts: Draft[] = scored.map((x) => x.d);
  const empWeight = employmentWeights(ctx.labor);
  const percentiles = employmentPercentiles(scored.map(({ d, score }) => ({ score, employment: empWeight.get(d.soc) ?? null })));
  // alternatives[0] is the base model's score: the ranges and shares are over the sampled alternatives.
  const percentileRange = percentileRanges(
    percentiles,
    scored.map((x) => x.alternatives.slice(1)),
    scored.map(({ d }) => empWeight.get(d.soc) ?? null),
    p.interval.quantile.value,
  );
  const refBySoc = new Map(refs.map((r) => [r.soc_code, r]));
  // One job pool per OEWS code: who shares it (the labor numbers are the code's, not the occupation's).
  const pool = new Map<string, string[]>();
  for (const { d } of scored) {
    const code = ctx.labor.data.get(d.soc)!.oews_code;
    if (code !== null) pool.set(code, [...(pool.get(code) ?? []), d.soc]);
  }
  // Similarity profiles: O*NET descriptors, plus each occupation's IWA time shares.
  const profiles = buildProfiles(drafts.map((d) => d.soc), ctx.descriptors, ctx.seeds.protective.importance_exponent.value);
  profiles.sets.push(unitZ(new Map(drafts.map((d) => [d.soc, d.iwa_profile])), true));
  // Aligned with refs, the candidates of every transition.
  const refProfiles = refs.map((r) => profileOf(profiles, r.soc_code));

  const tY = ctx.releases.map(releaseYears);
  const meanUsage = drafts.reduce((a, d) => a + d.adoption.usage, 0) / Math.max(1, drafts.length);
  const votes = new Map((ctx.votes ?? []).map((v) => [v.soc_code, v]));
  const relatedOf = new Map<string, Map<string, string>>();
  for (const r of ctx.related) {
    const m = relatedOf.get(r.soc_code) ?? new Map<string, string>();
    if (!m.has(r.related_soc_code)) m.set(r.related_soc_code, r.tier);
    relatedOf.set(r.soc_code, m);
  }
  const baseline = explanationBaseline(drafts.map((d) => ({ layers: d.base, parts: d.parts })));
  const steps = { thetaMin, kappa, prior: scores.prior, priorTasks: p.scale.prior_tasks.value, halfSaturation: p.scale.half_saturation.value };
  const counts = { skill_gaps_empty: 0, transitions_empty: 0, transitions_short: 0, year_basis: { aei_level: 0, published_range: 0, negligible: 0, one_year_windows: 0 } };
  const occupations: OccupationRecord[] = scored.map(({ d, score, low, high, alternatives }, i) => {
    const years = adoptionYears({ usage_index: meanUsage > 0 ? d.adoption.usage / meanUsage : 0, level_signal: ctx.usageLevelSignal, t_latest: tY.at(-1) ?? 0 }, score, p);
    counts.year_basis[years.basis]++;
    if (years.negligible) counts.year_basis.negligible++;
    if (years.low === years.high) counts.year_basis.one_year_windows++;
    const origin = refBySoc.get(d.soc)!;
    const own = profileOf(profiles, d.soc);
    const { options: transitions, removed } = transitionChoice(
      origin,
      refs,
      (picked, atLeast) => similaritiesAtLeast(own, picked.map((i) => refProfiles[i]!), atLeast),
      p,
      relatedOf.get(d.soc),
    );
    const note = transitionNote(transitions.length, removed, p);
    if (note !== null) counts.transitions_short++;
    const gaps = skillGaps(
      { skills: ctx.descriptors.skills.get(d.soc), knowledge: ctx.descriptors.knowledge.get(d.soc) },
      transitions.map((t) => ({ soc_code: t.soc_code, skills: ctx.descriptors.skills.get(t.soc_code), knowledge: ctx.descriptors.knowledge.get(t.soc_code) })),
      p,
      { skills: ctx.skillRelease(d.soc), knowledge: ctx.knowledgeRelease },
    );
    if (gaps.length === 0) counts.skill_gaps_empty++;
    if (transitions.length === 0) counts.transitions_empty++;
    const v = votes.get(d.soc);
    const multiplier = complementarityMultiplier(d.theta, thetaMin, kappa);
    const shares = tierShares(alternatives.slice(1), ctx.tiers);
    const agreement = round(d.agreement, 4);
    const coverage = round(d.base.coverage, 4);
    const confidence = confidenceFromEvidence({ tier_share: shares[origin.risk_tier], label_agreement: agreement, label_coverage: coverage }, p);
    return {
      id: occupationId(d.soc),
      soc_code: d.soc,
      title: d.title,
      slug: origin.slug,
      job_zone: d.job_zone,
      description: d.description,
      labor_data: ((l) => ({
        ...l,
        employment_shared_with: l.oews_code === null ? [] : pool.get(l.oews_code)!.filter((s) => s !== d.soc),
        employment_own_share: empWeight.get(d.soc) === undefined || empWeight.get(d.soc) === null ? null : round(empWeight.get(d.soc)!, 1),
      }))(ctx.labor.data.get(d.soc)!),
      risk_score: {
        final_score: score,
        risk_tier: origin.risk_tier,
        confidence,
        risk_percentile: percentiles[i]!,
        percentile_low: percentileRange[i]!.low,
        percentile_high: percentileRange[i]!.high,
        displacement_year_low: years.low,
        displacement_year_high: years.high,
        task_exposure: round(100 * d.base.substitution_exposure, 1),
        protective_moderation: round(multiplier, 4),
        label_coverage: coverage,
        label_agreement: agreement,
        exposure_score: round(100 * d.base.exposure, 1),
        complementarity: round(d.theta, 4),
        score_low: round(low, 1),
        score_high: round(high, 1),
        interval_crosses_tier: tierFor(round(low, 1), ctx.tiers) !== tierFor(round(high, 1), ctx.tiers),
        tier_shares: shares,
        time_weight_source: d.time_source,
        model_version: p.model_version,
      },
      explanation: explainScore({ layers: d.base, terms: d.terms, tasks: d.input_tasks, parts: d.parts, theta: d.theta }, baseline, steps, score, d.title),
      protective_factors: d.protective,
      tasks: d.tasks,
      skill_gaps: gaps,
      transition_options: transitions,
      transition_note: note,
      votes: voteStats(v ?? { agree: 0, too_high: 0, too_low: 0 }),
    };
  });
  return { occupations, counts };
}

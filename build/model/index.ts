// computeModel: the whole risk model as one pure function of its inputs (ModelInputs, which the
// source loaders produce) and the seeds. Order: evidence joins -> who is served -> per-occupation
// drafts (tasks, time weights, categories, layers) -> occupation scores -> records (ranks, tiers,
// percentiles, years, transitions and skill gaps, which need every score) -> industries -> report.
import { anchorIndex } from './level-anchors.ts';
import { buildEvidence } from './evidence.ts';
import { draftOccupation, newDraftCounts, type DraftContext } from './draft.ts';
import { slugify } from './ids.ts';
import { computeIndustries } from './industries.ts';
import type { ModelInputs } from './inputs.ts';
import { computeIsco, iscoAlternateTitles } from './isco.ts';
import { computeLabor, employmentWeights } from './labor.ts';
import { modelReport } from './model-report.ts';
import { groupBy } from './num.ts';
import { occupationRecords, scoredRefs } from './occupation-records.ts';
import { scoreOccupations, type OccupationScores } from './occupation-scores.ts';
import type { Seeds } from './params.ts';
import { computeProtective } from './protective.ts';
import type { FactorsTable, ModelOutput, TierTable } from './record-schemas.ts';
import { selectServed } from './served.ts';
import { descriptorsWithSkillsFill } from './skills-fill.ts';
import { coreShare } from './task-time.ts';
import { wwaiIndex } from './wwai.ts';
import { taskBasis } from './task-assess.ts';
import { intervalAlternatives } from './interval.ts';
import { employmentByYear } from './job-evidence.ts';

export type { Seeds } from './params.ts';

/**
 * The published factor table. `exposures`: every scored occupation's exposure_score, from which
 * a factor's exposure rule gets its threshold (the exposure_score at its quantile, nearest rank).
 */
export function factorsTable(seeds: Seeds, exposures: readonly number[]): FactorsTable {
  const sorted = [...exposures].sort((a, b) => a - b);
  const out: FactorsTable = {};
  for (const name of Object.keys(seeds.factors.factors).sort()) {
    const f = seeds.factors.factors[name]!;
    const rule = f.exposure_rule;
    if (rule && sorted.length === 0) throw new Error(`factor ${name}: an exposure rule needs scored occupations`);
    const min = rule ? sorted[Math.min(sorted.length - 1, Math.ceil(rule.quantile * sorted.length) - 1)]! : undefined;
    out[name] = f.options.map((o) => (min === undefined ? { value: o.value, label: o.label, adjustment: o.adjustment } : { value: o.value, label: o.label, adjustment: o.adjustment, min_exposure: min }));
  }
  return out;
}

export const tierTable = (seeds: Seeds): TierTable => seeds.tiers.tiers.map((t) => ({ tier: t.tier, min: t.min }));

export interface ComputeOptions {
  /** Handed the scores the records are cut from (npm run validate measures the interval's coverage with them: validation/interval-check.ts). */
  withScores?: (scores: OccupationScores, tiers: TierTable) => void;
  /** Moves by the 3.0 rules only, no routes or focus (npm run validate's 'before' column). */
  moveRules30?: boolean;
}

export function computeModel(inputs: ModelInputs, seeds: Seeds, opts: ComputeOptions = {}): ModelOutput {
  const p = seeds.params;
  const tiers = tierTable(seeds);
  const evidence = buildEvidence(inputs, p);
  const { served, unscored } = selectServed(inputs, evidence.labels);
  const servedSocs = served.map((s) => s.soc);
  const skills = descriptorsWithSkillsFill(inputs, new Set(servedSocs));
  const protective = computeProtective(servedSocs, skills.descriptors, seeds.protective);
  const labor = computeLabor(servedSocs, inputs.oews_national, inputs.projections, p);

  const releases = evidence.report.aei_releases;
  const { ctx, wwai, share } = draftContext(inputs, seeds, evidence, skills.descriptors, protective);
  const draftCounts = newDraftCounts();
  const drafts = served.map((occ) => draftOccupation(occ, ctx, draftCounts));

  const scores = scoreOccupations(drafts, p);
  const refs = scoredRefs(scores, { labor, tiers, seeds });
  // Drawn once (the same seeded draw for every occupation): drawing them per occupation was a second of a cold build.
  const alternatives = intervalAlternatives(p, 'construction');
  const taskBases = new Map(scores.scored.map((s) => [s.d.soc, taskBasis(s.d, alternatives, p, scores)]));
  const { occupations, counts: recordCounts } = occupationRecords(scores, refs, {
    seeds,
    tiers,
    labor,
    descriptors: skills.descriptors,
    levelAnchors: anchorIndex(inputs.level_anchors),
    releases,
    skillRelease: skills.skillRelease,
    knowledgeRelease: inputs.onet_version,
    votes: inputs.votes,
    related: inputs.related,
    usageLevelSignal: (evidence.report.usage_level_signal.spearman ?? -Infinity) >= p.timeline.level_min_spearman.value,
    epFactors: inputs.ep_factors,
    oewsIndustry: inputs.oews_industry,
    employmentYears: employmentByYear([...inputs.oews_history, ...inputs.oews_national]),
    projections: inputs.projections,
    taskBases,
    moveRules30: opts.moveRules30 ?? false,
  });

  // OEWS occupation code -> served occupations (direct SOC, or the aggregate they resolved to).
  const scored = new Map(refs.map((r) => [r.soc_code, r]));
  const bySoc7 = groupBy(servedSocs, (soc) => soc.slice(0, 7));
  const byOews = groupBy([...labor.oewsCode].filter(([s]) => scored.has(s)), ([, c]) => c);
  const occupationsOf = (code: string): string[] => bySoc7.get(code) ?? (byOews.get(code) ?? []).map(([s]) => s);
  const ind = computeIndustries({ naics: inputs.naics, rows: inputs.oews_industry, occupationsOf, scored });

  const empWeight = employmentWeights(labor);
  const isco = computeIsco(
    inputs.isco_links,
    inputs.soc_crosswalk,
    occupations.map((o) => ({ soc_code: o.soc_code, title: o.title, final_score: o.risk_score.final_score, score_low: o.risk_score.score_low, score_high: o.risk_score.score_high, weight: empWeight.get(o.soc_code) ?? null })),
    tiers,
    p,
  );
  const alternates = iscoAlternateTitles(seeds.isco_titles, isco.units);

  const oewsPeriod = inputs.oews_national[0]?.period ?? 'n/a';
  opts.withScores?.(scores, tiers);
  return {
    meta: {
      data_version: `onet-${inputs.onet_version}+oews-${slugify(oewsPeriod)}+model-${p.model_version}`,
      onet_version: inputs.onet_version,
      oews_period: oewsPeriod,
      projections_period: '2024-34',
      model_version: p.model_version,
      attribution: inputs.attribution,
    },
    occupations,
    unscored,
    industries: ind.industries,
    factors: factorsTable(seeds, occupations.map((o) => o.risk_score.exposure_score)),
    factor_notes: Object.fromEntries(Object.keys(seeds.factors.factors).sort().map((k) => [k, seeds.factors.factors[k]!.rationale])),
    tiers,
    job_zone_names: [...inputs.job_zone_names].sort((a, b) => a.job_zone - b.job_zone),
    task_bases: Object.fromEntries(taskBases),
    task_scale: { prior: scores.prior, half_saturation: p.scale.half_saturation.value, quantile: p.interval.quantile.value },
    isco: { units: isco.units, unscored: isco.unscored, alternate_titles: alternates.titles },
    report: modelReport({
      occupationsInOnet: inputs.occupations.length,
      occupations,
      unscored,
      evidence: evidence.report,
      draftCounts,
      skillsFill: { release: inputs.skills_fill?.release ?? null, occupations: skills.filled.size },
      scores,
      recordCounts,
      coreShare: share,
      taskRatingsUsed: inputs.task_ratings !== null,
      wwai: { iwas_in_file: inputs.wwai_iwa.length, iwas_with_share: wwai.byIwa.size, iwas_below_min_share: wwai.belowMinShare, weight: p.propensity.wwai.value.weight },
      protective: protective.report,
      labor: labor.report,
      broadGroup: labor.broadGroup,
      industries: ind.report,
      params: p,
      isco: isco.report,
      iscoTitlesUnmatched: alternates.unmatched,
    }),
  };
}

/** What drafting every occupation reads: the evidence, descriptors and the task-to-activity indexes. */
function draftContext(inputs: ModelInputs, seeds: Seeds, evidence: DraftContext['evidence'], descriptors: DraftContext['descriptors'], protective: DraftContext['protective']) {
  const p = seeds.params;
  const releases = evidence.report.aei_releases;
  const iwaWeights = new Map<string, Map<string, number>>();
  for (const w of inputs.iwa_weights) {
    const m = iwaWeights.get(w.soc) ?? new Map<string, number>();
    m.set(w.iwa_id, w.weight);
    iwaWeights.set(w.soc, m);
  }
  const wwai = wwaiIndex(inputs.wwai_iwa, p.propensity.wwai.value.min_share);
  const share = coreShare(inputs.tasks);
  const ctx: DraftContext = {
    seeds,
    evidence,
    descriptors,
    protective,
    education: groupBy(inputs.education, (e) => `${e.soc_code}|${e.scale_id}`),
    dwasByTask: groupBy(inputs.task_dwas, (d) => d.task_id),
    knownDwas: new Set(inputs.dwa_reference.map((d) => d.dwa_id)),
    iwaOfDwa: new Map(inputs.dwa_reference.map((d) => [d.dwa_id, d.iwa_id])),
    iwaWeights,
    wwaiByIwa: wwai.byIwa,
    ratingsByTask: inputs.task_ratings ? groupBy(inputs.task_ratings, (r) => r.task_id) : null,
    coreShare: share,
    firstRelease: releases[0] ?? null,
    latestRelease: releases.at(-1) ?? null,
  };
  return { ctx, wwai, share };
}

// computeModel: the whole risk model as one pure function of the source bundle and the seeds.
// Order: evidence joins -> per-task scores -> occupation scores -> ranks (tiers, percentiles,
// years) -> skill gaps and transitions (need every score) -> industries -> report.
import type { SourceBundle, TaskRating, TaskStatement } from '../sources/bundle.ts';
import { tierFor } from './assess.ts';
import { automationPropensity, capabilityScore, labelAgreement, labelScore, labelsOf, taskRisk } from './capability.ts';
import { gwaOfDwa, keywordCategory, majorityCategory, voteCategory } from './categories.ts';
import { buildEvidence } from './evidence.ts';
import { skillGaps, transitionOptions, type ScoredRef } from './gaps.ts';
import { assignSlugs, occupationId, slugify } from './ids.ts';
import { computeIndustries } from './industries.ts';
import { computeLabor, employmentWeights } from './labor.ts';
import { round, roundPreservingSum } from './num.ts';
import type { Seeds } from './params.ts';
import { computeProtective, indexDescriptors, moderation, protectiveIndex } from './protective.ts';
import type {
  Confidence,
  FactorsTable,
  ModelOutput,
  OccupationRecord,
  RiskTier,
  TaskCategory,
  TaskRecord,
  TierTable,
  UnscoredOccupation,
} from './records.ts';
import { confidenceIndex, confidenceLevel, employmentPercentiles, finalScore } from './scoring.ts';
import { displacementYears } from './timeline.ts';
import { coreShare, taskWeights, toFractions } from './time.ts';
import { voteStats } from './votes.ts';
import { compareText } from './text.ts';

export type { Seeds } from './params.ts';

export const ATTRIBUTION = [
  'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. O*NET is a trademark of USDOL/ETA. The O*NET information was modified: task statements, ratings and links were combined with other sources and rescored by this project; USDOL/ETA has not approved, endorsed, or tested these modifications.',
  'O*NET 30.0 Abilities, Work Activities and Knowledge ratings (USDOL/ETA, CC BY 4.0), as re-tabulated by the standards.org.ai project (CC BY-SA 4.0).',
  'U.S. Bureau of Labor Statistics: Occupational Employment and Wage Statistics (May 2025, May 2024) and Employment Projections 2024-34 (public domain).',
  'U.S. Census Bureau: North American Industry Classification System 2022 (public domain).',
  'Eloundou, Manning, Mishkin and Rock (2023/2024), "GPTs are GPTs", task exposure labels (MIT License, Copyright (c) 2024 OpenAI).',
  'Anthropic Economic Index, releases 2025-02-10 to 2026-03-24 (Anthropic, MIT License per the dataset card).',
  'Tomlinson, Jaffe, Wang, Counts and Suri (2025), "Working with AI", Microsoft Research (CC BY 4.0), used for validation only.',
  'Adoption scenarios: McKinsey Global Institute (2023), "The economic potential of generative AI: The next productivity frontier".',
];

export function factorsTable(seeds: Seeds): FactorsTable {
  const out: FactorsTable = {};
  for (const name of Object.keys(seeds.factors.factors).sort()) {
    out[name] = seeds.factors.factors[name]!.options.map((o) => ({ value: o.value, label: o.label, adjustment: o.adjustment }));
  }
  return out;
}

export const tierTable = (seeds: Seeds): TierTable => seeds.tiers.tiers.map((t) => ({ tier: t.tier, min: t.min }));

interface Draft {
  soc: string;
  title: string;
  description: string;
  job_zone: number;
  tasks: TaskRecord[];
  exposure: number;
  moderation: number;
  coverage: number;
  agreement: number;
  confidence: Confidence;
  confidence_index: number;
  score: number;
  protective: Record<string, number>;
}

const groupBy = <T, K>(xs: readonly T[], key: (x: T) => K): Map<K, T[]> => {
  const m = new Map<K, T[]>();
  for (const x of xs) {
    const k = key(x);
    const arr = m.get(k);
    if (arr) arr.push(x);
    else m.set(k, [x]);
  }
  return m;
};

export function computeModel(bundle: SourceBundle, seeds: Seeds): ModelOutput {
  const p = seeds.params;
  const tiers = tierTable(seeds);
  const evidence = buildEvidence(bundle, p);
  const tasksBySoc = groupBy(bundle.tasks, (t) => t.soc_code);
  const jobZone = new Map(bundle.job_zones.map((j) => [j.soc_code, j.job_zone]));
  const ratingsByTask: Map<number, TaskRating[]> | null = bundle.task_ratings ? groupBy(bundle.task_ratings, (r) => r.task_id) : null;
  const share = coreShare(bundle.tasks);

  // Who is served: task statements, at least one exposure label, a job zone.
  const unscored: UnscoredOccupation[] = [];
  const served: Array<{ soc: string; title: string; description: string; job_zone: number; tasks: TaskStatement[] }> = [];
  for (const o of [...bundle.occupations].sort((a, b) => compareText(a.soc_code, b.soc_code))) {
    const tasks = tasksBySoc.get(o.soc_code) ?? [];
    const jz = jobZone.get(o.soc_code);
    let reason: string | null = null;
    if (tasks.length === 0) reason = `No task statements in O*NET ${bundle.onet_version} (O*NET has not collected task data for this occupation).`;
    else if (!tasks.some((t) => evidence.labels.has(t.task_id))) reason = `None of its ${tasks.length} tasks has an exposure label (Eloundou et al. labelled O*NET 27 tasks).`;
    else if (jz === undefined) reason = 'No O*NET Job Zone.';
    if (reason) unscored.push({ soc_code: o.soc_code, title: o.title, reason });
    else served.push({ soc: o.soc_code, title: o.title, description: o.description, job_zone: jz!, tasks: [...tasks].sort((a, b) => a.task_id - b.task_id) });
  }

  const descriptors = indexDescriptors(bundle);
  const protective = computeProtective(served.map((s) => s.soc), descriptors, seeds.protective);
  const labor = computeLabor(served.map((s) => s.soc), bundle.oews_national, bundle.projections, p);

  const dwasByTask = groupBy(bundle.task_dwas, (d) => d.task_id);
  const knownDwas = new Set(bundle.dwa_reference.map((d) => d.dwa_id));
  const counts = {
    tasks_served: 0,
    tasks_label_missing: 0,
    tasks_label_human_missing: 0,
    tasks_label_gpt4_missing: 0,
    tasks_automation_level_missing: 0,
    tasks_category_dwa: 0,
    tasks_category_keyword: 0,
    tasks_category_occupation_majority: 0,
    tasks_category_last_resort: 0,
    tasks_dwa_links: 0,
    tasks_dwa_links_unknown: 0,
    tasks_with_usage: 0,
    tasks_type_blank: 0,
  };
  const categoryCounts: Record<TaskCategory, number> = {
    non_routine_analytical: 0,
    non_routine_interpersonal: 0,
    routine_cognitive: 0,
    routine_manual: 0,
    non_routine_manual: 0,
  };

  const drafts: Draft[] = served.map((occ) => {
    const wa = descriptors.work_activities.get(occ.soc) ?? descriptors.work_activities.get(`${occ.soc.slice(0, 7)}.00`);
    const importance = (gwa: string) => wa?.get(gwa)?.importance ?? 3;
    const weights = taskWeights(occ.tasks, share, p, ratingsByTask);
    const fractions = toFractions(weights);

    // Categories: DWA vote first, then keywords, then the occupation's DWA majority.
    const cats: Array<{ category: TaskCategory | null; source: 'dwa' | 'keyword'; how: string }> = occ.tasks.map((t) => {
      const links = (dwasByTask.get(t.task_id) ?? []).filter((d) => d.soc_code === occ.soc);
      counts.tasks_dwa_links += links.length;
      const known = links.filter((d) => knownDwas.has(d.dwa_id) || seeds.task_categories.gwas[gwaOfDwa(d.dwa_id)]);
      counts.tasks_dwa_links_unknown += links.length - known.length;
      const voted = voteCategory(known.map((d) => gwaOfDwa(d.dwa_id)), importance, seeds.task_categories);
      if (voted) return { category: voted, source: 'dwa', how: 'dwa' };
      const kw = keywordCategory(t.task, seeds.task_categories);
      return { category: kw, source: 'keyword', how: kw ? 'keyword' : 'pending' };
    });
    const majority = majorityCategory(
      cats.flatMap((c, i) => (c.source === 'dwa' && c.category ? [{ category: c.category, weight: fractions[i]! }] : [])),
      seeds.task_categories,
    );
    const categories = cats.map((c) => {
      if (c.category) return c.category;
      c.how = majority ? 'occupation_majority' : 'last_resort';
      return majority ?? seeds.task_categories.last_resort.value;
    });

    // Labels: a task without any label takes the occupation's time-weighted mean label value.
    const L = occ.tasks.map((t) => {
      const l = labelsOf(evidence.labels.get(t.task_id));
      return labelScore(l.human, l.gpt4, p);
    });
    let lsum = 0;
    let lw = 0;
    L.forEach((v, i) => {
      if (v !== null) [lsum, lw] = [lsum + v * fractions[i]!, lw + fractions[i]!];
    });
    const meanLabel = lw > 0 ? lsum / lw : 0;

    let exposure = 0;
    let coverage = 0;
    let agreeSum = 0;
    let agreeW = 0;
    let dwaTime = 0;
    const rounded = roundPreservingSum(fractions, 4);
    const tasks: TaskRecord[] = occ.tasks.map((t, i) => {
      const l = labelsOf(evidence.labels.get(t.task_id));
      const usage = evidence.usage.get(t.task_id);
      const aeiShare = evidence.automationShare.get(t.task_id) ?? null;
      const cap = capabilityScore(L[i] ?? meanLabel, usage?.intensity ?? 0, p);
      const prop = automationPropensity(l.automation, aeiShare, p);
      const category = categories[i]!;
      const risk = taskRisk(cap, prop, p.category_factors.value[category]);
      const tf = fractions[i]!;
      exposure += tf * risk;
      if (L[i] !== null) coverage += tf;
      const ag = labelAgreement(l.human, l.gpt4, p);
      if (ag !== null) [agreeSum, agreeW] = [agreeSum + ag * tf, agreeW + tf];
      if (cats[i]!.source === 'dwa') dwaTime += tf;

      counts.tasks_served++;
      if (L[i] === null) counts.tasks_label_missing++;
      if (l.human === null) counts.tasks_label_human_missing++;
      if (l.gpt4 === null) counts.tasks_label_gpt4_missing++;
      if (l.automation === null) counts.tasks_automation_level_missing++;
      if (usage) counts.tasks_with_usage++;
      if (t.task_type === null) counts.tasks_type_blank++;
      const how = cats[i]!.how;
      if (how === 'dwa') counts.tasks_category_dwa++;
      else if (how === 'keyword') counts.tasks_category_keyword++;
      else if (how === 'occupation_majority') counts.tasks_category_occupation_majority++;
      else counts.tasks_category_last_resort++;
      categoryCounts[category]++;

      return {
        task_id: t.task_id,
        description: t.task,
        task_type: t.task_type,
        task_category: category,
        category_source: cats[i]!.source,
        ai_capability_score: round(cap, 4),
        automation_propensity: round(prop, 4),
        task_risk_score: round(risk, 4),
        time_fraction: rounded[i]!,
        evidence: {
          human_label: l.human,
          gpt4_label: l.gpt4,
          gpt4_automation: l.automation,
          aei_usage_pct: usage ? usage.latest_pct : null,
          aei_automation_share: aeiShare === null ? null : round(aeiShare, 4),
        },
      };
    });

    const prot = protective.values.get(occ.soc)!;
    const m = moderation(protectiveIndex(prot, seeds.protective), p.moderation.strength.value);
    const agreement = agreeW > 0 ? agreeSum / agreeW : 0;
    const lab = labor.data.get(occ.soc)!;
    const own = (s: keyof typeof descriptors) => (descriptors[s].has(occ.soc) ? 1 : 0);
    // Completeness: own O*NET ratings in each descriptor, wage, employment, DWA-linked time.
    const completeness =
      (own('abilities') + own('work_activities') + own('skills') + own('knowledge') +
        (lab.median_annual_wage_status === 'unavailable' ? 0 : 1) + (lab.employment === null ? 0 : 1) + dwaTime) / 7;
    const ci = confidenceIndex({ agreement, coverage, completeness }, p);
    const score = finalScore(exposure, m, p);
    return {
      soc: occ.soc,
      title: occ.title,
      description: occ.description,
      job_zone: occ.job_zone,
      tasks: [...tasks].sort(
        (a, b) => b.time_fraction * b.task_risk_score - a.time_fraction * a.task_risk_score || a.task_id - b.task_id,
      ),
      exposure,
      moderation: m,
      coverage,
      agreement,
      confidence: confidenceLevel(ci, p),
      confidence_index: ci,
      score,
      protective: Object.fromEntries(Object.entries(prot).map(([k, v]) => [k, round(v, 4)])),
    };
  });

  // Ranks across occupations.
  const empWeight = employmentWeights(labor);
  const percentiles = employmentPercentiles(drafts.map((d) => ({ score: d.score, employment: empWeight.get(d.soc) ?? null })));
  const slugs = assignSlugs(drafts.map((d) => ({ soc_code: d.soc, title: d.title })));
  const scored = new Map<string, ScoredRef>(
    drafts.map((d) => [d.soc, { soc_code: d.soc, title: d.title, slug: slugs.get(d.soc)!, final_score: d.score, risk_tier: tierFor(d.score, tiers) }]),
  );

  const relatedBySoc = groupBy(bundle.related, (r) => r.soc_code);
  const votes = new Map((bundle.votes ?? []).map((v) => [v.soc_code, v]));
  let gapsEmpty = 0;
  const occupations: OccupationRecord[] = drafts.map((d, i) => {
    const years = displacementYears(d.score, p);
    const transitions = transitionOptions(d.score, relatedBySoc.get(d.soc) ?? [], scored, p);
    const gaps = skillGaps(
      descriptors.skills.get(d.soc),
      transitions.map((t) => descriptors.skills.get(t.soc_code)),
      p,
    );
    if (gaps.length === 0) gapsEmpty++;
    const v = votes.get(d.soc);
    return {
      id: occupationId(d.soc),
      soc_code: d.soc,
      title: d.title,
      slug: slugs.get(d.soc)!,
      job_zone: d.job_zone,
      description: d.description,
      labor_data: labor.data.get(d.soc)!,
      risk_score: {
        final_score: d.score,
        risk_tier: scored.get(d.soc)!.risk_tier,
        confidence: d.confidence,
        risk_percentile: percentiles[i]!,
        displacement_year_low: years.low,
        displacement_year_high: years.high,
        task_exposure: round(100 * d.exposure, 1),
        protective_moderation: round(d.moderation, 4),
        label_coverage: round(d.coverage, 4),
        label_agreement: round(d.agreement, 4),
        model_version: p.model_version,
      },
      protective_factors: d.protective,
      tasks: d.tasks,
      skill_gaps: gaps,
      transition_options: transitions,
      votes: voteStats(v ?? { agree: 0, too_high: 0, too_low: 0 }),
    };
  });

  // OEWS occupation code -> served occupations (direct SOC, or the aggregate they resolved to).
  const bySoc7 = groupBy(drafts.map((d) => d.soc), (s) => s.slice(0, 7));
  const byOews = groupBy([...labor.oewsCode].filter(([s]) => scored.has(s)), ([, c]) => c);
  const occupationsOf = (code: string): string[] => bySoc7.get(code) ?? (byOews.get(code) ?? []).map(([s]) => s);
  const ind = computeIndustries({ naics: bundle.naics, rows: bundle.oews_industry, occupationsOf, scored });

  const dist = <T extends string>(xs: T[]) => xs.reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});
  const scores = drafts.map((d) => d.score).sort((a, b) => a - b);
  const q = (f: number) => scores[Math.min(scores.length - 1, Math.floor(f * scores.length))] ?? null;
  const oewsPeriod = bundle.oews_national[0]?.period ?? 'n/a';
  return {
    meta: {
      data_version: `onet-${bundle.onet_version}+oews-${slugify(oewsPeriod)}+model-${p.model_version}`,
      onet_version: bundle.onet_version,
      oews_period: oewsPeriod,
      projections_period: '2024-34',
      model_version: p.model_version,
      attribution: ATTRIBUTION,
    },
    occupations,
    unscored,
    industries: ind.industries,
    factors: factorsTable(seeds),
    tiers,
    report: {
      occupations_in_onet: bundle.occupations.length,
      occupations_served: occupations.length,
      occupations_unscored: unscored.length,
      evidence: evidence.report,
      tasks: { ...counts, blank_type_weight: round(share * p.time_weights.core.value + (1 - share) * p.time_weights.supplemental.value, 4), core_share: round(share, 4), task_ratings_used: bundle.task_ratings !== null },
      task_categories: categoryCounts,
      protective_factor_sources: protective.report,
      labor: labor.report,
      skill_gaps_empty: gapsEmpty,
      industries: ind.report,
      tier_distribution: dist(occupations.map((o) => o.risk_score.risk_tier as RiskTier)),
      confidence_distribution: dist(occupations.map((o) => o.risk_score.confidence)),
      score_quantiles: { min: q(0), p10: q(0.1), p25: q(0.25), median: q(0.5), p75: q(0.75), p90: q(0.9), max: scores.at(-1) ?? null },
    },
  };
}

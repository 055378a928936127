// computeModel: the whole risk model as one pure function of the source bundle and the seeds.
// Order: evidence joins -> per-task scores -> occupation scores -> ranks (tiers, percentiles,
// years) -> skill gaps and transitions (need every score) -> industries -> report.
import type { ModelInputs, TaskRating, TaskStatement } from './inputs.ts';
import { tierFor } from './assess.ts';
import { capabilityScore, labelAgreement, labelsOf, taskRisk } from './capability.ts';
import { gwaOfDwa, keywordCategory, majorityCategory, voteCategory } from './categories.ts';
import { complementarityMultiplier, complementarityParts, expectedCategory, theta } from './complementarity.ts';
import {
  BASE,
  confidenceFromWidth,
  evidenceVariants,
  labelValue,
  intervalWidth,
  occupationLayers,
  propensity,
  scaleScore,
  shrunkDisplacement,
  type OccupationLayers,
  type TaskInputs,
} from './displacement.ts';
import { buildEvidence, releaseYears } from './evidence.ts';
import { skillGaps, transitionOptions, type ScoredRef } from './gaps.ts';
import { assignSlugs, occupationId, slugify } from './ids.ts';
import { computeIndustries } from './industries.ts';
import { computeLabor, employmentWeights } from './labor.ts';
import { round, roundPreservingSum } from './num.ts';
import type { Seeds } from './params.ts';
import { computeProtective, indexDescriptors } from './protective.ts';
import { buildProfiles, similarity, unitZ } from './similarity.ts';
import type {
  FactorsTable,
  ModelOutput,
  OccupationRecord,
  RiskTier,
  TaskCategory,
  TaskRecord,
  TierTable,
  UnscoredOccupation,
} from './records.ts';
import { employmentPercentiles } from './scoring.ts';
import { adoptionYears } from './timeline.ts';
import { activityWeights, coreShare, taskWeights, toFractions, typeWeight, type TimeWeightSource } from './time.ts';
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
  'Tomlinson, Jaffe, Wang, Counts and Suri (2025), "Working with AI", Microsoft Research (CC BY 4.0): per-occupation IWA weights used as task time weights; the AI applicability score is used for validation only.',
  'O*NET 30.1 Skills (USDOL/ETA, CC BY 4.0), only for occupations the O*NET 29.3 release does not rate; O*NET 29.3 Education, Training, and Experience.',
  'Method references: Pizzinelli et al. (2023, IMF WP/23/216) complementarity-adjusted exposure; Kanders et al. (2020, Nesta) Mapping Career Causeways; Bick, Blandin and Deming (2024) and Comin and Hobijn (2010) on adoption.',
  'Adoption start share: McKinsey Global Institute (2023), "The economic potential of generative AI: The next productivity frontier".',
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
  inputs: TaskInputs[];
  tilt: number;
  time_source: TimeWeightSource;
  base: OccupationLayers;
  theta: number;
  agreement: number;
  adoption: { usage: number; first: number; latest: number };
  protective: Record<string, number>;
  /** Time share of the occupation's tasks per IWA (a similarity profile). */
  iwa_profile: Map<string, number>;
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

const medianOf = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function computeModel(bundle: ModelInputs, seeds: Seeds): ModelOutput {
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

  // Skills: the chosen release, filled from a newer release for occupations it does not rate.
  const ownSkills = new Set(bundle.skills.map((s) => s.soc_code));
  const servedSocs = new Set(served.map((s) => s.soc));
  const fillRows = (bundle.skills_fill?.rows ?? []).filter((r) => !ownSkills.has(r.soc_code) && servedSocs.has(r.soc_code));
  const skillsFilled = new Set(fillRows.map((r) => r.soc_code));
  const descriptors = indexDescriptors({ ...bundle, skills: [...bundle.skills, ...fillRows] });
  const skillRelease = (soc: string) => (skillsFilled.has(soc) ? bundle.skills_fill!.release : bundle.onet_version);
  const protective = computeProtective(served.map((s) => s.soc), descriptors, seeds.protective);
  const labor = computeLabor(served.map((s) => s.soc), bundle.oews_national, bundle.projections, p);
  const education = groupBy(bundle.education, (e) => `${e.soc_code}|${e.scale_id}`);

  const dwasByTask = groupBy(bundle.task_dwas, (d) => d.task_id);
  const knownDwas = new Set(bundle.dwa_reference.map((d) => d.dwa_id));
  const iwaOfDwa = new Map(bundle.dwa_reference.map((d) => [d.dwa_id, d.iwa_id]));
  const iwaWeights = new Map<string, Map<string, number>>();
  for (const w of bundle.iwa_weights) {
    const m = iwaWeights.get(w.soc) ?? new Map<string, number>();
    m.set(w.iwa_id, w.weight);
    iwaWeights.set(w.soc, m);
  }
  const releases = evidence.report.aei_releases;
  const firstRelease = releases[0] ?? null;
  const latestRelease = releases.at(-1) ?? null;
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
    tasks_time_weight_fallback: 0,
  };
  const timeSources: Record<TimeWeightSource, number> = { task_ratings: 0, iwa_weights: 0, gwa_importance: 0, task_type: 0 };
  const education_missing = { rl: 0, rw: 0 };
  const categoryCounts: Record<TaskCategory, number> = {
    non_routine_analytical: 0,
    non_routine_interpersonal: 0,
    routine_cognitive: 0,
    routine_manual: 0,
    non_routine_manual: 0,
  };
  const labelValues = p.capability.label_values.value;
  const tValues = p.propensity.t_values.value;

  const drafts: Draft[] = served.map((occ) => {
    const wa = descriptors.work_activities.get(occ.soc) ?? descriptors.work_activities.get(`${occ.soc.slice(0, 7)}.00`);
    const importance = (gwa: string) => wa?.get(gwa)?.importance ?? 3;
    const links = occ.tasks.map((t) => (dwasByTask.get(t.task_id) ?? []).filter((d) => d.soc_code === occ.soc));

    // Time weights: Task Ratings when present, else activity weights (IWA, then GWA importance).
    const typeW = occ.tasks.map((t) => typeWeight(t.task_type, share, p));
    let weights: number[];
    let timeSource: TimeWeightSource;
    if (ratingsByTask) {
      weights = taskWeights(occ.tasks, share, p, ratingsByTask);
      timeSource = 'task_ratings';
    } else {
      const aw = activityWeights(
        links.map((ls) => ls.map((d) => iwaOfDwa.get(d.dwa_id)).filter((x): x is string => x !== undefined)),
        links.map((ls) => {
          const im = ls.map((d) => wa?.get(gwaOfDwa(d.dwa_id))?.importance).filter((x): x is number => x !== undefined && x !== null);
          return im.length ? im.reduce((a, b) => a + b, 0) / im.length : null;
        }),
        typeW,
        iwaWeights.get(occ.soc.slice(0, 7)),
      );
      weights = aw.weights;
      timeSource = aw.source;
      counts.tasks_time_weight_fallback += aw.fallback_tasks;
    }
    timeSources[timeSource]++;
    const fractions = toFractions(weights);

    // Categories: DWA vote first, then keywords, then the occupation's DWA majority.
    const cats: Array<{ category: TaskCategory | null; source: 'dwa' | 'keyword'; how: string }> = occ.tasks.map((t, i) => {
      const ls = links[i]!;
      counts.tasks_dwa_links += ls.length;
      const known = ls.filter((d) => knownDwas.has(d.dwa_id) || seeds.task_categories.gwas[gwaOfDwa(d.dwa_id)]);
      counts.tasks_dwa_links_unknown += ls.length - known.length;
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

    const inputs: TaskInputs[] = occ.tasks.map((t, i) => {
      const l = labelsOf(evidence.labels.get(t.task_id));
      return {
        human: l.human === null ? null : labelValues[l.human],
        gpt4: l.gpt4 === null ? null : labelValues[l.gpt4],
        usage: evidence.usage.get(t.task_id)?.intensity ?? 0,
        aei: evidence.automationShare.get(t.task_id) ?? null,
        t: l.automation === null ? null : tValues[l.automation],
        category_factor: p.category_factors.value[categories[i]!],
        weight: weights[i]!,
        type_weight: typeW[i]!,
      };
    });
    const tilt = p.interval.tilt.value[timeSource];
    const base = occupationLayers(inputs, BASE, p, tilt);

    // Per-task records of the base variant (the same formulas as occupationLayers).
    const L = inputs.map((x) => labelValue(x.human, x.gpt4, 'both'));
    let lsum = 0;
    let lw = 0;
    L.forEach((v, i) => {
      if (v !== null) [lsum, lw] = [lsum + v * weights[i]!, lw + weights[i]!];
    });
    const meanLabel = lw > 0 ? lsum / lw : 0;
    const pp = { t_weight: p.propensity.t_weight.value, floor: p.propensity.floor.value, default_raw: p.propensity.default_raw.value };
    let agreeSum = 0;
    let agreeW = 0;
    let exposedAll = 0;
    let exposedUsage = 0;
    let exposedLatest = 0;
    let exposedFirst = 0;
    const rounded = roundPreservingSum(fractions, 4);
    const tasks: TaskRecord[] = occ.tasks.map((t, i) => {
      const l = labelsOf(evidence.labels.get(t.task_id));
      const usage = evidence.usage.get(t.task_id);
      const aeiShare = inputs[i]!.aei;
      const cap = capabilityScore(L[i] ?? meanLabel, usage?.intensity ?? 0, p);
      const prop = propensity(inputs[i]!.t, aeiShare, pp);
      const category = categories[i]!;
      const risk = taskRisk(cap, prop, p.category_factors.value[category]);
      const tf = fractions[i]!;
      const ag = labelAgreement(l.human, l.gpt4, p);
      if (ag !== null) [agreeSum, agreeW] = [agreeSum + ag * tf, agreeW + tf];
      exposedAll += tf * cap;
      exposedUsage += tf * cap * (usage?.intensity ?? 0);
      if (usage && latestRelease && usage.releases.includes(latestRelease)) exposedLatest += tf * cap;
      if (usage && firstRelease && usage.releases.includes(firstRelease)) exposedFirst += tf * cap;

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

    const iwaProfile = new Map<string, number>();
    links.forEach((ls, i) => {
      const iwas = [...new Set(ls.map((d) => iwaOfDwa.get(d.dwa_id)).filter((x): x is string => x !== undefined))];
      for (const iwa of iwas) iwaProfile.set(iwa, (iwaProfile.get(iwa) ?? 0) + fractions[i]! / iwas.length);
    });
    const prot = protective.values.get(occ.soc)!;
    const rl = expectedCategory(education.get(`${occ.soc}|RL`) ?? [], 12);
    const rw = expectedCategory(education.get(`${occ.soc}|RW`) ?? [], 11);
    if (rl === null) education_missing.rl++;
    if (rw === null) education_missing.rw++;
    return {
      soc: occ.soc,
      title: occ.title,
      description: occ.description,
      job_zone: occ.job_zone,
      tasks: [...tasks].sort(
        (a, b) => b.time_fraction * b.task_risk_score - a.time_fraction * a.task_risk_score || a.task_id - b.task_id,
      ),
      inputs,
      tilt,
      time_source: timeSource,
      base,
      theta: theta(complementarityParts(occ.job_zone, rl, rw, prot)),
      agreement: agreeW > 0 ? agreeSum / agreeW : 0,
      adoption: exposedAll > 0 ? { usage: exposedUsage / exposedAll, first: exposedFirst / exposedAll, latest: exposedLatest / exposedAll } : { usage: 0, first: 0, latest: 0 },
      protective: Object.fromEntries(Object.entries(prot).map(([k, v]) => [k, round(v, 4)])),
      iwa_profile: iwaProfile,
    };
  });

  // Occupation layers: complementarity relative to the least complemented occupation, shrinkage
  // toward the median occupation, the scale, and the interval over evidence variants.
  const thetaMin = Math.min(...drafts.map((d) => d.theta));
  const kappa = p.complementarity.kappa.value;
  const prior = medianOf(drafts.map((d) => d.base.substitution_exposure * complementarityMultiplier(d.theta, thetaMin, kappa)));
  const k = p.scale.prior_tasks.value;
  const h = p.scale.half_saturation.value;
  const scoreOf = (l: OccupationLayers, th: number, kap: number, kk = k) =>
    scaleScore(shrunkDisplacement(l.substitution_exposure, complementarityMultiplier(th, thetaMin, kap), l.labelled_tasks, prior, kk), h);
  const variants = evidenceVariants(p);
  const tY = releases.map(releaseYears);
  const meanUsage = drafts.reduce((a, d) => a + d.adoption.usage, 0) / Math.max(1, drafts.length);
  const scoredDrafts = drafts.map((d) => {
    const score = scoreOf(d.base, d.theta, kappa);
    const vs = variants.map((v) => scoreOf(occupationLayers(d.inputs, v, p, d.tilt), d.theta, v.kappa ?? kappa, v.prior_tasks ?? k));
    const low = Math.min(score, ...vs);
    const high = Math.max(score, ...vs);
    return { d, score, low, high, confidence: confidenceFromWidth(intervalWidth(low, high), p) };
  });

  // Ranks across occupations.
  const empWeight = employmentWeights(labor);
  const percentiles = employmentPercentiles(scoredDrafts.map(({ d, score }) => ({ score, employment: empWeight.get(d.soc) ?? null })));
  const slugs = assignSlugs(drafts.map((d) => ({ soc_code: d.soc, title: d.title })));
  const refs: ScoredRef[] = scoredDrafts.map(({ d, score }) => ({
    soc_code: d.soc,
    title: d.title,
    slug: slugs.get(d.soc)!,
    final_score: score,
    risk_tier: tierFor(score, tiers),
    job_zone: d.job_zone,
    median_annual_wage: labor.data.get(d.soc)!.median_annual_wage,
  }));
  const refBySoc = new Map(refs.map((r) => [r.soc_code, r]));
  const profiles = buildProfiles(drafts.map((d) => d.soc), descriptors, seeds.protective.importance_exponent.value);
  profiles.sets.push(unitZ(new Map(drafts.map((d) => [d.soc, d.iwa_profile])), true));

  const votes = new Map((bundle.votes ?? []).map((v) => [v.soc_code, v]));
  let gapsEmpty = 0;
  let transitionsEmpty = 0;
  const yearBasis = { aei_trend: 0, published_range: 0, negligible: 0 };
  const occupations: OccupationRecord[] = scoredDrafts.map(({ d, score, low, high, confidence }, i) => {
    const years = adoptionYears(
      {
        usage_index: meanUsage > 0 ? d.adoption.usage / meanUsage : 0,
        observed_first: d.adoption.first,
        observed_latest: d.adoption.latest,
        t_first: tY[0] ?? 0,
        t_latest: tY.at(-1) ?? 0,
      },
      score,
      p,
    );
    yearBasis[years.basis]++;
    if (years.negligible) yearBasis.negligible++;
    const origin = refBySoc.get(d.soc)!;
    const transitions = transitionOptions(origin, refs, (soc) => similarity(profiles, d.soc, soc), p);
    const gaps = skillGaps(
      { skills: descriptors.skills.get(d.soc), knowledge: descriptors.knowledge.get(d.soc) },
      transitions.map((t) => ({ skills: descriptors.skills.get(t.soc_code), knowledge: descriptors.knowledge.get(t.soc_code) })),
      p,
      { skills: skillRelease(d.soc), knowledge: bundle.onet_version },
    );
    if (gaps.length === 0) gapsEmpty++;
    if (transitions.length === 0) transitionsEmpty++;
    const v = votes.get(d.soc);
    const multiplier = complementarityMultiplier(d.theta, thetaMin, kappa);
    return {
      id: occupationId(d.soc),
      soc_code: d.soc,
      title: d.title,
      slug: slugs.get(d.soc)!,
      job_zone: d.job_zone,
      description: d.description,
      labor_data: labor.data.get(d.soc)!,
      risk_score: {
        final_score: score,
        risk_tier: origin.risk_tier,
        confidence,
        risk_percentile: percentiles[i]!,
        displacement_year_low: years.low,
        displacement_year_high: years.high,
        task_exposure: round(100 * d.base.substitution_exposure, 1),
        protective_moderation: round(multiplier, 4),
        label_coverage: round(d.base.coverage, 4),
        label_agreement: round(d.agreement, 4),
        exposure_score: round(100 * d.base.exposure, 1),
        complementarity: round(d.theta, 4),
        score_low: round(low, 1),
        score_high: round(high, 1),
        time_weight_source: d.time_source,
        model_version: p.model_version,
      },
      protective_factors: d.protective,
      tasks: d.tasks,
      skill_gaps: gaps,
      transition_options: transitions,
      votes: voteStats(v ?? { agree: 0, too_high: 0, too_low: 0 }),
    };
  });
  const scored = refBySoc;
  const gapsEmptyCount = gapsEmpty;

  // OEWS occupation code -> served occupations (direct SOC, or the aggregate they resolved to).
  const bySoc7 = groupBy(drafts.map((d) => d.soc), (soc) => soc.slice(0, 7));
  const byOews = groupBy([...labor.oewsCode].filter(([s]) => scored.has(s)), ([, c]) => c);
  const occupationsOf = (code: string): string[] => bySoc7.get(code) ?? (byOews.get(code) ?? []).map(([s]) => s);
  const ind = computeIndustries({ naics: bundle.naics, rows: bundle.oews_industry, occupationsOf, scored });

  const dist = <T extends string>(xs: T[]) => xs.reduce<Record<string, number>>((a, x) => ((a[x] = (a[x] ?? 0) + 1), a), {});
  const scores = scoredDrafts.map((x) => x.score).sort((a, b) => a - b);
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
      time_weight_sources: timeSources,
      skills_filled: { release: bundle.skills_fill?.release ?? null, occupations: skillsFilled.size },
      complementarity: { theta_min: round(thetaMin, 4), prior_displacement: round(prior, 4), education_rl_missing: education_missing.rl, education_rw_missing: education_missing.rw },
      displacement_years: yearBasis,
      transitions_empty: transitionsEmpty,
      tasks: { ...counts, blank_type_weight: round(share * p.time_weights.core.value + (1 - share) * p.time_weights.supplemental.value, 4), core_share: round(share, 4), task_ratings_used: bundle.task_ratings !== null },
      task_categories: categoryCounts,
      protective_factor_sources: protective.report,
      labor: labor.report,
      skill_gaps_empty: gapsEmptyCount,
      industries: ind.report,
      tier_distribution: dist(occupations.map((o) => o.risk_score.risk_tier as RiskTier)),
      confidence_distribution: dist(occupations.map((o) => o.risk_score.confidence)),
      score_quantiles: { min: q(0), p10: q(0.1), p25: q(0.25), median: q(0.5), p75: q(0.75), p90: q(0.9), max: scores.at(-1) ?? null },
    },
  };
}

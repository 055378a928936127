// One served occupation before any cross-occupation step: its tasks' time weights, categories,
// evidence inputs and records, its base displacement layers, complementarity (theta), label
// agreement, observed adoption and its IWA profile. Counts what it had to fall back on.
import { capabilityScore, labelAgreement, labelsOf, taskRisk } from './capability.ts';
import { gwaOfDwa, keywordCategory, majorityCategory, voteCategory } from './categories.ts';
import { complementarityParts, expectedCategory, theta, type ComplementarityParts } from './complementarity.ts';
import { BASE, labelValue, propensity, taskLayers, type OccupationLayers, type TaskInputs, type TaskTerms } from './displacement.ts';
import type { EvidenceIndex } from './evidence.ts';
import type { EducationRow, ElementRating, TaskDwa, TaskRating } from './inputs.ts';
import { round, roundPreservingSum } from './num.ts';
import type { Seeds } from './params.ts';
import type { DescriptorIndex, ProtectiveResult } from './protective.ts';
import type { TaskCategory, TaskRecord } from './record-schemas.ts';
import type { ServedOccupation } from './served.ts';
import { activityWeights, taskWeights, toFractions, typeWeight, type TimeWeightSource } from './task-time.ts';
import { taskWwai } from './wwai.ts';

export interface Draft {
  soc: string;
  title: string;
  description: string;
  job_zone: number;
  tasks: TaskRecord[];
  inputs: TaskInputs[];
  /** The task ID of each of `inputs` (tasks is sorted for display; inputs keep the source order). */
  task_ids: number[];
  tilt: number;
  time_source: TimeWeightSource;
  base: OccupationLayers;
  /** The base layers' per-task terms, aligned with inputs (and input_tasks). */
  terms: TaskTerms;
  input_tasks: Array<{ task_id: number; description: string }>;
  parts: ComplementarityParts;
  theta: number;
  agreement: number;
  adoption: { usage: number; first: number; latest: number };
  protective: Record<string, number>;
  /** Time share of the occupation's tasks per IWA (a similarity profile). */
  iwa_profile: Map<string, number>;
}

/** The joined inputs every occupation's draft reads. */
export interface DraftContext {
  seeds: Seeds;
  evidence: EvidenceIndex;
  descriptors: DescriptorIndex;
  protective: ProtectiveResult;
  /** Education rows by `${soc}|${scale}` (RL, RW). */
  education: Map<string, EducationRow[]>;
  dwasByTask: Map<number, TaskDwa[]>;
  knownDwas: Set<string>;
  iwaOfDwa: Map<string, string>;
  /** Tomlinson et al. IWA weights by SOC 2018 code. */
  iwaWeights: Map<string, Map<string, number>>;
  /** Working with AI AI-action share by IWA (wwai.ts). */
  wwaiByIwa: ReadonlyMap<string, number>;
  /** Task Ratings by Task ID; null when the source has none. */
  ratingsByTask: Map<number, TaskRating[]> | null;
  /** Share of Core tasks among all typed tasks. */
  coreShare: number;
  firstRelease: string | null;
  latestRelease: string | null;
}

/** What the drafts counted (the build report). */
export function newDraftCounts() {
  return {
    tasks: {
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
      tasks_wwai_missing: 0,
    },
    time_sources: { task_ratings: 0, iwa_weights: 0, gwa_importance: 0, task_type: 0 } as Record<TimeWeightSource, number>,
    education_missing: { rl: 0, rw: 0 },
    categories: {
      non_routine_analytical: 0,
      non_routine_interpersonal: 0,
      routine_cognitive: 0,
      routine_manual: 0,
      non_routine_manual: 0,
    } as Record<TaskCategory, number>,
  };
}
export type DraftCounts = ReturnType<typeof newDraftCounts>;

type Importance = (gwa: string) => number;
type WorkActivities = ReadonlyMap<string, ElementRating> | undefined;

/** Each task's DWA links of this occupation, with their IWAs (where known) and GWAs, worked out once per task. */
interface TaskLinks {
  dwas: TaskDwa[];
  iwas: string[];
  gwas: string[];
}

/** Time weights: Task Ratings when present, else activity weights (IWA, then GWA importance). */
function timeWeights(occ: ServedOccupation, links: TaskLinks[], wa: WorkActivities, typeW: number[], ctx: DraftContext, counts: DraftCounts) {
  const p = ctx.seeds.params;
  if (ctx.ratingsByTask) return { weights: taskWeights(occ.tasks, ctx.coreShare, p, ctx.ratingsByTask), source: 'task_ratings' as TimeWeightSource };
  const aw = activityWeights(
    links.map((l) => l.iwas),
    links.map((l) => {
      const im = l.gwas.map((gwa) => wa?.get(gwa)?.importance).filter((x): x is number => x !== undefined && x !== null);
      return im.length ? im.reduce((a, b) => a + b, 0) / im.length : null;
    }),
    typeW,
    ctx.iwaWeights.get(occ.soc.slice(0, 7)),
  );
  counts.tasks.tasks_time_weight_fallback += aw.fallback_tasks;
  return { weights: aw.weights, source: aw.source };
}

type CategoryHow = 'dwa' | 'keyword' | 'pending' | 'occupation_majority' | 'last_resort';

/** Categories: DWA vote first, then keywords, then the occupation's DWA majority, then the last resort. */
function taskCategories(occ: ServedOccupation, links: TaskLinks[], importance: Importance, fractions: number[], ctx: DraftContext, counts: DraftCounts) {
  const seed = ctx.seeds.task_categories;
  const cats: Array<{ category: TaskCategory | null; source: 'dwa' | 'keyword'; how: CategoryHow }> = occ.tasks.map((t, i) => {
    const { dwas, gwas } = links[i]!;
    counts.tasks.tasks_dwa_links += dwas.length;
    const known = gwas.filter((gwa, j) => ctx.knownDwas.has(dwas[j]!.dwa_id) || seed.gwas[gwa]);
    counts.tasks.tasks_dwa_links_unknown += dwas.length - known.length;
    const voted = voteCategory(known, importance, seed);
    if (voted) return { category: voted, source: 'dwa', how: 'dwa' };
    const kw = keywordCategory(t.task, seed);
    return { category: kw, source: 'keyword', how: kw ? 'keyword' : 'pending' };
  });
  const majority = majorityCategory(
    cats.flatMap((c, i) => (c.source === 'dwa' && c.category ? [{ category: c.category, weight: fractions[i]! }] : [])),
    seed,
  );
  const categories = cats.map((c) => {
    if (c.category) return c.category;
    c.how = majority ? 'occupation_majority' : 'last_resort';
    return majority ?? seed.last_resort.value;
  });
  return { cats, categories };
}

/** Per-task records of the base variant (the same formulas as occupationLayers), the label agreement and the adoption shares, tallied into counts. */
function taskRecords(
  occ: ServedOccupation,
  inputs: readonly TaskInputs[],
  weights: readonly number[],
  fractions: readonly number[],
  categories: readonly TaskCategory[],
  cats: ReadonlyArray<{ source: 'dwa' | 'keyword'; how: CategoryHow }>,
  ctx: DraftContext,
  counts: DraftCounts,
) {
  const { evidence } = ctx;
  const p = ctx.seeds.params;
  const L = inputs.map((x) => labelValue(x.human, x.gpt4, 'both'));
  let lsum = 0;
  let lw = 0;
  L.forEach((v, i) => {
    if (v !== null) [lsum, lw] = [lsum + v * weights[i]!, lw + weights[i]!];
  });
  const meanLabel = lw > 0 ? lsum / lw : 0;
  const pp = { t_weight: p.propensity.t_weight.value, floor: p.propensity.floor.value, default_raw: p.propensity.default_raw.value, wwai_weight: p.propensity.wwai.value.weight };
  let agreeSum = 0;
  let agreeW = 0;
  let exposedAll = 0;
  let exposedUsage = 0;
  let exposedLatest = 0;
  let exposedFirst = 0;
  const rounded = roundPreservingSum(fractions, 4);
  const c = counts.tasks;
  const tasks: TaskRecord[] = occ.tasks.map((t, i) => {
    const l = labelsOf(evidence.labels.get(t.task_id));
    const usage = evidence.usage.get(t.task_id);
    const aeiShare = inputs[i]!.aei;
    const cap = capabilityScore(L[i] ?? meanLabel, usage?.intensity ?? 0, p);
    const prop = propensity(inputs[i]!.t, aeiShare, pp, inputs[i]!.wwai ?? null);
    const category = categories[i]!;
    const risk = taskRisk(cap, prop, p.category_factors.value[category]);
    const tf = fractions[i]!;
    const ag = labelAgreement(l.human, l.gpt4, p);
    if (ag !== null) [agreeSum, agreeW] = [agreeSum + ag * tf, agreeW + tf];
    exposedAll += tf * cap;
    exposedUsage += tf * cap * (usage?.intensity ?? 0);
    if (usage && ctx.latestRelease && usage.releases.includes(ctx.latestRelease)) exposedLatest += tf * cap;
    if (usage && ctx.firstRelease && usage.releases.includes(ctx.firstRelease)) exposedFirst += tf * cap;

    c.tasks_served++;
    if (L[i] === null) c.tasks_label_missing++;
    if (l.human === null) c.tasks_label_human_missing++;
    if (l.gpt4 === null) c.tasks_label_gpt4_missing++;
    if (l.automation === null) c.tasks_automation_level_missing++;
    if (inputs[i]!.wwai === null) c.tasks_wwai_missing++;
    if (usage) c.tasks_with_usage++;
    if (t.task_type === null) c.tasks_type_blank++;
    const how = cats[i]!.how;
    if (how === 'dwa') c.tasks_category_dwa++;
    else if (how === 'keyword') c.tasks_category_keyword++;
    else if (how === 'occupation_majority') c.tasks_category_occupation_majority++;
    else c.tasks_category_last_resort++;
    counts.categories[category]++;

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
  const agreement = agreeW > 0 ? agreeSum / agreeW : 0;
  const adoption = exposedAll > 0 ? { usage: exposedUsage / exposedAll, first: exposedFirst / exposedAll, latest: exposedLatest / exposedAll } : { usage: 0, first: 0, latest: 0 };
  return { tasks, agreement, adoption };
}

export function draftOccupation(occ: ServedOccupation, ctx: DraftContext, counts: DraftCounts): Draft {
  const { seeds, evidence } = ctx;
  const p = seeds.params;
  const labelValues = p.capability.label_values.value;
  const tValues = p.propensity.t_values.value;
  const wa = ctx.descriptors.work_activities.get(occ.soc) ?? ctx.descriptors.work_activities.get(`${occ.soc.slice(0, 7)}.00`);
  const importance: Importance = (gwa) => wa?.get(gwa)?.importance ?? 3;
  const links: TaskLinks[] = occ.tasks.map((t) => {
    const dwas = (ctx.dwasByTask.get(t.task_id) ?? []).filter((d) => d.soc_code === occ.soc);
    return {
      dwas,
      iwas: dwas.map((d) => ctx.iwaOfDwa.get(d.dwa_id)).filter((x): x is string => x !== undefined),
      gwas: dwas.map((d) => gwaOfDwa(d.dwa_id)),
    };
  });

  const typeW = occ.tasks.map((t) => typeWeight(t.task_type, ctx.coreShare, p));
  const { weights, source: timeSource } = timeWeights(occ, links, wa, typeW, ctx, counts);
  counts.time_sources[timeSource]++;
  const fractions = toFractions(weights);
  const { cats, categories } = taskCategories(occ, links, importance, fractions, ctx, counts);

  const inputs: TaskInputs[] = occ.tasks.map((t, i) => {
    const l = labelsOf(evidence.labels.get(t.task_id));
    return {
      human: l.human === null ? null : labelValues[l.human],
      gpt4: l.gpt4 === null ? null : labelValues[l.gpt4],
      human_e2: l.human === 'E2',
      gpt4_e2: l.gpt4 === 'E2',
      usage: evidence.usage.get(t.task_id)?.intensity ?? 0,
      aei: evidence.automationShare.get(t.task_id) ?? null,
      t: l.automation === null ? null : tValues[l.automation],
      wwai: taskWwai(links[i]!.iwas, ctx.wwaiByIwa),
      category_factor: p.category_factors.value[categories[i]!],
      weight: weights[i]!,
      type_weight: typeW[i]!,
    };
  });
  const tilt = p.interval.tilt.value[timeSource];
  const { layers: base, terms } = taskLayers(inputs, BASE, p, tilt);

  const { tasks, agreement, adoption } = taskRecords(occ, inputs, weights, fractions, categories, cats, ctx, counts);

  const iwaProfile = new Map<string, number>();
  links.forEach((l, i) => {
    const iwas = [...new Set(l.iwas)];
    for (const iwa of iwas) iwaProfile.set(iwa, (iwaProfile.get(iwa) ?? 0) + fractions[i]! / iwas.length);
  });
  const prot = ctx.protective.values.get(occ.soc)!;
  const rl = expectedCategory(ctx.education.get(`${occ.soc}|RL`) ?? [], 12);
  const rw = expectedCategory(ctx.education.get(`${occ.soc}|RW`) ?? [], 11);
  if (rl === null) counts.education_missing.rl++;
  if (rw === null) counts.education_missing.rw++;
  const parts = complementarityParts(occ.job_zone, rl, rw, prot);
  return {
    soc: occ.soc,
    title: occ.title,
    description: occ.description,
    job_zone: occ.job_zone,
    tasks: [...tasks].sort((a, b) => b.time_fraction * b.task_risk_score - a.time_fraction * a.task_risk_score || a.task_id - b.task_id),
    inputs,
    task_ids: occ.tasks.map((t) => t.task_id),
    tilt,
    time_source: timeSource,
    base,
    terms,
    input_tasks: occ.tasks.map((t) => ({ task_id: t.task_id, description: t.task })),
    parts,
    theta: theta(parts),
    agreement,
    adoption,
    protective: Object.fromEntries(Object.entries(prot).map(([k, v]) => [k, round(v, 4)])),
    iwa_profile: iwaProfile,
  };
}

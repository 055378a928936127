// The assessment's task path: an occupation's score recomputed from the time shares a person
// gives its tasks, with the occupation's own evidence (per-task risks, complementarity, and the
// shrinkage's evidence count, which a person naming one task does not thin) under every
// alternative of the interval. taskBasis prepares the compact per-occupation data at build time;
// taskScores runs in the function. Pure.
import { complementarityMultiplier } from './complementarity.ts';
import { BASE, scaleScore, shrunkDisplacement, variantTasks, type Variant } from './displacement.ts';
import type { Draft } from './draft.ts';
import { clamp } from './num.ts';
import { quantileInterval } from './occupation-scores.ts';
import type { ModelParamsSeed } from './params.ts';
import type { TaskBasis, TaskScale } from './record-schemas.ts';

/** Per-task figures are stored as integers in these units (the served task_risk_score has 4 decimals). */
export const TASK_UNITS = 10_000;
const units = (xs: ArrayLike<number>): number[] => Array.from(xs, (x) => Math.round(clamp(x, 0, 1) * TASK_UNITS));

export interface ScoreContext {
  thetaMin: number;
  kappa: number;
  prior: number;
}

/**
 * One occupation's task basis under the base model and each variant (the interval's alternatives,
 * as scoreOccupations makes them: a variant's kappa and prior_tasks move the later steps only).
 */
export function taskBasis(d: Draft, variants: readonly Variant[], p: ModelParamsSeed, ctx: ScoreContext): TaskBasis {
  const risks: number[][] = [];
  const riskIndex = new Map<string, number>();
  const alts: TaskBasis['alts'] = [];
  let caps: number[] = [];
  for (const v of [BASE, ...variants]) {
    const t = variantTasks(d.inputs, v, p, d.tilt);
    if (v === BASE) caps = units(t.caps);
    const r = units(t.risks);
    const key = r.join(',');
    let at = riskIndex.get(key);
    if (at === undefined) riskIndex.set(key, (at = risks.push(r) - 1));
    let x = 0;
    for (let i = 0; i < t.risks.length; i++) x += t.tf[i]! * t.risks[i]!;
    const m = complementarityMultiplier(d.theta, ctx.thetaMin, v.kappa ?? ctx.kappa);
    alts.push([at, m, t.labelled_tasks, v.prior_tasks ?? p.scale.prior_tasks.value, clamp(x, 0, 1)]);
  }
  return { ids: [...d.task_ids], caps, risks, alts };
}

export interface TaskShare {
  task_id: number;
  share: number;
}

export type TaskIssue =
  | { kind: 'unknown_task'; index: number; task_id: number; allowed: number[] }
  | { kind: 'duplicate_task'; index: number; task_id: number }
  | { kind: 'too_many_tasks'; count: number; max: number };

/** Every problem with a person's task list against the occupation's tasks, in list order. */
export function validateTasks(tasks: readonly TaskShare[], basis: TaskBasis): TaskIssue[] {
  const issues: TaskIssue[] = [];
  if (tasks.length > basis.ids.length) issues.push({ kind: 'too_many_tasks', count: tasks.length, max: basis.ids.length });
  const known = new Set(basis.ids);
  const seen = new Set<number>();
  tasks.forEach((t, index) => {
    if (!known.has(t.task_id)) issues.push({ kind: 'unknown_task', index, task_id: t.task_id, allowed: [...basis.ids].sort((a, b) => a - b) });
    else if (seen.has(t.task_id)) issues.push({ kind: 'duplicate_task', index, task_id: t.task_id });
    seen.add(t.task_id);
  });
  return issues;
}

export interface TaskScores {
  /** Under the base model; low and high: the central range of the alternatives' scores (the occupation's interval rule). */
  score: number;
  low: number;
  high: number;
  /** Share of the person's work time AI can do, 0..100 (the occupation's exposure_score, for their tasks). */
  exposure_score: number;
}

/**
 * The score of a person's shares (normalized over the tasks and `otherShare`; tasks left out
 * count 0; `otherShare` is scored at the occupation's own average) under every alternative.
 * `occupationExposure`: the occupation's exposure_score, what `otherShare` is exposed at.
 * Validated input only (validateTasks, shares > 0).
 */
export function taskScores(basis: TaskBasis, tasks: readonly TaskShare[], otherShare: number, occupationExposure: number, scale: TaskScale): TaskScores {
  const at = new Map(basis.ids.map((id, i) => [id, i]));
  // Shares relative to the largest first, so that a sum of huge shares cannot overflow to Infinity.
  const largest = Math.max(otherShare, ...tasks.map((t) => t.share));
  let total = otherShare / largest;
  for (const t of tasks) total += t.share / largest;
  const shareOf = (s: number) => s / largest / total;
  const other = shareOf(otherShare);
  let exposure = other * (occupationExposure / 100);
  for (const t of tasks) exposure += shareOf(t.share) * (basis.caps[at.get(t.task_id)!]! / TASK_UNITS);
  const scores = basis.alts.map(([ri, m, n, k, own]) => {
    const r = basis.risks[ri]!;
    let x = other * own;
    for (const t of tasks) x += shareOf(t.share) * (r[at.get(t.task_id)!]! / TASK_UNITS);
    return scaleScore(shrunkDisplacement(x, m, n, scale.prior, k), scale.half_saturation);
  });
  // The occupation's own rule (occupation-scores.ts): the central range of the alternatives' scores, widened to hold the score.
  const { low, high } = quantileInterval(scores[0]!, scores.slice(1), scale.quantile);
  return { score: scores[0]!, low, high, exposure_score: Math.round(exposure * 1000) / 10 };
}

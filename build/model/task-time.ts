// Time shares of an occupation's tasks. O*NET publishes no time-use data per task; the weights
// come from Task Type (Core/Supplemental) and, when Task Ratings.txt is present, from the
// task's frequency (FT) distribution.
import type { TaskRating, TaskStatement } from './inputs.ts';
import type { ModelParamsSeed } from './params.ts';

/** Core share among typed tasks: blank-typed tasks get the expected weight of a typed one. */
export function coreShare(tasks: ReadonlyArray<Pick<TaskStatement, 'task_type'>>): number {
  const core = tasks.filter((t) => t.task_type === 'Core').length;
  const supp = tasks.filter((t) => t.task_type === 'Supplemental').length;
  return core + supp === 0 ? 1 : core / (core + supp);
}

export function typeWeight(type: TaskStatement['task_type'], share: number, p: ModelParamsSeed): number {
  const w = p.time_weights;
  if (type === 'Core') return w.core.value;
  if (type === 'Supplemental') return w.supplemental.value;
  return share * w.core.value + (1 - share) * w.supplemental.value;
}

/**
 * Mean frequency category (1 = yearly or less ... 7 = hourly or more) weighted by the percent
 * of incumbents in each category. The categories are roughly log-spaced in occurrences per
 * year, and longer tasks recur less often, so the mean category (not the raw count) is used.
 * null when the task has no usable FT rows.
 */
export function frequencyScore(rows: ReadonlyArray<TaskRating>): number | null {
  let s = 0;
  let w = 0;
  for (const r of rows) {
    if (r.scale_id !== 'FT' || r.category === null || r.recommend_suppress) continue;
    s += r.category * r.value;
    w += r.value;
  }
  return w > 0 ? s / w : null;
}

/** Normalize weights to fractions summing to 1 (equal shares if all weights are zero). */
export function toFractions(weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (total <= 0) return weights.map(() => 1 / weights.length);
  return weights.map((w) => w / total);
}

/**
 * Raw time weights for one occupation's tasks: type weight, times the frequency score when
 * ratings exist (tasks without FT rows take the occupation's mean frequency score).
 */
export function taskWeights(
  tasks: ReadonlyArray<Pick<TaskStatement, 'task_id' | 'task_type'>>,
  share: number,
  p: ModelParamsSeed,
  ratingsByTask: Map<number, TaskRating[]> | null,
): number[] {
  const base = tasks.map((t) => typeWeight(t.task_type, share, p));
  if (ratingsByTask === null) return base;
  const freq = tasks.map((t) => frequencyScore(ratingsByTask.get(t.task_id) ?? []));
  const known = freq.filter((f): f is number => f !== null);
  if (known.length === 0) return base;
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  return base.map((b, i) => b * (freq[i] ?? mean));
}

export type TimeWeightSource = 'task_ratings' | 'iwa_weights' | 'gwa_importance' | 'task_type';

/**
 * Activity-based task weights (no Task Ratings in the source). Tomlinson et al. (2025) publish,
 * per SOC code, the weight of each IWA, built from O*NET task importance and relevance through
 * Tasks to DWAs. Inverting that roll-up, each IWA's weight is shared equally by the occupation's
 * tasks linked to it, and a task linked to several IWAs takes the mean of its shares (its weight
 * entered each IWA it is linked to; a sum would reward tasks for being coded to more DWAs, which
 * reflects O*NET's coding granularity, not time):
 *   a_i = mean_{iwa in IWA(i)} W(iwa) / n(iwa)
 * Tasks with no weighted IWA take the mean a of the informed tasks, scaled by their Task Type
 * weight relative to the informed tasks' mean type weight (counted as fallback tasks). When every
 * informed task gets the same share, the weights carry no time evidence and the next source is used.
 * Without IWA weights for the occupation, a_i = type weight x (mean Work Activities importance of
 * the task's GWAs - 1) / (mean over the occupation's linked tasks), else the Task Type weight.
 */
export function activityWeights(
  taskIwas: ReadonlyArray<readonly string[]>,
  taskGwaImportance: ReadonlyArray<number | null>,
  typeWeights: readonly number[],
  iwaWeights: ReadonlyMap<string, number> | undefined,
): { weights: number[]; source: TimeWeightSource; fallback_tasks: number } {
  const n = typeWeights.length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  if (iwaWeights && iwaWeights.size > 0) {
    // Each task's weighted IWAs, once, in first-seen order (a set of them was made twice per task).
    const weighted = taskIwas.map((iwas) => [...new Set(iwas)].filter((k) => (iwaWeights.get(k) ?? 0) > 0));
    const count = new Map<string, number>();
    for (const ks of weighted) for (const k of ks) count.set(k, (count.get(k) ?? 0) + 1);
    const a = weighted.map((ks) => (ks.length > 0 ? mean(ks.map((k) => iwaWeights.get(k)! / count.get(k)!)) : null));
    const informed = a.map((x, i) => (x === null ? -1 : i)).filter((i) => i >= 0);
    const values = informed.map((i) => a[i]!);
    // Equal shares for every informed task mean the weights only count tasks per activity (no
    // importance or relevance differences): no time evidence, so the next source is used.
    const informative = values.length > 1 && Math.max(...values) - Math.min(...values) > 1e-9 * Math.max(...values);
    if (informative) {
      const aMean = mean(informed.map((i) => a[i]!));
      const tMean = mean(informed.map((i) => typeWeights[i]!));
      const weights = a.map((x, i) => x ?? (aMean * typeWeights[i]!) / tMean);
      return { weights, source: 'iwa_weights', fallback_tasks: n - informed.length };
    }
  }
  const rated = taskGwaImportance.filter((x): x is number => x !== null);
  if (rated.length > 0) {
    // Importance 1 is "not important": shift so it weighs little but never zero.
    const g = taskGwaImportance.map((x) => (x === null ? null : Math.max(0.25, x - 1)));
    const gMean = mean(g.filter((x): x is number => x !== null));
    const weights = g.map((x, i) => typeWeights[i]! * ((x ?? gMean) / gMean));
    return { weights, source: 'gwa_importance', fallback_tasks: g.filter((x) => x === null).length };
  }
  return { weights: [...typeWeights], source: 'task_type', fallback_tasks: n };
}

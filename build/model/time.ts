// Time shares of an occupation's tasks. O*NET publishes no time-use data per task; the weights
// come from Task Type (Core/Supplemental) and, when Task Ratings.txt is present, from the
// task's frequency (FT) distribution.
import type { TaskRating, TaskStatement } from '../sources/bundle.ts';
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

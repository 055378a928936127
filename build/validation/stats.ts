// Statistics for the validation report: rank AUC, a seeded PRNG and percentile bootstrap
// intervals. Pure and deterministic (the same inputs give the same intervals on every run).

/** Mulberry32 (the model's, build/model/num.ts): one PRNG for the model's sampled alternatives and the bootstrap. */
import { prng } from '../model/num.ts';
export { prng };

/**
 * Rank AUC = P(a random member of `pos` scores above a random member of `neg`), ties count
 * half (the Mann-Whitney U statistic divided by n_pos * n_neg). null when a group is empty.
 */
export function rankAuc(pos: readonly number[], neg: readonly number[]): number | null {
  if (pos.length === 0 || neg.length === 0) return null;
  let u = 0;
  for (const p of pos) for (const n of neg) u += p > n ? 1 : p === n ? 0.5 : 0;
  return u / (pos.length * neg.length);
}

export const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The q-quantile (0..1) of sorted values, linear interpolation between order statistics. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface Interval {
  value: number | null;
  low: number | null;
  high: number | null;
}

/**
 * Percentile bootstrap: resample each group with replacement `reps` times (groups resampled
 * separately, so a two-sample statistic keeps its group sizes), recompute the statistic and
 * take the 2.5th and 97.5th percentiles. Resamples where the statistic is undefined are dropped.
 */
export function bootstrap<T>(
  groups: ReadonlyArray<readonly T[]>,
  stat: (groups: ReadonlyArray<readonly T[]>) => number | null,
  reps = 1000,
  seed = 20240601,
): Interval {
  const value = stat(groups);
  if (value === null) return { value: null, low: null, high: null };
  const rand = prng(seed);
  const out: number[] = [];
  for (let r = 0; r < reps; r++) {
    const sample = groups.map((g) => Array.from({ length: g.length }, () => g[Math.floor(rand() * g.length)]!));
    const v = stat(sample);
    if (v !== null && Number.isFinite(v)) out.push(v);
  }
  out.sort((a, b) => a - b);
  if (out.length === 0) return { value, low: null, high: null };
  return { value, low: quantile(out, 0.025), high: quantile(out, 0.975) };
}

/** Mean and sample standard deviation (n - 1); null SD with fewer than two values. */
export function meanSd(xs: readonly number[]): { mean: number; sd: number | null } {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  if (xs.length < 2) return { mean, sd: null };
  const ss = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (xs.length - 1)) };
}

/** z-scores (x - mean) / SD with the sample SD; null without variation. */
export function standardize(xs: readonly number[]): number[] | null {
  const { mean, sd } = meanSd(xs);
  if (sd === null || !(sd > 0)) return null;
  return xs.map((x) => (x - mean) / sd);
}

/** Subtract each group's mean (the within transformation of fixed effects). */
export function demeanWithin(xs: readonly number[], groups: readonly string[]): number[] {
  const acc = new Map<string, { s: number; n: number }>();
  xs.forEach((x, i) => {
    const a = acc.get(groups[i]!) ?? { s: 0, n: 0 };
    acc.set(groups[i]!, { s: a.s + x, n: a.n + 1 });
  });
  return xs.map((x, i) => {
    const a = acc.get(groups[i]!)!;
    return x - a.s / a.n;
  });
}

/**
 * Least squares: the b minimizing |y - X b|^2 (X given as rows), by the normal equations and
 * Gaussian elimination with partial pivoting. null when X'X is singular (a column without
 * variation or collinear columns) or there are fewer rows than columns.
 */
export function leastSquares(y: readonly number[], X: ReadonlyArray<readonly number[]>): number[] | null {
  const k = X[0]?.length ?? 0;
  if (k === 0 || X.length < k) return null;
  const a: number[][] = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  X.forEach((row, r) => {
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) a[i]![j]! += row[i]! * row[j]!;
      a[i]![k]! += row[i]! * y[r]!;
    }
  });
  const scale = Math.max(...a.map((row, i) => Math.abs(row[i]!)), 1e-300);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    if (Math.abs(a[p]![c]!) <= 1e-10 * scale) return null;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      if (f !== 0) for (let j = c; j <= k; j++) a[r]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => row[k]! / row[i]!);
}

/**
 * OLS of y on the columns of X (rows) with an intercept, or, when `groups` is given, with one
 * fixed effect per group (absorbed by demeaning y and X within groups, which gives the same
 * slopes as group dummies). Returns the slopes, in the order of X's columns (no intercept).
 */
export function ols(y: readonly number[], X: ReadonlyArray<readonly number[]>, groups?: readonly string[]): number[] | null {
  if (y.length !== X.length || y.length === 0) return null;
  if (groups) {
    const k = X[0]!.length;
    const cols = Array.from({ length: k }, (_, j) => demeanWithin(X.map((r) => r[j]!), groups));
    return leastSquares(demeanWithin(y, groups), X.map((_, i) => cols.map((c) => c[i]!)));
  }
  const b = leastSquares(y, X.map((r) => [1, ...r]));
  return b ? b.slice(1) : null;
}

// Statistics for the validation report: rank AUC, a seeded PRNG and percentile bootstrap
// intervals. Pure and deterministic (the same inputs give the same intervals on every run).

/** Mulberry32: a small seeded PRNG, so bootstrap intervals are reproducible byte for byte. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

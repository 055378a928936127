// Employment-weighted percentile of the final score (the score itself: displacement.ts).
import { clamp } from './num.ts';

/**
 * Percentile rank among US employment: the share of employment in occupations scoring lower,
 * plus half the share scoring the same (mid-rank, so ties share one percentile), times 100,
 * rounded. Occupations without employment get a rank but add no weight. When no occupation
 * has employment (tiny test bundles) every occupation weighs 1.
 */
export function employmentPercentiles(items: ReadonlyArray<{ score: number; employment: number | null }>): number[] {
  const anyWeight = items.some((i) => (i.employment ?? 0) > 0);
  const w = items.map((i) => (anyWeight ? Math.max(0, i.employment ?? 0) : 1));
  const total = w.reduce((a, b) => a + b, 0);
  const byScore = new Map<number, number>();
  items.forEach((it, i) => byScore.set(it.score, (byScore.get(it.score) ?? 0) + w[i]!));
  const sorted = [...byScore.keys()].sort((a, b) => a - b);
  const below = new Map<number, number>();
  let run = 0;
  for (const s of sorted) {
    below.set(s, run);
    run += byScore.get(s)!;
  }
  return items.map((it) => {
    if (total <= 0) return 50;
    // A score present only with zero weight sits between its neighbours: below + 0.
    const p = (below.get(it.score)! + byScore.get(it.score)! / 2) / total;
    return Math.round(clamp(p * 100, 0, 100));
  });
}

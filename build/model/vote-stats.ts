// Community vote statistics (timeline shape). Percentages are rounded to one decimal each, so
// they may sum to 99.9 or 100.1; the counts are exact and always sum to total.
import type { VoteStats } from './record-schemas.ts';

const pct = (count: number, total: number): number => (total === 0 ? 0 : Math.round((count / total) * 1000) / 10);

export function voteStats(counts: { agree: number; too_high: number; too_low: number }): VoteStats {
  const total = counts.agree + counts.too_high + counts.too_low;
  return {
    total,
    agree: counts.agree,
    too_high: counts.too_high,
    too_low: counts.too_low,
    agree_pct: pct(counts.agree, total),
    too_high_pct: pct(counts.too_high, total),
    too_low_pct: pct(counts.too_low, total),
  };
}

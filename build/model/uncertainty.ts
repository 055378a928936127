// What the interval's alternatives say besides the score range (model 3.1.0): how often each tier
// comes out (sensitivity shares, not probabilities: the alternatives' draw weights are a choice),
// the percentile's range, and a confidence word from how settled the evidence is. Pure.
import { tierFor } from './assess.ts';
import { quantileSorted, roundPreservingSum } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import type { RiskTier, TierTable } from './record-schemas.ts';
import { employmentPercentiles } from './percentiles.ts';

export type TierShares = Record<RiskTier, number>;

/** Share of the alternatives' scores in each tier, three decimals that add up to 1. */
export function tierShares(scores: readonly number[], tiers: TierTable): TierShares {
  const n: TierShares = { low: 0, medium: 0, high: 0 };
  for (const s of scores) n[tierFor(s, tiers)]++;
  const total = Math.max(1, scores.length);
  const [low, medium, high] = roundPreservingSum([n.low / total, n.medium / total, n.high / total], 3);
  return { low: low!, medium: medium!, high: high! };
}

/** The tier most alternatives give (ties: the lower tier, the less alarming word). */
export const modalTier = (s: TierShares): RiskTier => (s.medium > s.low ? (s.high > s.medium ? 'high' : 'medium') : s.high > s.low ? 'high' : 'low');

/** What the confidence word is made of: each published beside it. */
export interface ConfidenceInputs {
  /** Share of the alternatives that give the served tier (tier_shares[risk_tier]). */
  tier_share: number;
  /** Share of labelled time where the human and GPT-4 labels agree. */
  label_agreement: number;
  /** Share of work time with at least one exposure label. */
  label_coverage: number;
}

/**
 * High when every input reaches its `high` cut, low when any falls below its `medium` cut, medium
 * otherwise: the word says the weakest part of the evidence, not the size of the score.
 */
export function confidenceFromEvidence(x: ConfidenceInputs, p: ModelParamsSeed): RiskTier {
  const c = p.confidence;
  const pairs: Array<[number, { high: number; medium: number }]> = [
    [x.tier_share, c.tier_share.value],
    [x.label_agreement, c.label_agreement.value],
    [x.label_coverage, c.label_coverage.value],
  ];
  if (pairs.some(([v, cut]) => v < cut.medium)) return 'low';
  return pairs.every(([v, cut]) => v >= cut.high) ? 'high' : 'medium';
}

/**
 * Each occupation's percentile range: its employment-weighted percentile under every alternative
 * (each alternative ranks every occupation again), the q .. 1-q quantiles, widened to hold the
 * served percentile. `alternatives[i]` are occupation i's scores in the same alternative order.
 */
export function percentileRanges(
  served: readonly number[],
  alternatives: ReadonlyArray<readonly number[]>,
  employment: ReadonlyArray<number | null>,
  q: number,
): Array<{ low: number; high: number }> {
  const n = served.length;
  const m = alternatives[0]?.length ?? 0;
  const per = Array.from({ length: n }, () => new Float64Array(m));
  for (let j = 0; j < m; j++) {
    const ranks = employmentPercentiles(alternatives.map((a, i) => ({ score: a[j]!, employment: employment[i] ?? null })));
    for (let i = 0; i < n; i++) per[i]![j] = ranks[i]!;
  }
  return per.map((xs, i) => {
    if (m === 0) return { low: served[i]!, high: served[i]! };
    xs.sort();
    return { low: Math.min(served[i]!, Math.round(quantileSorted(xs, q))), high: Math.max(served[i]!, Math.round(quantileSorted(xs, 1 - q))) };
  });
}

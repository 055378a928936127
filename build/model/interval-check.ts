// How much the score interval covers of what was not used to make it (npm run validate): a
// held-out draw of alternatives, each dimension left out of the construction in turn, the
// one-at-a-time alternatives of the 2.x interval (plus the E2 weights and flat category factors
// a reviewer named), and the same held-out draw against the 2.x min-max interval.
import { tierFor } from './assess.ts';
import { BASE, evidenceVariants, type Variant } from './displacement.ts';
import { intervalAlternatives, intervalDimensions } from './interval.ts';
import type { OccupationScores } from './occupation-scores.ts';
import { quantileInterval } from './occupation-scores.ts';
import { round } from './num.ts';
import type { ModelParamsSeed } from './params.ts';
import type { TierTable } from './record-schemas.ts';

export interface Coverage {
  /** Alternatives tested, (occupation, alternative) scores, and how many of them fall inside. */
  alternatives: number;
  scores: number;
  inside: number;
  /** inside / scores, in percent, one decimal. */
  share_pct: number;
}

export interface IntervalCheck {
  held_out: Coverage;
  /** Per dimension: the interval made with it kept at the base level, against held-out alternatives that move it. */
  leave_one_dimension_out: Array<{ dimension: string } & Coverage>;
  /** One choice moved at a time: the 2.x family, E2 at each tried weight, category factors all 1. */
  one_at_a_time: Coverage & { outside_pct_by_variant: Record<string, number> };
  /** The held-out alternatives against the 2.x interval (min-max of the base and the one-at-a-time 2.x family). */
  held_out_by_2x_interval: Coverage;
  /** Occupations whose interval's ends fall in different tiers. */
  tier_crossing: { count: number; share_pct: number };
}

type Band = { low: number; high: number };

function coverage(bands: readonly Band[], scores: readonly number[][], alternatives: number): Coverage {
  let n = 0;
  let inside = 0;
  bands.forEach((b, i) => {
    for (const s of scores[i]!) {
      n++;
      if (s >= b.low && s <= b.high) inside++;
    }
  });
  return { alternatives, scores: n, inside, share_pct: n ? round((100 * inside) / n, 1) : 0 };
}

/** The one-at-a-time alternatives: the 2.x family, each E2 weight tried, flat category factors. */
export function oneAtATime(p: ModelParamsSeed): Variant[] {
  return [
    ...evidenceVariants(p),
    ...p.interval.e2_values.value.map((e2) => ({ ...BASE, name: `e2_weight_${e2}`, e2 })),
    { ...BASE, name: 'category_factors_all_1', category_factors: 'flat' as const },
  ];
}

export function intervalCheck(scores: OccupationScores, p: ModelParamsSeed, tiers: TierTable): IntervalCheck {
  const { scored, scoresUnder } = scores;
  const q = p.interval.quantile.value;
  const bands: Band[] = scored.map((x) => ({ low: x.low, high: x.high }));
  const heldOut = intervalAlternatives(p, 'held_out');
  const heldScores = scored.map((x) => scoresUnder(x.d, heldOut));

  const leave = intervalDimensions(p).map((dim) => {
    const construction = intervalAlternatives(p, 'construction', dim.name);
    const moved = heldOut.flatMap((a, j) => (a.levels[dim.name] !== 0 ? [j] : []));
    const b = scored.map((x) => quantileInterval(x.score, scoresUnder(x.d, construction), q));
    return { dimension: dim.name, ...coverage(b, heldScores.map((s) => moved.map((j) => s[j]!)), moved.length) };
  });

  const single = oneAtATime(p);
  const singleScores = scored.map((x) => scoresUnder(x.d, single));
  const outside: Record<string, number> = {};
  single.forEach((v, j) => {
    const out = scored.filter((_, i) => singleScores[i]![j]! < bands[i]!.low || singleScores[i]![j]! > bands[i]!.high).length;
    outside[v.name] = round((100 * out) / Math.max(1, scored.length), 1);
  });

  // The 2.x interval: min-max over the base score and the 2.x family (its first 22 entries).
  const old = evidenceVariants(p).length;
  const oldBands = scored.map((x, i) => {
    const xs = [x.score, ...singleScores[i]!.slice(0, old)];
    return { low: Math.min(...xs), high: Math.max(...xs) };
  });
  const crossing = scored.filter((x) => tierFor(x.low, tiers) !== tierFor(x.high, tiers)).length;
  return {
    held_out: coverage(bands, heldScores, heldOut.length),
    leave_one_dimension_out: leave,
    one_at_a_time: { ...coverage(bands, singleScores, single.length), outside_pct_by_variant: outside },
    held_out_by_2x_interval: coverage(oldBands, heldScores, heldOut.length),
    tier_crossing: { count: crossing, share_pct: round((100 * crossing) / Math.max(1, scored.length), 1) },
  };
}

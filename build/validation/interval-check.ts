// How much the score interval covers of what was not used to make it (npm run validate): a
// held-out draw of alternatives, each dimension left out of the construction in turn, the
// one-at-a-time alternatives of the 2.x interval (plus the E2 weights and flat category factors
// a reviewer named), and the same held-out draw against the 2.x min-max interval.
import { tierFor } from '../model/assess.ts';
import { BASE, evidenceVariants, type Variant } from '../model/displacement.ts';
import { intervalAlternatives, intervalDimensions } from '../model/interval.ts';
import type { OccupationScores } from '../model/occupation-scores.ts';
import { quantileInterval } from '../model/occupation-scores.ts';
import { round } from '../model/num.ts';
import type { ModelParamsSeed } from '../model/params.ts';
import type { TierTable } from '../model/record-schemas.ts';

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
  /**
   * Each named structural alternative alone (kappa 0, one rater's labels, AEI off): the share of
   * occupations whose score under it falls inside an interval made without the construction
   * alternatives that take it (held out), and inside the published interval.
   */
  structural: Array<{ name: string; held_out_alternatives: number; occupations: number; inside_held_out: number; inside_held_out_pct: number; inside_published_pct: number }>;
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

/** The structural choices the validation cannot separate, each as one alternative and the construction levels that take it. */
export function structuralAlternatives(): Array<{ variant: Variant; takes: (levels: Record<string, number>) => boolean }> {
  return [
    { variant: { ...BASE, name: 'kappa_0', kappa: 0 }, takes: (l) => l.kappa === 3 },
    { variant: { ...BASE, name: 'human_labels_only', raters: 'human' }, takes: (l) => l.raters === 1 },
    { variant: { ...BASE, name: 'gpt4_labels_only', raters: 'gpt4' }, takes: (l) => l.raters === 2 },
    { variant: { ...BASE, name: 'aei_off', usage: false, aei: false }, takes: (l) => l.aei_usage === 1 || l.aei_collaboration === 1 },
  ];
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
  const construction = intervalAlternatives(p, 'construction');
  const structural = structuralAlternatives().map(({ variant, takes }) => {
    const keep = construction.flatMap((a, j) => (takes(a.levels) ? [] : [j]));
    let inside = 0;
    let published = 0;
    scored.forEach((x, i) => {
      const s = scoresUnder(x.d, [variant])[0]!;
      // alternatives[0] is the base model's score; construction alternative j is alternatives[j + 1].
      const band = quantileInterval(x.score, keep.map((j) => x.alternatives[j + 1]!), q);
      if (s >= band.low && s <= band.high) inside++;
      if (s >= bands[i]!.low && s <= bands[i]!.high) published++;
    });
    const n = Math.max(1, scored.length);
    return { name: variant.name, held_out_alternatives: construction.length - keep.length, occupations: scored.length, inside_held_out: inside, inside_held_out_pct: round((100 * inside) / n, 1), inside_published_pct: round((100 * published) / n, 1) };
  });
  const crossing = scored.filter((x) => tierFor(x.low, tiers) !== tierFor(x.high, tiers)).length;
  return {
    held_out: coverage(bands, heldScores, heldOut.length),
    leave_one_dimension_out: leave,
    one_at_a_time: { ...coverage(bands, singleScores, single.length), outside_pct_by_variant: outside },
    held_out_by_2x_interval: coverage(oldBands, heldScores, heldOut.length),
    structural,
    tier_crossing: { count: crossing, share_pct: round((100 * crossing) / Math.max(1, scored.length), 1) },
  };
}

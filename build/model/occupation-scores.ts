// Occupation scores from the drafts: complementarity relative to the least complemented
// occupation, shrinkage toward the median occupation, the scale, and the interval over the
// sampled alternatives of interval.ts (each alternative re-runs the occupation's layers).
import { complementarityMultiplier } from './complementarity.ts';
import { BASE, sameLayers, scaleScore, shrunkDisplacement, variantLayers, type OccupationLayers, type Variant } from './displacement.ts';
import type { Draft } from './draft.ts';
import { intervalAlternatives } from './interval.ts';
import { median, quantileSorted } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

export interface ScoredDraft {
  d: Draft;
  score: number;
  low: number;
  high: number;
  /**
   * The score under the base model, then under every construction alternative in
   * intervalAlternatives' order: low and high are their central quantile range. Transitions
   * compare two occupations alternative by alternative (one modelling choice moves both scores).
   */
  alternatives: number[];
}

export interface OccupationScores {
  scored: ScoredDraft[];
  /** The least complemented occupation's theta. */
  thetaMin: number;
  kappa: number;
  /** Median complemented exposure: the shrinkage target. */
  prior: number;
  /** An occupation's score under each of `variants` (the same steps as its published score). */
  scoresUnder: (d: Draft, variants: readonly Variant[]) => number[];
}

/** The interval of one occupation: the q .. 1-q quantiles of its alternatives' scores, widened to hold the base score. */
export function quantileInterval(score: number, scores: readonly number[], q: number): { low: number; high: number } {
  if (scores.length === 0) return { low: score, high: score }; // no alternative: no range to report
  const s = Float64Array.from(scores).sort();
  return { low: Math.min(score, Math.round(10 * quantileSorted(s, q)) / 10), high: Math.max(score, Math.round(10 * quantileSorted(s, 1 - q)) / 10) };
}

export function scoreOccupations(drafts: readonly Draft[], p: ModelParamsSeed): OccupationScores {
  const thetaMin = Math.min(...drafts.map((d) => d.theta));
  const kappa = p.complementarity.kappa.value;
  const prior = median(drafts.map((d) => d.base.substitution_exposure * complementarityMultiplier(d.theta, thetaMin, kappa)));
  const k = p.scale.prior_tasks.value;
  const h = p.scale.half_saturation.value;
  const scoreOf = (l: OccupationLayers, th: number, kap: number, kk = k) =>
    scaleScore(shrunkDisplacement(l.substitution_exposure, complementarityMultiplier(th, thetaMin, kap), l.labelled_tasks, prior, kk), h);
  const scoresUnder = (d: Draft, variants: readonly Variant[]): number[] => {
    // Variants that move only kappa or prior_tasks have the draft's base layers.
    const own = variants.filter((v) => !sameLayers(v, BASE));
    const layers = variantLayers(d.inputs, own, p, d.tilt);
    let j = 0;
    return variants.map((v) => scoreOf(sameLayers(v, BASE) ? d.base : layers[j++]!, d.theta, v.kappa ?? kappa, v.prior_tasks ?? k));
  };
  const alternatives = intervalAlternatives(p, 'construction');
  const q = p.interval.quantile.value;
  const scored = drafts.map((d) => {
    const score = scoreOf(d.base, d.theta, kappa);
    const vs = scoresUnder(d, alternatives);
    const { low, high } = quantileInterval(score, vs, q);
    return { d, score, low, high, alternatives: [score, ...vs] };
  });
  return { scored, thetaMin, kappa, prior, scoresUnder };
}

// Occupation scores from the drafts: complementarity relative to the least complemented
// occupation, shrinkage toward the median occupation, the scale, and the interval over the
// evidence variants (each variant re-runs the occupation's layers).
import { complementarityMultiplier } from './complementarity.ts';
import { BASE, confidenceFromWidth, evidenceVariants, intervalWidth, sameLayers, scaleScore, shrunkDisplacement, variantLayers, type OccupationLayers } from './displacement.ts';
import type { Draft } from './draft.ts';
import { median } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

export interface ScoredDraft {
  d: Draft;
  score: number;
  low: number;
  high: number;
  /**
   * The score under every alternative the interval is made of, the base model first then each
   * evidence variant in evidenceVariants' order: low and high are their min and max. Transitions
   * compare two occupations alternative by alternative (one modelling choice moves both scores).
   */
  alternatives: number[];
  confidence: ReturnType<typeof confidenceFromWidth>;
}

export interface OccupationScores {
  scored: ScoredDraft[];
  /** The least complemented occupation's theta. */
  thetaMin: number;
  kappa: number;
  /** Median complemented exposure: the shrinkage target. */
  prior: number;
}

export function scoreOccupations(drafts: readonly Draft[], p: ModelParamsSeed): OccupationScores {
  const thetaMin = Math.min(...drafts.map((d) => d.theta));
  const kappa = p.complementarity.kappa.value;
  const prior = median(drafts.map((d) => d.base.substitution_exposure * complementarityMultiplier(d.theta, thetaMin, kappa)));
  const k = p.scale.prior_tasks.value;
  const h = p.scale.half_saturation.value;
  const scoreOf = (l: OccupationLayers, th: number, kap: number, kk = k) =>
    scaleScore(shrunkDisplacement(l.substitution_exposure, complementarityMultiplier(th, thetaMin, kap), l.labelled_tasks, prior, kk), h);
  const variants = evidenceVariants(p);
  // The kappa and prior_tasks variants move only the score's later steps: their layers are the draft's base layers.
  const own = variants.filter((v) => !sameLayers(v, BASE));
  const at = variants.map((v) => own.indexOf(v)); // -1: the base layers
  const scored = drafts.map((d) => {
    const score = scoreOf(d.base, d.theta, kappa);
    const layers = variantLayers(d.inputs, own, p, d.tilt);
    const vs = variants.map((v, i) => scoreOf(at[i]! < 0 ? d.base : layers[at[i]!]!, d.theta, v.kappa ?? kappa, v.prior_tasks ?? k));
    const low = Math.min(score, ...vs);
    const high = Math.max(score, ...vs);
    return { d, score, low, high, alternatives: [score, ...vs], confidence: confidenceFromWidth(intervalWidth(low, high), p) };
  });
  return { scored, thetaMin, kappa, prior };
}

// Displacement years from adoption evidence. Adoption of an occupation's AI-exposed work follows
// a logistic curve (Griliches 1957; Comin and Hobijn 2010):
//   year = t_latest + (logit(target) - logit(a)) / k.
// The rate k spans the published fast/slow range: the AEI trend is not used, because changes in
// task usage between non-overlapping pairs of releases do not agree (the validation reports the
// rank correlation; 0.002 over 2,007 tasks on the releases of model 2.0.0), so the trend is noise.
// The level a is the population adoption of exposed work (Bick, Blandin and Deming 2024) times the
// occupation's AEI usage index (exposure-weighted usage intensity / the mean occupation's), used
// only when the usage level carries signal (it agrees across releases; the model report says so)
// and divided and multiplied by level_band for its uncertainty; else every occupation starts at the
// floor's range. The earliest year pairs the fast rate with the high level, the latest the slow
// rate with the low level, so every window spans years (a single year would claim a certainty no
// evidence has). These are years by which half of the exposed work could be done with AI, not
// years of job loss.
import { clamp } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

const logit = (x: number) => Math.log(x / (1 - x));
/** Logistic rate for a curve that goes from 10% to 90% in `years`: ln(81) / years. */
export const rateFor10to90 = (years: number): number => Math.log(81) / years;

export interface AdoptionEvidence {
  /** Occupation's usage index: exposure-weighted AEI usage intensity over the mean occupation's. */
  usage_index: number;
  /** Whether the usage level carries signal (agrees across releases): else the index is not used. */
  level_signal: boolean;
  /** Date of the latest AEI release as a fractional year. */
  t_latest: number;
}

export interface Years {
  low: number;
  high: number;
  /** Where the level came from: the AEI usage index, or the floor alone; the rate is always the published range. */
  basis: 'aei_level' | 'published_range';
  negligible: boolean;
}

export function adoptionYears(e: AdoptionEvidence, score: number, p: ModelParamsSeed): Years {
  const t = p.timeline;
  const kFast = rateFor10to90(t.fast_10_90_years.value);
  const kSlow = rateFor10to90(t.slow_10_90_years.value);
  const band = t.level_band.value;
  const useLevel = e.level_signal && e.usage_index > 0;
  // The level is kept where even its doubled value stays below the target share, so that the two
  // ends never meet (a level at the target would date both ends to the latest release).
  const a = clamp(useLevel ? t.population_adoption.value * e.usage_index : t.min_adoption.value, t.min_adoption.value, (0.95 * t.target_share.value) / band);
  const [aLow, aHigh] = [a / band, a * band];
  const year = (k: number, level: number) => clamp(Math.round(e.t_latest + (logit(t.target_share.value) - logit(level)) / k), t.first_year.value, t.last_year.value);
  const negligible = score < t.negligible_score.value;
  const low = year(kFast, aHigh);
  const high = negligible ? t.last_year.value : year(kSlow, aLow);
  return { low: Math.min(low, high), high: Math.max(low, high), basis: useLevel ? 'aei_level' : 'published_range', negligible };
}

// Displacement years from adoption evidence. Adoption of an occupation's AI-exposed work follows
// a logistic curve (Griliches 1957; Comin and Hobijn 2010):
//   year = t_latest + (logit(target) - logit(a)) / k.
// The level a is the population adoption of exposed work (Bick, Blandin and Deming 2024) times the
// occupation's AEI usage index (exposure-weighted usage intensity / the mean occupation's). The rate
// k comes from the AEI trend: the growth of the share of the occupation's exposed work observed in
// use between the first and the latest release, ln(latest / first) / years (the logistic rate at
// low adoption), widened by trend_band both ways and kept inside the published fast/slow range;
// without that evidence k spans the published range, so thin evidence gives a wider window.
// These are years by which half of the exposed work could be done with AI, not years of job loss.
import { clamp } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

const logit = (x: number) => Math.log(x / (1 - x));
/** Logistic rate for a curve that goes from 10% to 90% in `years`: ln(81) / years. */
export const rateFor10to90 = (years: number): number => Math.log(81) / years;

export interface AdoptionEvidence {
  /** Occupation's usage index: exposure-weighted AEI usage intensity over the mean occupation's. */
  usage_index: number;
  /** Share of exposed work observed in use in the first and in the latest AEI release. */
  observed_first: number;
  observed_latest: number;
  /** Release dates as fractional years. */
  t_first: number;
  t_latest: number;
}

export interface Years {
  low: number;
  high: number;
  /** Where the rate came from: the AEI trend, or the published range alone. */
  basis: 'aei_trend' | 'published_range';
  negligible: boolean;
}

export function adoptionYears(e: AdoptionEvidence, score: number, p: ModelParamsSeed): Years {
  const t = p.timeline;
  const kFast = rateFor10to90(t.fast_10_90_years.value);
  const kSlow = rateFor10to90(t.slow_10_90_years.value);
  const a = clamp(t.population_adoption.value * e.usage_index, t.min_adoption.value, 0.95);
  let range: [number, number] = [kSlow, kFast];
  let basis: Years['basis'] = 'published_range';
  if (e.t_latest > e.t_first && e.observed_first > 0 && e.observed_latest > e.observed_first) {
    const kObs = Math.log(e.observed_latest / e.observed_first) / (e.t_latest - e.t_first);
    const b = t.trend_band.value;
    range = [clamp(kObs / b, kSlow, kFast), clamp(kObs * b, kSlow, kFast)];
    basis = 'aei_trend';
  }
  const year = (k: number) => {
    const y = a >= t.target_share.value ? e.t_latest : e.t_latest + (logit(t.target_share.value) - logit(a)) / k;
    return clamp(Math.round(y), t.first_year.value, t.last_year.value);
  };
  const negligible = score < t.negligible_score.value;
  const low = year(range[1]);
  const high = negligible ? t.last_year.value : year(range[0]);
  return { low: Math.min(low, high), high: Math.max(low, high), basis, negligible };
}

// Displacement years: where an occupation's exposed activities fall on the published
// automation-adoption S-curves (McKinsey Global Institute 2023, early and late scenarios).
// Activities are adopted roughly in order of exposure, so an occupation scoring s sits at
// adoption quantile q = q_min + (q_max - q_min) * (1 - s/100): the year each scenario's curve
// reaches q. Strictly decreasing in s; only the rounding to years and the first_year clamp tie. This is a year
// for the adoption of exposed work activities, not a forecast of job loss.
import { clamp } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

/** Logistic adoption curve through (start_year, start_share) and (midpoint, 0.5), inverted at q. */
export function adoptionYear(q: number, midpoint: number, p: ModelParamsSeed['timeline']): number {
  const s0 = p.start_share.value;
  const k = Math.log((1 - s0) / s0) / (midpoint - p.start_year.value);
  return midpoint + Math.log(q / (1 - q)) / k;
}

export function displacementYears(score: number, p: ModelParamsSeed): { low: number; high: number } {
  const t = p.timeline;
  const s = clamp(score, 0, 100) / 100;
  const q = t.quantile_min.value + (t.quantile_max.value - t.quantile_min.value) * (1 - s);
  const year = (mid: number) =>
    clamp(Math.round(adoptionYear(q, mid, t)), t.first_year.value, t.last_year.value);
  const low = year(t.early_midpoint_year.value);
  const high = year(t.late_midpoint_year.value);
  return { low: Math.min(low, high), high: Math.max(low, high) };
}

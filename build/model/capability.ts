// Task-level formulas: AI capability, automation propensity and task risk. Each is a small pure
// function so the methodology can quote it and the unit tests can check it by hand.
import type { ExposureLabel } from '../sources/bundle.ts';
import { clamp } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

type E = 'E0' | 'E1' | 'E2';
type T = 'T0' | 'T1' | 'T2' | 'T3' | 'T4';

/** L = mean of the beta values of the labels present (human, GPT-4); null when neither is. */
export function labelScore(human: E | null, gpt4: E | null, p: ModelParamsSeed): number | null {
  const v = p.capability.label_values.value;
  const xs = [human, gpt4].filter((x): x is E => x !== null).map((x) => v[x]);
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** 1 - |beta_human - beta_gpt4|: 1 when the raters agree; null unless both rated the task. */
export function labelAgreement(human: E | null, gpt4: E | null, p: ModelParamsSeed): number | null {
  if (human === null || gpt4 === null) return null;
  const v = p.capability.label_values.value;
  return 1 - Math.abs(v[human] - v[gpt4]);
}

/** cap = L + w * U * (1 - L): observed usage lifts capability toward 1, never lowers it. */
export function capabilityScore(label: number, usage: number, p: ModelParamsSeed): number {
  return clamp(label + p.capability.usage_weight.value * usage * (1 - label), 0, 1);
}

/**
 * raw = t_weight * T + (1 - t_weight) * A when both exist, else whichever exists, else the
 * default; propensity = floor + (1 - floor) * raw.
 */
export function automationPropensity(t: T | null, aeiShare: number | null, p: ModelParamsSeed): number {
  const pp = p.propensity;
  const tv = t === null ? null : pp.t_values.value[t];
  let raw: number;
  if (tv !== null && aeiShare !== null) raw = pp.t_weight.value * tv + (1 - pp.t_weight.value) * aeiShare;
  else if (tv !== null) raw = tv;
  else if (aeiShare !== null) raw = aeiShare;
  else raw = pp.default_raw.value;
  return clamp(pp.floor.value + (1 - pp.floor.value) * raw, 0, 1);
}

export function taskRisk(capability: number, propensity: number, categoryFactor: number): number {
  return clamp(capability * propensity * categoryFactor, 0, 1);
}

export const labelsOf = (l: ExposureLabel | undefined) => ({
  human: l?.human ?? null,
  gpt4: l?.gpt4 ?? null,
  automation: l?.gpt4_automation ?? null,
});

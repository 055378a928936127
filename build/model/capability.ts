// Task-level formulas: AI capability, automation propensity and task risk. Each is a small pure
// function so the methodology can quote it and the unit tests can check it by hand.
import type { ExposureLabel } from './inputs.ts';
import { clamp } from './num.ts';
import type { ModelParamsSeed } from './params.ts';

type E = 'E0' | 'E1' | 'E2';
type T = 'T0' | 'T1' | 'T2' | 'T3' | 'T4';

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

export function taskRisk(capability: number, propensity: number, categoryFactor: number): number {
  return clamp(capability * propensity * categoryFactor, 0, 1);
}

export const labelsOf = (l: ExposureLabel | undefined) => ({
  human: l?.human ?? null,
  gpt4: l?.gpt4 ?? null,
  automation: l?.gpt4_automation ?? null,
});

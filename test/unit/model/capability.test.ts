import { beforeAll, describe, expect, it } from 'vitest';
import { capabilityScore, labelAgreement, taskRisk } from '../../../build/model/capability.ts';
import { labelValue, propensity } from '../../../build/model/displacement.ts';
import type { ModelParamsSeed } from '../../../build/model/params.ts';
import { realSeeds } from './seeds.ts';

let p: ModelParamsSeed;
beforeAll(async () => {
  p = (await realSeeds()).params;
});

describe('capability', () => {
  it('uses the beta convention E1 = 1, E2 = 0.5, E0 = 0 and averages the two raters', () => {
    const v = p.capability.label_values.value;
    expect(labelValue(v.E1, v.E1, 'both')).toBe(1);
    expect(labelValue(v.E1, v.E2, 'both')).toBe(0.75);
    expect(labelValue(v.E0, v.E2, 'both')).toBe(0.25);
    expect(labelValue(null, v.E2, 'both')).toBe(0.5);
    expect(labelValue(null, null, 'both')).toBeNull();
    // One rater only (the leave-one-rater-out variants), falling back to the other when absent.
    expect(labelValue(v.E0, v.E1, 'human')).toBe(0);
    expect(labelValue(v.E0, v.E1, 'gpt4')).toBe(1);
    expect(labelValue(null, v.E2, 'human')).toBe(0.5);
  });

  it('measures agreement as 1 - |beta difference|, only with both raters', () => {
    expect(labelAgreement('E1', 'E1', p)).toBe(1);
    expect(labelAgreement('E0', 'E2', p)).toBe(0.5);
    expect(labelAgreement('E0', 'E1', p)).toBe(0);
    expect(labelAgreement('E1', null, p)).toBeNull();
  });

  it('lets usage lift capability toward 1 by at most usage_weight of the remaining gap', () => {
    const w = p.capability.usage_weight.value; // 0.5
    expect(capabilityScore(0.5, 0, p)).toBe(0.5);
    expect(capabilityScore(0.5, 0.4, p)).toBeCloseTo(0.5 + w * 0.4 * 0.5, 12); // 0.6
    expect(capabilityScore(0, 1, p)).toBeCloseTo(w, 12);
    expect(capabilityScore(1, 1, p)).toBe(1);
  });

  it('combines the T-level and the AEI automation share, then applies the floor', () => {
    const pp = { t_weight: 0.5, floor: 0.25, default_raw: 0.5 };
    // T2 = 0.5 and AEI 0.3, equal weights: raw 0.4 -> 0.25 + 0.75 * 0.4 = 0.55
    expect(propensity(0.5, 0.3, pp)).toBeCloseTo(0.55, 12);
    expect(propensity(1, null, pp)).toBe(1);
    expect(propensity(0, null, pp)).toBe(0.25);
    expect(propensity(null, 0.8, pp)).toBeCloseTo(0.25 + 0.75 * 0.8, 12);
    // Neither: default 0.5 -> 0.625
    expect(propensity(null, null, pp)).toBeCloseTo(0.625, 12);
  });

  it('multiplies capability, propensity and category factor', () => {
    expect(taskRisk(0.6, 0.55, 0.85)).toBeCloseTo(0.6 * 0.55 * 0.85, 12);
    expect(taskRisk(1, 1, 1)).toBe(1);
  });
});

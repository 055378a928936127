import { beforeAll, describe, expect, it } from 'vitest';
import { automationPropensity, capabilityScore, labelAgreement, labelScore, taskRisk } from '../../../build/model/capability.ts';
import type { ModelParamsSeed } from '../../../build/model/params.ts';
import { realSeeds } from './seeds.ts';

let p: ModelParamsSeed;
beforeAll(async () => {
  p = (await realSeeds()).params;
});

describe('capability', () => {
  it('uses the beta convention E1 = 1, E2 = 0.5, E0 = 0 and averages the two raters', () => {
    expect(labelScore('E1', 'E1', p)).toBe(1);
    expect(labelScore('E1', 'E2', p)).toBe(0.75);
    expect(labelScore('E0', 'E2', p)).toBe(0.25);
    expect(labelScore(null, 'E2', p)).toBe(0.5);
    expect(labelScore(null, null, p)).toBeNull();
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
    const f = p.propensity.floor.value; // 0.25
    // T2 = 0.5 and AEI 0.3, equal weights: raw 0.4 -> 0.25 + 0.75 * 0.4 = 0.55
    expect(automationPropensity('T2', 0.3, p)).toBeCloseTo(f + (1 - f) * 0.4, 12);
    expect(automationPropensity('T4', null, p)).toBe(1);
    expect(automationPropensity('T0', null, p)).toBe(f);
    expect(automationPropensity(null, 0.8, p)).toBeCloseTo(f + (1 - f) * 0.8, 12);
    // Neither: default 0.5 -> 0.625
    expect(automationPropensity(null, null, p)).toBeCloseTo(f + (1 - f) * 0.5, 12);
  });

  it('multiplies capability, propensity and category factor', () => {
    expect(taskRisk(0.6, 0.55, 0.85)).toBeCloseTo(0.6 * 0.55 * 0.85, 12);
    expect(taskRisk(1, 1, 1)).toBe(1);
  });
});

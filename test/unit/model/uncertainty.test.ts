// Tier shares, the confidence rule and the percentile range (build/model/uncertainty.ts), and kappa 0 among the alternatives.
import { describe, expect, it } from 'vitest';
import { intervalAlternatives, intervalDimensions } from '../../../build/model/interval.ts';
import type { TierTable } from '../../../build/model/record-schemas.ts';
import { confidenceFromEvidence, modalTier, percentileRanges, tierShares } from '../../../build/model/uncertainty.ts';
import { structuralAlternatives } from '../../../build/validation/interval-check.ts';
import { realSeeds } from './seeds.ts';

const p = (await realSeeds()).params;
const tiers: TierTable = [
  { tier: 'low', min: 0 },
  { tier: 'medium', min: 30 },
  { tier: 'high', min: 60 },
];

describe('tier shares', () => {
  it('counts each alternative in the tier its score falls in, and the shares add up to 1', () => {
    // 3 of 7 low, 1 medium (30 is the medium cut), 3 high: 0.429 + 0.143 + 0.429 = 1.001 before the sum is kept.
    const s = tierShares([0, 10, 29.9, 30, 60, 70, 100], tiers);
    expect(s.low + s.medium + s.high).toBeCloseTo(1, 12);
    expect(s.medium).toBeCloseTo(0.143, 12);
    expect([s.low, s.high].sort()).toEqual([0.428, 0.429]);
  });
  it('names the most common tier, the lower on a tie', () => {
    expect(modalTier({ low: 0.2, medium: 0.5, high: 0.3 })).toBe('medium');
    expect(modalTier({ low: 0.1, medium: 0.4, high: 0.5 })).toBe('high');
    expect(modalTier({ low: 0.5, medium: 0, high: 0.5 })).toBe('low');
  });
});

describe('confidence from the evidence', () => {
  const c = p.confidence;
  const hi = { tier_share: c.tier_share.value.high, label_agreement: c.label_agreement.value.high, label_coverage: c.label_coverage.value.high };
  it('is high only when every input reaches its high cut', () => {
    expect(confidenceFromEvidence(hi, p)).toBe('high');
    expect(confidenceFromEvidence({ ...hi, label_agreement: c.label_agreement.value.high - 0.01 }, p)).toBe('medium');
  });
  it('is low when any input falls below its medium cut, whatever the others', () => {
    expect(confidenceFromEvidence({ ...hi, tier_share: c.tier_share.value.medium - 0.01 }, p)).toBe('low');
    expect(confidenceFromEvidence({ ...hi, label_coverage: c.label_coverage.value.medium - 0.01 }, p)).toBe('low');
  });
});

describe('percentile range', () => {
  it('ranks every occupation again under each alternative and keeps the served percentile inside', () => {
    // alternatives[i] is occupation i under each alternative. Two of equal employment swap places in the second one: each is at 25 once and 75 once.
    const r = percentileRanges([25, 75], [[1, 2], [2, 1]], [100, 100], 0);
    expect(r).toEqual([{ low: 25, high: 75 }, { low: 25, high: 75 }]);
    // The same order under every alternative: no range beyond the served percentile.
    expect(percentileRanges([25, 75], [[1, 1], [2, 3]], [100, 100], 0)).toEqual([{ low: 25, high: 25 }, { low: 75, high: 75 }]);
  });
});

describe('kappa 0 among the alternatives', () => {
  it('is a level of the kappa dimension, drawn in the construction set', () => {
    const kappa = intervalDimensions(p).find((d) => d.name === 'kappa')!;
    expect(kappa.levels.at(-1)).toEqual({ kappa: 0 });
    expect(intervalAlternatives(p, 'construction').some((a) => a.kappa === 0)).toBe(true);
  });
  it('names each structural alternative by the construction level it takes', () => {
    const alts = intervalAlternatives(p, 'construction');
    for (const s of structuralAlternatives()) {
      const taking = alts.filter((a) => s.takes(a.levels));
      expect(taking.length).toBeGreaterThan(0);
      if (s.variant.name === 'kappa_0') expect(taking.every((a) => a.kappa === 0)).toBe(true);
      if (s.variant.name === 'human_labels_only') expect(taking.every((a) => a.raters === 'human')).toBe(true);
    }
  });
});

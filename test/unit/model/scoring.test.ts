import { beforeAll, describe, expect, it } from 'vitest';
import { tierFor } from '../../../build/model/assess.ts';
import type { Seeds } from '../../../build/model/params.ts';
import { confidenceIndex, confidenceLevel, employmentPercentiles, finalScore } from '../../../build/model/scoring.ts';
import { displacementYears } from '../../../build/model/timeline.ts';
import { realSeeds } from './seeds.ts';

let seeds: Seeds;
beforeAll(async () => {
  seeds = await realSeeds();
});

describe('final score', () => {
  it('is 100 * exposure * M / reference_raw, one decimal, clamped to 100', () => {
    const p = seeds.params; // reference_raw 0.5
    expect(finalScore(0.2, 0.8, p)).toBe(32); // 0.16 / 0.5
    expect(finalScore(0.123456, 1, p)).toBe(24.7); // 24.69...
    expect(finalScore(0.9, 0.9, p)).toBe(100);
    expect(finalScore(0, 0.8, p)).toBe(0);
  });
});

describe('tiers', () => {
  it('gives each score the last tier whose min it reaches (boundaries belong to the upper tier)', () => {
    const tiers = seeds.tiers.tiers.map((t) => ({ tier: t.tier, min: t.min }));
    const [, medium, high] = tiers;
    expect(tierFor(0, tiers)).toBe('low');
    expect(tierFor(medium!.min - 0.1, tiers)).toBe('low');
    expect(tierFor(medium!.min, tiers)).toBe('medium');
    expect(tierFor(high!.min - 0.1, tiers)).toBe('medium');
    expect(tierFor(high!.min, tiers)).toBe('high');
    expect(tierFor(100, tiers)).toBe('high');
  });
});

describe('confidence', () => {
  it('is the weighted mean of agreement, coverage and completeness, cut at the seeded thresholds', () => {
    const p = seeds.params; // weights 0.6 / 0.2 / 0.2, high 0.9, medium 0.82
    expect(confidenceIndex({ agreement: 0.5, coverage: 1, completeness: 1 }, p)).toBeCloseTo(0.6 * 0.5 + 0.2 + 0.2, 12);
    expect(confidenceLevel(confidenceIndex({ agreement: 1, coverage: 1, completeness: 1 }, p), p)).toBe('high');
    expect(confidenceLevel(0.82, p)).toBe('medium');
    expect(confidenceLevel(0.8199, p)).toBe('low');
  });
});

describe('employment-weighted percentiles', () => {
  it('ranks by the share of employment scoring lower plus half the share at the same score', () => {
    const r = employmentPercentiles([
      { score: 10, employment: 100 },
      { score: 20, employment: 300 },
      { score: 20, employment: 100 }, // tie with the previous one
      { score: 90, employment: 500 },
      { score: 50, employment: null }, // no weight, still ranked
    ]);
    // total 1000: score 10 -> 50/1000; score 20 -> (100 + 400/2)/1000; 50 -> 500/1000; 90 -> (500 + 250)/1000
    expect(r).toEqual([5, 30, 30, 75, 50]);
  });

  it('counts occupations equally when none has employment', () => {
    expect(employmentPercentiles([{ score: 1, employment: null }, { score: 2, employment: null }])).toEqual([25, 75]);
  });
});

describe('displacement years', () => {
  it('are monotonic: a higher score never gets a later year, and low <= high', () => {
    let prev = { low: Infinity, high: Infinity };
    for (let s = 0; s <= 100; s += 0.5) {
      const y = displacementYears(s, seeds.params);
      expect(y.low).toBeLessThanOrEqual(y.high);
      expect(y.low).toBeLessThanOrEqual(prev.low);
      expect(y.high).toBeLessThanOrEqual(prev.high);
      prev = y;
    }
  });

  it('put score 50 at each scenario midpoint and clamp to the first year', () => {
    const t = seeds.params.timeline;
    // q = 0.1 + 0.8 * 0.5 = 0.5: the logistic midpoint of each scenario
    expect(displacementYears(50, seeds.params)).toEqual({ low: t.early_midpoint_year.value, high: t.late_midpoint_year.value });
    // score 100: q = 0.1; early: 2030 + ln(1/9) / (ln(49) / 7) = 2026.05 -> clamped to 2027
    // late: 2060 + ln(1/9) / (ln(49) / 37) = 2038.9 -> 2039
    expect(displacementYears(100, seeds.params)).toEqual({ low: 2027, high: 2039 });
  });
});

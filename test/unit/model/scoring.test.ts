import { beforeAll, describe, expect, it } from 'vitest';
import { tierFor } from '../../../build/model/assess.ts';
import type { Seeds } from '../../../build/model/params.ts';
import { employmentPercentiles } from '../../../build/model/percentiles.ts';
import { realSeeds } from './seeds.ts';

let seeds: Seeds;
beforeAll(async () => {
  seeds = await realSeeds();
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


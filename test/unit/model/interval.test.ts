// The score interval's alternatives (build/model/interval.ts) and its quantile range.
import { describe, expect, it } from 'vitest';
import { BASE, occupationLayers, type TaskInputs } from '../../../build/model/displacement.ts';
import { intervalAlternatives, intervalDimensions } from '../../../build/model/interval.ts';
import { quantileInterval } from '../../../build/model/occupation-scores.ts';
import { realSeeds } from './seeds.ts';

const p = (await realSeeds()).params;

describe('interval alternatives', () => {
  const dims = intervalDimensions(p);
  const alts = intervalAlternatives(p, 'construction');

  it('covers the dimensions a reviewer would try, each with the base level first', () => {
    expect(dims.map((d) => d.name)).toEqual(
      expect.arrayContaining(['e2_weight', 'category_factors', 'time_weights', 'prior_tasks', 'aei_usage', 'aei_collaboration', 'gpt4_automation_levels', 'raters']),
    );
    for (const d of dims) expect(d.levels[0]).toEqual({});
    expect(dims.find((d) => d.name === 'e2_weight')!.levels.slice(1)).toEqual([{ e2: 0.25 }, { e2: 0.75 }]);
  });

  it('draws the seeded count, the same every time, disjoint from the held-out draw', () => {
    expect(alts).toHaveLength(p.interval.construction.value.count);
    expect(intervalAlternatives(p, 'construction')).toEqual(alts);
    const key = (a: { levels: Record<string, number> }) => JSON.stringify(a.levels);
    const held = intervalAlternatives(p, 'held_out');
    expect(held).toHaveLength(p.interval.held_out.value.count);
    // Another seed: the two sequences of combinations differ (a combination may recur by chance).
    expect(held.map(key)).not.toEqual(alts.map(key));
  });

  it('keeps each dimension at its base level about base_weight of the time and reaches every other level', () => {
    for (const d of dims) {
      const at = alts.map((a) => a.levels[d.name]!);
      const base = at.filter((x) => x === 0).length / at.length;
      // 200 draws at 0.5: a binomial standard error of 0.035; 0.35..0.65 is over 4 of them.
      expect(base).toBeGreaterThan(0.35);
      expect(base).toBeLessThan(0.65);
      for (let l = 1; l < d.levels.length; l++) expect(at).toContain(l);
    }
  });

  it('fixes one dimension at the base level and leaves every other draw as it was', () => {
    const fixed = intervalAlternatives(p, 'construction', 'e2_weight');
    fixed.forEach((a, i) => {
      expect(a.levels.e2_weight).toBe(0);
      expect(a.e2).toBeUndefined();
      expect({ ...a.levels, e2_weight: 0 }).toEqual({ ...alts[i]!.levels, e2_weight: 0 });
    });
    expect(() => intervalAlternatives(p, 'construction', 'nope')).toThrow(/no interval dimension/);
  });
});

describe('alternative choices in the layers', () => {
  const tasks: TaskInputs[] = [
    { human: 0.5, gpt4: 0.5, human_e2: true, gpt4_e2: true, usage: 0, aei: null, t: 1, category_factor: 0.5, weight: 1, type_weight: 1 },
    { human: 1, gpt4: 1, human_e2: false, gpt4_e2: false, usage: 0, aei: null, t: 1, category_factor: 1, weight: 1, type_weight: 1 },
  ];
  it('weights E2 labels at the alternative value', () => {
    // exposure = mean of capabilities: (0.5 + 1) / 2 base; (0.25 + 1) / 2 and (0.75 + 1) / 2
    expect(occupationLayers(tasks, BASE, p, 0).exposure).toBeCloseTo(0.75, 12);
    expect(occupationLayers(tasks, { ...BASE, e2: 0.25 }, p, 0).exposure).toBeCloseTo(0.625, 12);
    expect(occupationLayers(tasks, { ...BASE, e2: 0.75 }, p, 0).exposure).toBeCloseTo(0.875, 12);
  });
  it('sets every category factor to 1 when flat', () => {
    // T = 1 everywhere: propensity 1; substitution = 0.5 * (0.5 * 0.5 + 1 * 1) seeded, 0.5 * (0.5 + 1) flat
    expect(occupationLayers(tasks, BASE, p, 0).substitution_exposure).toBeCloseTo(0.625, 12);
    expect(occupationLayers(tasks, { ...BASE, category_factors: 'flat' }, p, 0).substitution_exposure).toBeCloseTo(0.75, 12);
  });
});

describe('quantile interval', () => {
  it('is the central range of the alternatives, widened to hold the base score', () => {
    const xs = Array.from({ length: 41 }, (_, i) => i); // 0..40: h = 40 * 0.025 = 1 -> 1 and 39
    expect(quantileInterval(20, xs, 0.025)).toEqual({ low: 1, high: 39 });
    expect(quantileInterval(45, xs, 0.025)).toEqual({ low: 1, high: 45 });
    expect(quantileInterval(0.5, xs, 0.025)).toEqual({ low: 0.5, high: 39 });
  });
});

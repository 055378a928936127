// The statistics of the declared tests on small data whose answers are worked out by hand.
import { describe, expect, it } from 'vitest';
import { binaryRow, growthRow } from '../../../../build/validation/declared.ts';
import { bootstrap, demeanWithin, leastSquares, ols, rankAuc, standardize } from '../../../../build/validation/stats.ts';

describe('OLS', () => {
  it('fits a line with an intercept', () => {
    // x 0 1 2, y 0 2 1: means 1 and 1; sum dx dy = 1, sum dx^2 = 2 -> slope 0.5 (intercept 0.5)
    expect(ols([0, 2, 1], [[0], [1], [2]])![0]).toBeCloseTo(0.5, 12);
    expect(leastSquares([0, 2, 1], [[1, 0], [1, 1], [1, 2]])!.map((b) => +b.toFixed(12))).toEqual([0.5, 0.5]);
  });

  it('absorbs group fixed effects by demeaning within groups', () => {
    // group a: x 0 1, y 0 1; group b: x 2 3, y 0 1. Within each group y rises 1 per x: slope 1.
    // Pooled with one intercept: x mean 1.5, y mean 0.5, sum dx dy = 1, sum dx^2 = 5 -> 0.2.
    const y = [0, 1, 0, 1];
    const X = [[0], [1], [2], [3]];
    expect(ols(y, X)![0]).toBeCloseTo(0.2, 12);
    expect(ols(y, X, ['a', 'a', 'b', 'b'])![0]).toBeCloseTo(1, 12);
    expect(demeanWithin([0, 1, 2, 3], ['a', 'a', 'b', 'b'])).toEqual([-0.5, 0.5, -0.5, 0.5]);
  });

  it('recovers two slopes with fixed effects when y = x + 2 z + group level exactly', () => {
    // group a (level 0): (x, z) = (0,0) (1,0) (0,1) -> y 0 1 2; group b (level 5): (0,1) (1,0) (1,1) -> y 7 6 8
    const X = [[0, 0], [1, 0], [0, 1], [0, 1], [1, 0], [1, 1]];
    const b = ols([0, 1, 2, 7, 6, 8], X, ['a', 'a', 'a', 'b', 'b', 'b'])!;
    expect(b[0]).toBeCloseTo(1, 10);
    expect(b[1]).toBeCloseTo(2, 10);
  });

  it('is undefined for collinear columns or a column without variation', () => {
    expect(ols([1, 2, 3], [[1, 2], [2, 4], [3, 6]])).toBeNull();
    expect(ols([1, 2, 3], [[5], [5], [5]])).toBeNull();
    // a regressor constant within every group has no within variation
    expect(ols([1, 2, 3, 4], [[0], [0], [1], [1]], ['a', 'a', 'b', 'b'])).toBeNull();
  });

  it('standardizes with the sample SD', () => {
    // mean 2, SD sqrt(((1)^2 + 0 + 1^2) / 2) = 1
    expect(standardize([1, 2, 3])).toEqual([-1, 0, 1]);
    // 2 4 6 8: mean 5, SD sqrt(20 / 3)
    const z = standardize([2, 4, 6, 8])!;
    expect(z[0]).toBeCloseTo(-3 / Math.sqrt(20 / 3), 12);
    expect(standardize([4, 4])).toBeNull();
  });
});

describe('AUC with ties', () => {
  it('counts tied pairs half', () => {
    // pos 1 2 2 vs neg 2 0: (1,2) 0, (1,0) 1, (2,2) 0.5, (2,0) 1, (2,2) 0.5, (2,0) 1 -> 4 / 6
    expect(rankAuc([1, 2, 2], [2, 0])).toBeCloseTo(4 / 6, 12);
    // all tied: 0.5
    expect(rankAuc([3, 3], [3])).toBe(0.5);
  });
});

describe('bootstrap intervals', () => {
  it('are the same for the same seed and differ for another seed', () => {
    const mean = ([g]: ReadonlyArray<readonly number[]>) => g!.reduce((a, b) => a + b, 0) / g!.length;
    const data = [[1, 4, 2, 8, 5, 7, 3, 9]];
    const a = bootstrap(data, mean, 300, 11);
    expect(bootstrap(data, mean, 300, 11)).toEqual(a);
    expect(bootstrap(data, mean, 300, 12)).not.toEqual(a);
    expect(a.value).toBe(4.875);
  });

  it('collapse to the slope of an exact line (resamples with one distinct x are dropped)', () => {
    // y = 2x + 1: every resample with two distinct x gives slope exactly 2 (up to rounding)
    const rows = [0, 1, 2, 3, 4].map((x) => ({ x, y: 2 * x + 1 }));
    const slope = ([g]: ReadonlyArray<readonly { x: number; y: number }[]>) => {
      const b = ols(g!.map((r) => r.y), g!.map((r) => [r.x]));
      return b ? b[0]! : null;
    };
    const i = bootstrap([rows], slope, 200, 3);
    expect(i.value).toBeCloseTo(2, 10);
    expect(i.low).toBeCloseTo(2, 10);
    expect(i.high).toBeCloseTo(2, 10);
  });
});

describe('declared test rows', () => {
  it('binary test: AUC and the linear-probability coefficient per SD with log wage', () => {
    // x 0 1 1 2 (mean 1, sample SD sqrt(2/3)), y 0 0 1 1, log wage 1 -1 -1 1 (mean 0). The wage is
    // orthogonal to the centred x (-1 0 0 1) and to the centred y (-.5 -.5 .5 .5), so the slope on x
    // is the simple one: sum dx dy / sum dx^2 = 1 / 2 per unit of x, 0.5 * sqrt(2/3) per SD.
    const units = [
      { y: 0 as const, x: 0, logWage: 1 },
      { y: 0 as const, x: 1, logWage: -1 },
      { y: 1 as const, x: 1, logWage: -1 },
      { y: 1 as const, x: 2, logWage: 1 },
    ];
    const r = binaryRow(units, true);
    expect(r.n).toBe(4);
    // pos 1 2 vs neg 0 1: (1,0) 1, (1,1) .5, (2,0) 1, (2,1) 1 -> 3.5 / 4
    expect(r.auc.value).toBe(0.875);
    expect(r.beyond!.value).toBeCloseTo(0.5 * Math.sqrt(2 / 3), 12);
    expect(binaryRow(units, false).beyond).toBeNull();
  });

  it('growth test: the coefficient per SD with fixed effects, trend and log wage', () => {
    // y = 3 x + 0.5 trend - 2 w + group level, exactly; x has SD s, so the coefficient per SD is 3 s.
    const raw = [
      { x: 0, trend: 1, logWage: 0, group: 'a' },
      { x: 1, trend: 0, logWage: 1, group: 'a' },
      { x: 2, trend: 2, logWage: 0, group: 'a' },
      { x: 0, trend: 0, logWage: 2, group: 'a' },
      { x: 1, trend: 1, logWage: 1, group: 'b' },
      { x: 3, trend: 0, logWage: 0, group: 'b' },
      { x: 2, trend: 3, logWage: 1, group: 'b' },
      { x: 0, trend: 2, logWage: 2, group: 'b' },
    ];
    const level: Record<string, number> = { a: 0, b: 10 };
    const units = raw.map((u) => ({ ...u, y: 3 * u.x + 0.5 * u.trend - 2 * u.logWage + level[u.group]! }));
    // x: 0 1 2 0 1 3 2 0, mean 9/8, sum of squares 19 - 81/8 = 71/8, SD sqrt(71/56)
    const s = Math.sqrt(71 / 56);
    const r = growthRow(units, true);
    expect(r.n).toBe(8);
    expect(r.beyond!.value).toBeCloseTo(3 * s, 9);
    expect(r.beyond!.low).toBeCloseTo(3 * s, 9);
    expect(r.beyond!.high).toBeCloseTo(3 * s, 9);
  });
});

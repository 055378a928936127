import { beforeAll, describe, expect, it } from 'vitest';
import { roundPreservingSum } from '../../../build/model/num.ts';
import type { ModelParamsSeed } from '../../../build/model/params.ts';
import { coreShare, frequencyScore, taskWeights, toFractions, typeWeight } from '../../../build/model/task-time.ts';
import { realSeeds } from './seeds.ts';

let p: ModelParamsSeed;
beforeAll(async () => {
  p = (await realSeeds()).params;
});

describe('time fractions', () => {
  it('weights Core 1, Supplemental 0.5 and blank at the expected weight of a typed task', () => {
    const tasks = [
      { task_id: 1, task_type: 'Core' as const },
      { task_id: 2, task_type: 'Core' as const },
      { task_id: 3, task_type: 'Core' as const },
      { task_id: 4, task_type: 'Supplemental' as const },
      { task_id: 5, task_type: null },
    ];
    const share = coreShare(tasks);
    expect(share).toBe(0.75);
    expect(typeWeight(null, share, p)).toBeCloseTo(0.75 * 1 + 0.25 * 0.5, 12); // 0.875
    const f = toFractions(taskWeights(tasks, share, p, null));
    // weights 1, 1, 1, 0.5, 0.875 -> total 4.375
    expect(f[3]).toBeCloseTo(0.5 / 4.375, 12);
    expect(f.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('keeps the rounded fractions summing to exactly 1', () => {
    const r = roundPreservingSum([1 / 3, 1 / 3, 1 / 3], 4);
    expect(r).toEqual([0.3334, 0.3333, 0.3333]);
    expect(Math.round(r.reduce((a, b) => a + b, 0) * 1e4)).toBe(1e4);
    const r7 = roundPreservingSum(toFractions([1, 1, 1, 1, 1, 1, 1]), 4);
    expect(Math.round(r7.reduce((a, b) => a + b, 0) * 1e4)).toBe(1e4);
  });

  it('uses the mean FT category when Task Ratings exist', () => {
    const ft = (task_id: number, category: number, value: number) => ({
      soc_code: '11-1111.00', task_id, scale_id: 'FT' as const, category, value, recommend_suppress: false,
    });
    // Task 1: 50% daily (5), 50% hourly (7) -> 6; task 2: 100% yearly (1) -> 1; task 3: no rows -> mean 3.5
    expect(frequencyScore([ft(1, 5, 50), ft(1, 7, 50)])).toBe(6);
    const ratings = new Map([[1, [ft(1, 5, 50), ft(1, 7, 50)]], [2, [ft(2, 1, 100)]]]);
    const tasks = [1, 2, 3].map((task_id) => ({ task_id, task_type: 'Core' as const }));
    const f = toFractions(taskWeights(tasks, 1, p, ratings));
    expect(f[0]).toBeCloseTo(6 / 10.5, 12);
    expect(f[2]).toBeCloseTo(3.5 / 10.5, 12);
  });
});

import { describe, expect, it } from 'vitest';
import { ranks, spearman } from '../../../build/model/num.ts';
import { toSoc2018 } from '../../../build/validation/refs.ts';

describe('validation statistics', () => {
  it('computes Spearman rho from ranks', () => {
    // ranks of y: 1 2 4 3; sum d^2 = 2; 1 - 6 * 2 / (4 * 15) = 0.8
    expect(spearman([1, 2, 3, 4], [10, 20, 40, 30])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('gives tied values their average rank', () => {
    expect(ranks([5, 1, 5, 3])).toEqual([3.5, 1, 3.5, 2]);
    // Pearson of ranks (1.5 1.5 3 4) and (1 2 3 4): 4.5 / sqrt(4.5 * 5)
    expect(spearman([1, 1, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it('is undefined without variation or with too few pairs', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2], [1, 2])).toBeNull();
  });

  it('moves SOC 2010 values to SOC 2018: splits copy, merges average', () => {
    const m = toSoc2018(
      new Map([['11-1111', 1], ['11-1112', 3], ['22-2222', 5]]),
      [
        { soc2010: '11-1111', soc2018: '11-1110' },
        { soc2010: '11-1112', soc2018: '11-1110' },
        { soc2010: '22-2222', soc2018: '22-2221' },
        { soc2010: '22-2222', soc2018: '22-2222' },
        { soc2010: '33-3333', soc2018: '33-3333' },
      ],
    );
    expect([...m].sort()).toEqual([['11-1110', 2], ['22-2221', 5], ['22-2222', 5]]);
  });
});

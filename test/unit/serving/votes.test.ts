import { describe, expect, it } from 'vitest';
import { voteStats } from '../../../build/model/vote-stats.ts';

describe('voteStats', () => {
  it('is all zero without votes', () => {
    expect(voteStats({ agree: 0, too_high: 0, too_low: 0 })).toEqual({ total: 0, agree: 0, too_high: 0, too_low: 0, agree_pct: 0, too_high_pct: 0, too_low_pct: 0 });
  });
  it('rounds each share to one decimal', () => {
    // 1/3 = 33.33..%, 2/3 = 66.66..%
    expect(voteStats({ agree: 1, too_high: 2, too_low: 0 })).toMatchObject({ total: 3, agree_pct: 33.3, too_high_pct: 66.7, too_low_pct: 0 });
    expect(voteStats({ agree: 1, too_high: 7, too_low: 0 })).toMatchObject({ total: 8, agree_pct: 12.5, too_high_pct: 87.5 });
  });
  it('counts always sum to total', () => {
    const v = voteStats({ agree: 17, too_high: 5, too_low: 9 });
    expect(v.agree + v.too_high + v.too_low).toBe(v.total);
    expect(v.total).toBe(31);
  });
});

// A move's pay in words: more than now says by how much ("pays 142% more", never "keeps 242% of
// pay"), near or under it the share kept, under the desirable share what it pays. The one wording
// of pay: the served reasons and the page's verdict both use it.
import { describe, expect, it } from 'vitest';
import { payWords } from '../../../build/model/transitions.ts';

describe('payWords', () => {
  it.each([
    [4, 'pays 300% more'],
    [2.42, 'pays 142% more'],
    [1.5, 'pays 50% more'],
    [1.01, 'pays 1% more'],
    [1.004, 'keeps 100% of pay'],
    [1, 'keeps 100% of pay'],
    [0.996, 'keeps 100% of pay'],
    [0.96, 'keeps 96% of pay'],
    [0.75, 'keeps 75% of pay'],
    [0.74, 'pays 74% of current pay'],
    [0.6, 'pays 60% of current pay'],
    [null, 'pay not published'],
  ])('%s -> %s', (ratio, words) => {
    expect(payWords(ratio, 0.75)).toBe(words);
  });
});

// The declared model-choice rule (declared-tests/v2.json): the paired beyond-wage difference of a
// candidate's score against the current model's, on the same resamples, must lie below 0.
import { describe, expect, it } from 'vitest';
import { pairedBeyondWage } from '../../../../build/validation/model-choice.ts';
import { prng } from '../../../../build/validation/stats.ts';

/** 80 made-up code groups: growth falls with `signal`; `noise` is unrelated to growth. */
function units() {
  const r = prng(7);
  return Array.from({ length: 80 }, (_, i) => {
    const signal = r();
    const noise = r();
    const logWage = 10 + r();
    const trend = r() - 0.5;
    return { group: i % 2 ? 'a' : 'b', signal, noise, logWage, trend, y: -3 * signal + 0.2 * trend + 0.1 * (r() - 0.5) };
  });
}

describe('pairedBeyondWage', () => {
  it('is exactly 0, interval [0, 0], when the candidate scores as the current model does', () => {
    const us = units().map((u) => ({ ...u, base: u.noise, cand: u.noise }));
    const { n, difference } = pairedBeyondWage(us);
    expect(n).toBe(80);
    expect(difference).toEqual({ value: 0, low: 0, high: 0 });
  });

  it('lies below 0 when the candidate predicts slower growth beyond wage and the current model does not', () => {
    const { difference } = pairedBeyondWage(units().map((u) => ({ ...u, base: u.noise, cand: u.signal })));
    expect(difference.value).toBeLessThan(0);
    expect(difference.high).toBeLessThan(0);
    // And the other way round it lies above 0: the rule would keep the current model.
    const back = pairedBeyondWage(units().map((u) => ({ ...u, base: u.signal, cand: u.noise }))).difference;
    expect(back.low).toBeGreaterThan(0);
  });
});

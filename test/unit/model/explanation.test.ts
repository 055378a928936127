// The attribution of a score to the model's steps, on hand-made occupations whose scores are
// worked out here from the published formulas (METHODOLOGY: D = (n X C + k prior) / (n + k),
// score = 100 D (1 + h) / (D + h), C = 1 - kappa (theta - theta_min)).
import { describe, expect, it } from 'vitest';
import type { ComplementarityParts } from '../../../build/model/complementarity.ts';
import type { TaskTerms } from '../../../build/model/displacement.ts';
import { explainScore, mostProtective, roundToTotal, shapley, type ExplanationBaseline, type ScoreSteps } from '../../../build/model/explanation.ts';

const H = 0.5;
const steps: ScoreSteps = { thetaMin: 0.1, kappa: 1, prior: 0.12, priorTasks: 2, halfSaturation: H };
const scale = (d: number) => (100 * d * (1 + H)) / (d + H);
const C = (theta: number) => 1 - (theta - 0.1);
const parts = (x: number, o: Partial<ComplementarityParts> = {}): ComplementarityParts => ({ education_experience: x, responsibility: x, physical: x, interpersonal: x, technology: x, ...o });
// The typical occupation: E0 0.5, P0 0.4 (X0 0.2), every part 0.4 (theta0 0.4, C0 0.7).
const base: ExplanationBaseline = { exposure: 0.5, substitution: 0.4, parts: parts(0.4), theta: 0.4 };

/** An occupation of equal-time tasks with the given capabilities (tf * cap) and substitution factors (prop * category). */
function occupation(caps: number[], props: number[], p: ComplementarityParts, labelled = caps.length) {
  const n = caps.length;
  const terms: TaskTerms = { time: new Float64Array(n).fill(1 / n), exposure: new Float64Array(caps.map((c) => c / n)), substitution: new Float64Array(caps.map((c, i) => (c * props[i]!) / n)) };
  const exposure = terms.exposure.reduce((a, b) => a + b, 0);
  const substitution_exposure = terms.substitution.reduce((a, b) => a + b, 0);
  const theta = Object.values(p).reduce((a, b) => a + b, 0) / 5;
  return {
    layers: { exposure, substitution_exposure, coverage: 1, labelled_tasks: labelled },
    terms,
    tasks: caps.map((_, i) => ({ task_id: i + 1, description: `task ${i + 1}` })),
    parts: p,
    theta,
  };
}
const modelScore = (o: ReturnType<typeof occupation>, s = steps) => {
  const n = o.layers.labelled_tasks;
  const d = (n * o.layers.substitution_exposure * C(o.theta) + s.priorTasks * s.prior) / (n + s.priorTasks);
  return Math.round(scale(d) * 10) / 10;
};
const sum = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) * 10) / 10;

describe('Shapley values and rounding', () => {
  it('splits a two-player game by the mean of its marginal contributions', () => {
    // v({}) 0, v({1}) 1, v({2}) 2, v({1,2}) 6: player 1 (1 + 4) / 2, player 2 (2 + 5) / 2.
    const v = [0, 1, 2, 6];
    expect(shapley(2, (m) => v[m]!)).toEqual([2.5, 3.5]);
  });
  it('rounds by largest remainder to the given total, negative values too', () => {
    expect(roundToTotal([1.04, 2.04, 3.04], 6.1)).toEqual([1.1, 2, 3]);
    expect(roundToTotal([-1.25, 3.36], 2.1)).toEqual([-1.3, 3.4]);
    // Each rounded on its own would give 0.3 + 0.3 + 0.3 = 0.9; the total is 1.0.
    expect(sum(roundToTotal([1 / 3, 1 / 3, 1 / 3], 1))).toBe(1);
    // Floors above the total (a total rounded elsewhere): a unit is taken back from the smallest remainder.
    expect(roundToTotal([0.55, 0.55], 1)).toEqual([0.5, 0.5]);
  });
});

describe('explainScore', () => {
  it('gives every step 0 points for the typical occupation itself, without shrinkage', () => {
    const o = occupation([0.5, 0.5], [0.4, 0.4], parts(0.4));
    const s = { ...steps, priorTasks: 0 };
    const score = Math.round(scale(0.2 * 0.7) * 10) / 10;
    const e = explainScore(o, base, s, score, 'Typical');
    expect(e.contributions.map((c) => [c.key, c.points])).toEqual([
      ['baseline', score],
      ['exposure', 0],
      ['substitution', 0],
      ['complementarity', 0],
      ['shrinkage', 0],
    ]);
    expect(e.top_tasks).toEqual([]);
    expect(mostProtective(e)).toBeNull();
  });

  it('gives a single moved factor the whole difference, computed from the formulas by hand', () => {
    // Only complementarity differs (theta 0.6, C 0.5); no shrinkage: 100 * D (1 + h) / (D + h) at D = 0.2 * 0.5 against 0.2 * 0.7.
    const o = occupation([0.5, 0.5], [0.4, 0.4], parts(0.6));
    const s = { ...steps, priorTasks: 0 };
    const e = explainScore(o, base, s, Math.round(scale(0.1) * 10) / 10, 'Judges');
    const pts = Object.fromEntries(e.contributions.map((c) => [c.key, c.points]));
    expect(pts.baseline).toBe(Math.round(scale(0.14) * 10) / 10); // 32.3
    expect(pts.complementarity).toBe(Math.round((scale(0.1) - scale(0.14)) * 10) / 10); // -6.9
    expect([pts.exposure, pts.substitution, pts.shrinkage]).toEqual([0, 0, 0]);
    // The five parts moved alike: each a fifth of the step, and they add up to it.
    expect(sum(e.complementarity_parts.map((p) => p.points))).toBe(pts.complementarity);
    expect(Math.max(...e.complementarity_parts.map((p) => p.points)) - Math.min(...e.complementarity_parts.map((p) => p.points))).toBeLessThanOrEqual(0.1 + 1e-9);
  });

  it('adds up exactly to the model score for an occupation that differs in every factor', () => {
    const cases = [
      occupation([0.9, 0.8, 0.2], [0.7, 0.5, 0.3], parts(0.3, { physical: 0.05, technology: 0.7 }), 3),
      occupation([0.1, 0.05], [0.35, 0.35], parts(0.6, { physical: 0.9 }), 1),
      occupation([1, 1, 1, 1], [1, 1, 1, 1], parts(0.1), 20),
      occupation([0, 0], [0.4, 0.4], parts(0.5), 0),
    ];
    for (const o of cases) {
      const score = modelScore(o);
      const e = explainScore(o, base, steps, score, 'Case');
      expect(sum(e.contributions.map((c) => c.points))).toBe(score);
      const pts = Object.fromEntries(e.contributions.map((c) => [c.key, c.points]));
      expect(sum(e.complementarity_parts.map((p) => p.points))).toBe(pts.complementarity);
    }
  });

  it('points the way each factor moves the score', () => {
    // High exposure, substitution a little above the baseline, strong physical part, only 3 labelled tasks (shrinkage pulls down toward a low prior).
    const o = occupation([1, 1, 0.3], [0.45, 0.45, 0.4], parts(0.4, { physical: 0.6 }), 3);
    const e = explainScore(o, base, steps, modelScore(o), 'Case');
    const pts = Object.fromEntries(e.contributions.map((c) => [c.key, c.points]));
    expect(pts.exposure).toBeGreaterThan(0);
    expect(pts.substitution).toBeGreaterThan(0);
    expect(pts.complementarity).toBeLessThan(0);
    expect(pts.shrinkage).toBeLessThan(0);
    const parts_ = Object.fromEntries(e.complementarity_parts.map((p) => [p.key, p.points]));
    expect(parts_.physical).toBe(pts.complementarity); // the only part off the baseline
    expect(mostProtective(e)!.key).toBe('physical'); // never the shrinkage
    // Tasks 1, 2 (0.45 per unit of time) above the baseline's 0.2, task 3 (0.3 * 0.4 = 0.12) below it.
    expect(e.top_tasks.map((t) => t.task_id)).toEqual([1, 2, 3]);
    expect(e.top_tasks[2]!.points).toBeLessThan(0);
    expect(sum(e.top_tasks.map((t) => t.points))).toBe(sum([pts.exposure!, pts.substitution!]));
    expect(e.summary).toBe(
      `Case scores ${modelScore(o).toFixed(1)} of 100, ${(modelScore(o) - pts.baseline!).toFixed(1)} points above the typical occupation's ${pts.baseline!.toFixed(1)}. The share of its work time AI can do raises it most (+${pts.exposure!.toFixed(1)}); the shrinkage toward the median occupation (an allowance for limited task evidence) lowers it most (${pts.shrinkage!.toFixed(1)}).`,
    );
  });

  it('names nothing as protective when only the shrinkage lowers the score', () => {
    const o = occupation([0.5, 0.5], [0.4, 0.4], parts(0.4), 1);
    const s = { ...steps, prior: 0.01 };
    const e = explainScore(o, base, s, modelScore(o, s), 'Case');
    expect(e.contributions.filter((c) => c.key !== 'baseline' && c.key !== 'shrinkage').map((c) => c.points)).toEqual([0, 0, 0]);
    expect(e.contributions.find((c) => c.key === 'shrinkage')!.points).toBeLessThan(0);
    expect(mostProtective(e)).toBeNull();
  });
});

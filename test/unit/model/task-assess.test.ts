// The assessment's task path on computeModel's output for the fixture bundle: the basis
// reproduces the occupation's own score and interval, a person's shares move it the way the
// tasks' risks say, and bad task lists are named.
import { beforeAll, describe, expect, it } from 'vitest';
import { assess } from '../../../build/model/assess.ts';
import { computeModel } from '../../../build/model/index.ts';
import type { ModelOutput, OccupationRecord } from '../../../build/model/record-schemas.ts';
import { scaleScore, shrunkDisplacement } from '../../../build/model/displacement.ts';
import { taskScores, validateTasks } from '../../../build/model/task-assess.ts';
import { fixtureBundle } from '../../fixtures/model/bundle.ts';
import { realSeeds } from './seeds.ts';

let out: ModelOutput;
beforeAll(async () => {
  out = computeModel(fixtureBundle(), await realSeeds());
});

const ownShares = (o: OccupationRecord) => o.tasks.map((t) => ({ task_id: t.task_id, share: t.time_fraction })).filter((t) => t.share > 0);
const inputOf = (o: OccupationRecord) => ({ soc_code: o.soc_code, title: o.title, base_score: o.risk_score.final_score, exposure_score: o.risk_score.exposure_score, score_low: o.risk_score.score_low, score_high: o.risk_score.score_high });

describe('task path', () => {
  it('has a basis for every scored occupation, with its tasks in it', () => {
    expect(Object.keys(out.task_bases).sort()).toEqual(out.occupations.map((o) => o.soc_code).sort());
    for (const o of out.occupations) expect([...out.task_bases[o.soc_code]!.ids].sort()).toEqual(o.tasks.map((t) => t.task_id).sort());
  });

  it("reproduces each occupation's score and interval from its own alternatives", () => {
    for (const o of out.occupations) {
      const b = out.task_bases[o.soc_code]!;
      const scores = b.alts.map(([, m, n, k, x]) => scaleScore(shrunkDisplacement(x, m, n, out.task_scale.prior, k), out.task_scale.half_saturation));
      expect(scores[0]).toBe(o.risk_score.final_score);
      // The interval rule (METHODOLOGY section 7): the central 1 - 2q of the alternatives' scores, widened to hold the score.
      const rest = scores.slice(1).sort((a, c) => a - c);
      const at = (q: number) => {
        const h = (rest.length - 1) * q;
        return rest[Math.floor(h)]! + (h - Math.floor(h)) * (rest[Math.ceil(h)]! - rest[Math.floor(h)]!);
      };
      const q = out.task_scale.quantile;
      expect(Math.min(scores[0]!, Math.round(10 * at(q)) / 10)).toBe(o.risk_score.score_low);
      expect(Math.max(scores[0]!, Math.round(10 * at(1 - q)) / 10)).toBe(o.risk_score.score_high);
    }
  });

  it("gives the base score within 0.1 for the occupation's own served time fractions, and its exposure within 0.1", () => {
    for (const o of out.occupations) {
      const t = taskScores(out.task_bases[o.soc_code]!, ownShares(o), 0, o.risk_score.exposure_score, out.task_scale);
      // In tenths: the published scores have one decimal, and 0.1 is not exact in binary.
      expect(Math.abs(Math.round(t.score * 10) - Math.round(o.risk_score.final_score * 10))).toBeLessThanOrEqual(1);
      expect(Math.abs(Math.round(t.exposure_score * 10) - Math.round(o.risk_score.exposure_score * 10))).toBeLessThanOrEqual(1);
      expect(t.low).toBeLessThanOrEqual(t.score);
      expect(t.high).toBeGreaterThanOrEqual(t.score);
    }
  });

  it('scores the lowest-risk task alone below base and the highest-risk task alone above (where the risks differ)', () => {
    let compared = 0;
    for (const o of out.occupations) {
      const byRisk = [...o.tasks].sort((a, b) => a.task_risk_score - b.task_risk_score);
      const lo = byRisk[0]!;
      const hi = byRisk.at(-1)!;
      if (lo.task_risk_score === hi.task_risk_score) continue;
      compared++;
      const alone = (id: number) => taskScores(out.task_bases[o.soc_code]!, [{ task_id: id, share: 1 }], 0, o.risk_score.exposure_score, out.task_scale).score;
      expect(alone(lo.task_id)).toBeLessThan(o.risk_score.final_score);
      expect(alone(hi.task_id)).toBeGreaterThan(o.risk_score.final_score);
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('scores other_share at the occupation average: all other time gives the base score', () => {
    for (const o of out.occupations) {
      const t = taskScores(out.task_bases[o.soc_code]!, [{ task_id: o.tasks[0]!.task_id, share: 1e-9 }], 1, o.risk_score.exposure_score, out.task_scale);
      expect(t.score).toBe(o.risk_score.final_score);
    }
  });

  it('reports the task path under adjustments.tasks, the identities holding', () => {
    const o = out.occupations.find((x) => x.tasks.length > 1)!;
    const lowest = [...o.tasks].sort((a, b) => a.task_risk_score - b.task_risk_score)[0]!;
    const r = assess(inputOf(o), { years_experience: '20_plus' }, out.factors, out.tiers, {
      tasks: [{ task_id: lowest.task_id, share: 3 }],
      other_share: 0,
      basis: out.task_bases[o.soc_code]!,
      scale: out.task_scale,
    });
    if (!r.ok) throw new Error('expected ok');
    const tenths = (n: number) => Math.round(n * 10);
    expect(Object.keys(r.result.adjustments)).toEqual(['tasks', 'years_experience']);
    expect(r.result.adjustments.tasks).toBeLessThan(0);
    expect(tenths(r.result.personalized_score)).toBe(tenths(r.result.base_score) + tenths(r.result.total_adjustment));
    expect(Object.values(r.result.adjustments).reduce((s, a) => s + tenths(a), 0)).toBe(tenths(r.result.total_adjustment));
    expect(r.result.personalized_low).toBeLessThanOrEqual(r.result.personalized_score);
    expect(r.result.personalized_high).toBeGreaterThanOrEqual(r.result.personalized_score);
    expect(r.result.exposure_score).toBe(Math.round(lowest.ai_capability_score * 1000) / 10);
  });

  it('names unknown and repeated tasks, and more entries than the occupation has', () => {
    const o = out.occupations.find((x) => x.tasks.length > 1)!;
    const b = out.task_bases[o.soc_code]!;
    const [a] = o.tasks;
    expect(validateTasks([{ task_id: a!.task_id, share: 1 }, { task_id: 999_999, share: 1 }], b)).toEqual([{ kind: 'unknown_task', index: 1, task_id: 999_999, allowed: [...b.ids].sort((x, y) => x - y) }]);
    expect(validateTasks([{ task_id: a!.task_id, share: 1 }, { task_id: a!.task_id, share: 2 }], b)).toEqual([{ kind: 'duplicate_task', index: 1, task_id: a!.task_id }]);
    const many = [...b.ids, b.ids[0]!].map((task_id) => ({ task_id, share: 1 }));
    expect(validateTasks(many, b)[0]).toEqual({ kind: 'too_many_tasks', count: b.ids.length + 1, max: b.ids.length });
  });
});

describe('task path shares', () => {
  it('are relative: scaling every share gives the same score, huge ones included', () => {
    const o = out.occupations.find((x) => x.tasks.length > 1)!;
    const b = out.task_bases[o.soc_code]!;
    const [a, c] = o.tasks;
    const at = (k: number) => taskScores(b, [{ task_id: a!.task_id, share: 3 * k }, { task_id: c!.task_id, share: k }], k, o.risk_score.exposure_score, out.task_scale);
    expect(at(1e300)).toEqual(at(1));
    expect(at(1e-300)).toEqual(at(1));
  });
});

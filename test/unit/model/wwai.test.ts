// The Working with AI evidence: per-IWA AI-action share W, its mapping to tasks through their IWAs,
// and the propensity with and without it (declared tests v2, candidate wwai_third_input).
import { beforeAll, describe, expect, it } from 'vitest';
import { evidenceVariants, propensity } from '../../../build/model/displacement.ts';
import { computeModel } from '../../../build/model/index.ts';
import type { Seeds } from '../../../build/model/params.ts';
import type { ModelOutput } from '../../../build/model/record-schemas.ts';
import { taskWwai, wwaiIndex } from '../../../build/model/wwai.ts';
import { fixtureBundle } from '../../fixtures/model/bundle.ts';
import { WWAI_ROWS } from '../../fixtures/model/wwai.ts';
import { realSeeds } from './seeds.ts';

const withWeight = (s: Seeds, weight: number): Seeds => ({
  ...s,
  params: { ...s.params, propensity: { ...s.params.propensity, wwai: { ...s.params.propensity.wwai, value: { ...s.params.propensity.wwai.value, weight } } } },
});

describe('W per IWA and per task', () => {
  it('is share_ai / (share_user + share_ai); IWAs under the minimum share have none and are counted', () => {
    const idx = wwaiIndex(WWAI_ROWS, 1e-4);
    expect([...idx.byIwa.keys()]).toEqual(['4.A.3.b.6.I01', '4.A.4.a.8.I01']);
    expect(idx.byIwa.get('4.A.3.b.6.I01')).toBeCloseTo(0.75, 12);
    expect(idx.byIwa.get('4.A.4.a.8.I01')).toBeCloseTo(0.25, 12);
    expect(idx.belowMinShare).toBe(1);
    // An IWA never mentioned (both shares 0) has no W even with no minimum.
    expect(wwaiIndex([{ iwa_id: '4.A.1.a.1.I01', share_user: 0, share_ai: 0 }], 0)).toEqual({ byIwa: new Map(), belowMinShare: 1 });
  });

  it("a task's W is the unweighted mean over its distinct IWAs that have one, null when none has", () => {
    const { byIwa } = wwaiIndex(WWAI_ROWS, 1e-4);
    expect(taskWwai(['4.A.3.b.6.I01', '4.A.4.a.8.I01'], byIwa)).toBeCloseTo(0.5, 12);
    // The same IWA reached by two DWAs counts once; an IWA without W is left out, not counted as 0.
    expect(taskWwai(['4.A.3.b.6.I01', '4.A.3.b.6.I01', '4.A.4.a.8.I01', '4.A.3.b.4.I01'], byIwa)).toBeCloseTo(0.5, 12);
    expect(taskWwai(['4.A.3.b.4.I01'], byIwa)).toBeNull();
    expect(taskWwai([], byIwa)).toBeNull();
  });
});

describe('propensity with the AI-action share', () => {
  const pp = { t_weight: 0.5, floor: 0.25, default_raw: 0.5 };
  it('is unchanged without W or with weight 0', () => {
    expect(propensity(0.5, 0.3, pp, 0.9)).toBe(propensity(0.5, 0.3, pp));
    expect(propensity(0.5, 0.3, { ...pp, wwai_weight: 0 }, 0.9)).toBe(propensity(0.5, 0.3, pp));
    expect(propensity(0.5, 0.3, { ...pp, wwai_weight: 1 / 3 }, null)).toBe(propensity(0.5, 0.3, pp));
  });
  it('with weight 1/3: raw = (2/3) raw + (1/3) W, or W alone when neither T nor A exists', () => {
    const q = { ...pp, wwai_weight: 1 / 3 };
    // T 0.5, A 0.3: raw 0.4 -> (2/3) 0.4 + (1/3) 0.7 = 0.5 -> 0.25 + 0.75 * 0.5 = 0.625
    expect(propensity(0.5, 0.3, q, 0.7)).toBeCloseTo(0.625, 12);
    // T alone 1: (2/3) + (1/3) 0.1 = 0.7 -> 0.25 + 0.75 * 0.7 = 0.775
    expect(propensity(1, null, q, 0.1)).toBeCloseTo(0.775, 12);
    // Neither: W replaces default_raw: 0.25 + 0.75 * 0.2 = 0.4
    expect(propensity(null, null, q, 0.2)).toBeCloseTo(0.4, 12);
  });
});

describe('the model with Working with AI rows', () => {
  let seeds: Seeds;
  let off: ModelOutput;
  let on: ModelOutput;
  beforeAll(async () => {
    seeds = await realSeeds();
    const bundle = { ...fixtureBundle(), wwai_iwa: WWAI_ROWS };
    off = computeModel(bundle, withWeight(seeds, 0));
    on = computeModel(bundle, withWeight(seeds, 1 / 3));
  });
  const task = (m: ModelOutput, soc: string, id: number) => m.occupations.find((o) => o.soc_code === soc)!.tasks.find((t) => t.task_id === id)!;

  it('weight 0 scores exactly as without the file', async () => {
    const none = computeModel(fixtureBundle(), withWeight(seeds, 0));
    expect(off.occupations.map((o) => [o.soc_code, o.risk_score.final_score, o.risk_score.score_low, o.risk_score.score_high])).toEqual(
      none.occupations.map((o) => [o.soc_code, o.risk_score.final_score, o.risk_score.score_low, o.risk_score.score_high]),
    );
  });

  it("maps W to a task through its DWAs' IWAs and moves its propensity by the declared formula", () => {
    const p = seeds.params.propensity;
    const t1 = task(on, '11-1111.00', 1); // T4, no AEI; IWA Record information, W 0.75
    const raw = p.t_values.value.T4;
    expect(task(off, '11-1111.00', 1).automation_propensity).toBeCloseTo(p.floor.value + (1 - p.floor.value) * raw, 4);
    expect(t1.automation_propensity).toBeCloseTo(p.floor.value + (1 - p.floor.value) * ((2 / 3) * raw + (1 / 3) * 0.75), 4);
    // Task 5's only IWA is under the minimum share: no W, unchanged.
    expect(task(on, '22-2222.00', 5).automation_propensity).toBe(task(off, '22-2222.00', 5).automation_propensity);
  });

  it('counts the evidence, and the interval turns the source off only when it is on', () => {
    expect(on.report.working_with_ai).toEqual({ iwas_in_file: 3, iwas_with_share: 2, iwas_below_min_share: 1, weight: 1 / 3 });
    const o = (m: ModelOutput) => m.occupations.find((x) => x.soc_code === '11-1111.00')!;
    expect(o(on).risk_score.final_score).not.toBe(o(off).risk_score.final_score);
    // Tasks 1 and 6 (Record information) and 2 (Serve the public) have a W; every other served task is counted missing.
    const t = on.report.tasks as Record<string, number>;
    expect(t.tasks_served! - t.tasks_wwai_missing!).toBe(3);
    const names = (w: number) => evidenceVariants(withWeight(seeds, w).params).map((v) => v.name);
    expect(names(1 / 3)).toContain('without_wwai');
    expect(names(0)).not.toContain('without_wwai');
  });
});

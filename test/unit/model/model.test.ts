// computeModel on the hand-written fixture bundle; expected values worked out by hand in the
// comments from the formulas in docs/METHODOLOGY.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { computeModel } from '../../../build/model/index.ts';
import type { Seeds } from '../../../build/model/params.ts';
import { ModelOutput } from '../../../build/model/record-schemas.ts';
import { fixtureBundle } from '../../fixtures/model/bundle.ts';
import { realSeeds } from './seeds.ts';

let seeds: Seeds;
let out: ModelOutput;
beforeAll(async () => {
  seeds = await realSeeds();
  out = computeModel(fixtureBundle(), seeds);
});
const occ = (soc: string) => out.occupations.find((o) => o.soc_code === soc)!;

describe('computeModel on the fixture bundle', () => {
  it('produces output that passes the ModelOutput schema', () => {
    expect(ModelOutput.safeParse(out).success).toBe(true);
  });

  it('serves occupations with labelled tasks and lists the others as unscored with a reason', () => {
    expect(out.occupations.map((o) => o.soc_code)).toEqual(['11-1111.00', '11-1111.01', '22-2222.00']);
    expect(out.unscored.map((u) => u.soc_code)).toEqual(['33-3333.00', '44-4444.00']);
    expect(out.unscored[0]!.reason).toMatch(/exposure label/);
    expect(out.unscored[1]!.reason).toMatch(/No task statements/);
  });

  it('makes every occupation\'s time fractions sum to 1', () => {
    for (const o of out.occupations) {
      expect(Math.round(o.tasks.reduce((a, t) => a + t.time_fraction, 0) * 1e4)).toBe(1e4);
    }
  });

  it('weights tasks by Tomlinson IWA weights, falling back for a task without IWA, and counts it', () => {
    const t = new Map(occ('11-1111.00').tasks.map((x) => [x.task_id, x]));
    // a1 = 6 / 1, a2 = 2 / 1; task 3 has no DWA: mean a 4 x its type weight (5/6 + 1/12 = 0.91667)
    // / mean type weight of the informed tasks (0.75) = 4.8889; total 12.8889
    expect(t.get(1)!.time_fraction).toBeCloseTo(6 / 12.8889, 4);
    expect(t.get(2)!.time_fraction).toBeCloseTo(2 / 12.8889, 4);
    expect(t.get(3)!.time_fraction).toBeCloseTo(4.8889 / 12.8889, 4);
    expect(occ('11-1111.00').risk_score.time_weight_source).toBe('iwa_weights');
    // 22-2222.00: no IWA weights, no Work Activities ratings: Task Type weights (two Core tasks)
    expect(occ('22-2222.00').risk_score.time_weight_source).toBe('task_type');
    expect(occ('22-2222.00').tasks.map((x) => x.time_fraction)).toEqual([0.5, 0.5]);
    expect(out.report.tasks).toMatchObject({ tasks_type_blank: 1, tasks_label_missing: 1, core_share: 0.8333, tasks_time_weight_fallback: 4 });
    expect(out.report.time_weight_sources).toEqual({ task_ratings: 0, iwa_weights: 1, gwa_importance: 0, task_type: 2 });
  });

  it('gives a task without labels the occupation\'s weighted mean label value, and counts it', () => {
    const t3 = occ('11-1111.00').tasks.find((x) => x.task_id === 3)!;
    // (1 * 6 + 0.25 * 2) / 8 = 0.8125; no usage, so capability 0.8125
    expect(t3.ai_capability_score).toBe(0.8125);
    expect(t3.evidence.human_label).toBeNull();
    // no T-level, no AEI: 0.25 + 0.75 * 0.5
    expect(t3.automation_propensity).toBe(0.625);
  });

  it('categorizes by DWA, and a task without DWA and keywords by the occupation majority', () => {
    const t = new Map(occ('11-1111.00').tasks.map((x) => [x.task_id, x]));
    expect(t.get(1)).toMatchObject({ task_category: 'routine_cognitive', category_source: 'dwa' });
    expect(t.get(2)).toMatchObject({ task_category: 'non_routine_interpersonal', category_source: 'dwa' });
    expect(t.get(3)).toMatchObject({ task_category: 'routine_cognitive', category_source: 'keyword' });
    expect(out.report.tasks).toMatchObject({ tasks_category_occupation_majority: 1 });
  });

  it('computes the exposure layer and the substitution-weighted exposure by hand', () => {
    const o = occ('11-1111.00');
    const t = new Map(o.tasks.map((x) => [x.task_id, x]));
    expect(t.get(1)!.task_risk_score).toBe(1); // E1/E1, T4, routine cognitive
    expect(t.get(2)!.task_risk_score).toBe(0.0375); // 0.25 * 0.25 * 0.6
    expect(t.get(3)!.task_risk_score).toBe(0.5078); // 0.8125 * 0.625 * 1
    // exposure: (6 * 1 + 2 * 0.25 + 4.8889 * 0.8125) / 12.8889 = 0.8125
    expect(o.risk_score.exposure_score).toBeCloseTo(81.25, 1);
    // substitution-weighted: (6 * 1 + 2 * 0.0375 + 4.8889 * 0.5078) / 12.8889 = 0.6640
    expect(o.risk_score.task_exposure).toBe(66.4);
    expect(o.risk_score.label_coverage).toBeCloseTo(8 / 12.8889, 4);
    // 22-2222.00: 0 and 0.75 * (0.25 + 0.75 * 0.75) * 1 = 0.6094, equal weights; exposure (0 + 0.75) / 2
    expect(occ('22-2222.00').risk_score.task_exposure).toBe(30.5);
    expect(occ('22-2222.00').risk_score.exposure_score).toBe(37.5);
  });

  it('keeps final_score = scale(shrink(X * C)) with C the complementarity multiplier, never 0 or 100', () => {
    const { prior_displacement: prior, theta_min: thetaMin } = out.report.complementarity as { prior_displacement: number; theta_min: number };
    const k = seeds.params.scale.prior_tasks.value;
    const h = seeds.params.scale.half_saturation.value;
    for (const o of out.occupations) {
      const r = o.risk_score;
      const n = o.tasks.filter((t) => t.evidence.human_label !== null || t.evidence.gpt4_label !== null).length;
      const d = (n * (r.task_exposure / 100) * r.protective_moderation + k * prior) / (n + k);
      expect(r.final_score).toBeCloseTo((100 * d * (1 + h)) / (d + h), 0);
      expect(r.protective_moderation).toBeCloseTo(1 - seeds.params.complementarity.kappa.value * (r.complementarity - thetaMin), 3);
      expect(r.final_score).toBeGreaterThan(0);
      expect(r.final_score).toBeLessThan(100);
      expect(r.score_low).toBeLessThanOrEqual(r.final_score);
      expect(r.score_high).toBeGreaterThanOrEqual(r.final_score);
    }
  });

  it('fills Skills from the newer release only for occupations the chosen release does not rate', () => {
    expect(out.report.skills_filled).toEqual({ release: '30.1', occupations: 1 });
  });

  it('offers only safer options, each with similarity, wage ratio, job zone and a reason', () => {
    for (const o of out.occupations) {
      for (const t of o.transition_options) {
        expect(t.final_score).toBeLessThan(o.risk_score.final_score);
        expect(Math.abs(t.job_zone - o.job_zone)).toBeLessThanOrEqual(1);
        if (t.related_tier === null) expect(t.similarity).toBeGreaterThanOrEqual(seeds.params.skill_gaps.viable_similarity.value);
        expect(t.reason.length).toBeGreaterThan(20);
      }
    }
  });

  it('appends the SOC code to colliding slugs', () => {
    expect(occ('11-1111.00').slug).toBe('clerks-of-things-11-1111-00');
    expect(occ('22-2222.00').slug).toBe('hand-fixers');
    expect(occ('22-2222.00').id).toBe(22222200);
  });

  it('resolves the OEWS aggregate and reports the top-coded wage with the ceiling', () => {
    expect(occ('11-1111.01').labor_data).toMatchObject({ oews_code: '11-1110', median_annual_wage: 239200, median_annual_wage_status: 'top_coded', employment: 1000 });
    // One job pool: 11-1111.00 and .01 both take OEWS 11-1110's 1,000 jobs; each says so, and each counts half of them.
    expect(occ('11-1111.01').labor_data).toMatchObject({ employment_shared_with: ['11-1111.00'], employment_own_share: 500 });
    expect(occ('11-1111.00').labor_data).toMatchObject({ employment_shared_with: ['11-1111.01'], employment_own_share: 500 });
    // Summed over the occupations, every worker once: the distinct OEWS codes' employment.
    const pools = new Map(out.occupations.map((o) => [o.labor_data.oews_code, o.labor_data.employment ?? 0]));
    expect(out.occupations.reduce((a, o) => a + (o.labor_data.employment_own_share ?? 0), 0)).toBeCloseTo([...pools.values()].reduce((a, b) => a + b, 0), 6);
    expect(out.report.labor).toMatchObject({ oews_aggregate: 2, oews_direct: 1, wage_top_coded: 2, wage_from_hourly: 1 });
  });

  it('builds industries per level with the documented occupation sources', () => {
    const ind = new Map(out.industries.map((i) => [i.naics_code, i]));
    expect(out.industries.map((i) => i.naics_code)).toEqual(['11', '51', '513', '5131', '5132']);
    const info = ind.get('51')!;
    expect(info.employment).toBe(5000);
    // 800 split equally over the two O*NET occupations of 11-1110, 200 for 22-2222
    expect(info.occupations.map((o) => [o.soc_code, o.employment, o.share])).toEqual([
      ['11-1111.00', 400, 0.08],
      ['11-1111.01', 400, 0.08],
      ['22-2222.00', 200, 0.04],
    ]);
    const s = (soc: string) => occ(soc).risk_score.final_score;
    expect(info.weighted_risk_score).toBeCloseTo((400 * s('11-1111.00') + 400 * s('11-1111.01') + 200 * s('22-2222.00')) / 1000, 1);
    expect(ind.get('5131')!.occupations_source).toMatchObject({ naics_level: 5, naics_codes: ['513110'] });
    expect(ind.get('5131')!.employment).toBe(400);
    expect(ind.get('5132')!.occupations_source).toMatchObject({ naics_level: 3, naics_codes: ['513000'] });
    expect(ind.get('11')!.occupations).toEqual([]);
    expect(ind.get('11')!.weighted_risk_score).toBeNull();
  });

  it('takes factors and tiers from the seeds and fills zero votes without votes.csv', () => {
    expect(Object.keys(out.factors)).toEqual(Object.keys(seeds.factors.factors).sort());
    expect(out.factors.ai_proficiency!.map((o) => o.value)).toEqual(seeds.factors.factors.ai_proficiency!.options.map((o) => o.value));
    expect(out.tiers.map((t) => t.tier)).toEqual(['low', 'medium', 'high']);
    expect(occ('22-2222.00').votes).toMatchObject({ total: 0, agree: 0 });
  });

  it('has every protective factor in 0..1, at least the five required ones', () => {
    for (const o of out.occupations) {
      for (const k of ['creativity', 'social_intelligence', 'manual_dexterity', 'complex_judgment', 'physical_presence']) {
        expect(o.protective_factors[k]).toBeGreaterThanOrEqual(0);
        expect(o.protective_factors[k]).toBeLessThanOrEqual(1);
      }
    }
    // Hand Fixers: Manual Dexterity IM 5, LV 7 -> ((5-1)/4)^0.5 * (7/7)^0.5 = 1, the only rated element
    expect(occ('22-2222.00').protective_factors.manual_dexterity).toBe(1);
  });

  it('is deterministic', () => {
    expect(JSON.stringify(computeModel(fixtureBundle(), seeds))).toBe(JSON.stringify(out));
  });
});

// computeModel on the hand-written fixture bundle; expected values worked out by hand in the
// comments from the formulas in docs/METHODOLOGY.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { computeModel } from '../../../build/model/index.ts';
import type { Seeds } from '../../../build/model/params.ts';
import { ModelOutput } from '../../../build/model/records.ts';
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

  it('weights Core 1, Supplemental 0.5, blank at the expected typed weight (core share 5/6)', () => {
    const t = new Map(occ('11-1111.00').tasks.map((x) => [x.task_id, x]));
    // weights 1, 0.5, 5/6 + 1/6 * 0.5 = 0.9167; total 2.4167
    expect(t.get(1)!.time_fraction).toBeCloseTo(1 / 2.416667, 4);
    expect(t.get(2)!.time_fraction).toBeCloseTo(0.5 / 2.416667, 4);
    // Served tasks only: task 7 belongs to the unscored occupation.
    expect(out.report.tasks).toMatchObject({ tasks_type_blank: 1, tasks_label_missing: 1, core_share: 0.8333 });
  });

  it('gives a task without labels the occupation\'s time-weighted mean label value, and counts it', () => {
    const t3 = occ('11-1111.00').tasks.find((x) => x.task_id === 3)!;
    // (1 * 1 + 0.25 * 0.5) / 1.5 = 0.75; no usage, so capability 0.75
    expect(t3.ai_capability_score).toBe(0.75);
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

  it('computes task risk and time-weighted exposure by hand', () => {
    const o = occ('11-1111.00');
    const t = new Map(o.tasks.map((x) => [x.task_id, x]));
    expect(t.get(1)!.task_risk_score).toBe(1); // E1/E1, T4, routine cognitive
    expect(t.get(2)!.task_risk_score).toBe(0.0375); // 0.25 * 0.25 * 0.6
    expect(t.get(3)!.task_risk_score).toBe(0.4688); // 0.75 * 0.625 * 1
    // (1 * 1 + 0.0375 * 0.5 + 0.46875 * 0.916667) / 2.416667 = 0.5994
    expect(o.risk_score.task_exposure).toBe(59.9);
    expect(o.risk_score.label_coverage).toBeCloseTo(1.5 / 2.416667, 4);
    expect(o.risk_score.label_agreement).toBeCloseTo(1.25 / 1.5, 4);
    // 22-2222.00: 0 and 0.75 * (0.25 + 0.75 * 0.75) * 1 = 0.6094, equal weights
    expect(occ('22-2222.00').risk_score.task_exposure).toBe(30.5);
  });

  it('keeps final_score = 100 * min(1, exposure * moderation / reference_raw)', () => {
    for (const o of out.occupations) {
      const raw = (o.risk_score.task_exposure / 100) * o.risk_score.protective_moderation;
      expect(o.risk_score.final_score).toBeCloseTo(Math.min(100, (100 * raw) / seeds.params.scale.reference_raw.value), 0);
      expect(o.risk_score.protective_moderation).toBeLessThanOrEqual(1);
      expect(o.risk_score.protective_moderation).toBeGreaterThanOrEqual(1 - seeds.params.moderation.strength.value);
    }
  });

  it('appends the SOC code to colliding slugs', () => {
    expect(occ('11-1111.00').slug).toBe('clerks-of-things-11-1111-00');
    expect(occ('22-2222.00').slug).toBe('hand-fixers');
    expect(occ('22-2222.00').id).toBe(22222200);
  });

  it('resolves the OEWS aggregate and reports the top-coded wage with the ceiling', () => {
    expect(occ('11-1111.01').labor_data).toMatchObject({ oews_code: '11-1110', median_annual_wage: 239200, median_annual_wage_status: 'top_coded', employment: 1000 });
    expect(out.report.labor).toMatchObject({ oews_aggregate: 2, oews_direct: 1, wage_top_coded: 2, wage_from_hourly: 1 });
  });

  it('lists lower-risk related occupations and the skills they need at a higher level', () => {
    const o = occ('11-1111.00');
    expect(o.transition_options.map((t) => t.soc_code)).toEqual(['22-2222.00']);
    // Repairing: 6 - 1 = 5 at importance 5 ranks before Judgment: 4 - 3 = 1 at importance 4;
    // Social Perceptiveness has target importance 2 < 3 and is left out.
    expect(o.skill_gaps).toEqual([
      { element_id: '2.B.3.l', name: 'Repairing', current_level: 1, target_level: 6, gap: 5, importance: 5 },
      { element_id: '2.B.4.e', name: 'Judgment and Decision Making', current_level: 3, target_level: 4, gap: 1, importance: 4 },
    ]);
    expect(occ('22-2222.00').transition_options).toEqual([]);
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

// Model 2.0.0 formulas on hand-written inputs; every expected value is worked out in the comments
// from the formulas in docs/METHODOLOGY.md.
import { anchorIndex, nearestAnchor } from '../../../build/model/level-anchors.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { complementarityMultiplier, complementarityParts, educationExperience, expectedCategory, theta } from '../../../build/model/complementarity.ts';
import {
  BASE,
  confidenceFromWidth,
  evidenceVariants,
  intervalWidth,
  occupationLayers,
  scaleScore,
  shrunkDisplacement,
  type TaskInputs,
} from '../../../build/model/displacement.ts';
import { firstK, isSafer, isSpecialty, licenceAllows, lowerOverRange, saferBy, skillGaps, transitionChoice, transitionNote, transitionOptions, type ScoredRef } from '../../../build/model/transitions.ts';
import type { ModelParamsSeed } from '../../../build/model/params.ts';
import { similarity, unitZ } from '../../../build/model/similarity.ts';
import { activityWeights } from '../../../build/model/task-time.ts';
import { adoptionYears } from '../../../build/model/displacement-years.ts';
import type { ElementRating } from '../../../build/model/inputs.ts';
import { realSeeds } from './seeds.ts';

let p: ModelParamsSeed;
beforeAll(async () => {
  p = (await realSeeds()).params;
});

describe('activity time weights', () => {
  it('inverts the Tomlinson IWA roll-up and falls back for a task without IWA', () => {
    // W(A) = 6 shared by tasks 1 and 2, W(B) = 4 on task 2 only: a1 = 3, a2 = mean(3, 4) = 3.5;
    // task 3: mean a 3.25 x type 0.5 / mean informed type 1 = 1.625
    const r = activityWeights([['A'], ['A', 'B'], []], [null, null, null], [1, 1, 0.5], new Map([['A', 6], ['B', 4]]));
    expect(r).toEqual({ weights: [3, 3.5, 1.625], source: 'iwa_weights', fallback_tasks: 1 });
  });

  it('treats IWA weights that give every task the same share as no evidence', () => {
    // W(A) = 2 over tasks 1 and 2, W(B) = 1 on task 3: shares 1, 1, 1 -> GWA importance instead
    expect(activityWeights([['A'], ['A'], ['B']], [4, 2, 3], [1, 1, 1], new Map([['A', 2], ['B', 1]]))).toEqual({
      weights: [1.5, 0.5, 1],
      source: 'gwa_importance',
      fallback_tasks: 0,
    });
  });

  it('uses Work Activities importance of the GWAs without IWA weights, then Task Type', () => {
    // importance 4 -> 3, 2 -> 1, missing -> mean 2: weights 1 * 3/2, 1 * 2/2, 1 * 1/2
    expect(activityWeights([[], [], []], [4, null, 2], [1, 1, 1], undefined)).toEqual({
      weights: [1.5, 1, 0.5],
      source: 'gwa_importance',
      fallback_tasks: 1,
    });
    expect(activityWeights([[], []], [null, null], [1, 0.5], new Map())).toEqual({ weights: [1, 0.5], source: 'task_type', fallback_tasks: 2 });
  });
});

describe('complementarity (Pizzinelli et al. 2023)', () => {
  it('maps an O*NET category scale to 0..1 by its expected category', () => {
    // categories 1 and 3 at 50% each: mean 2 -> (2 - 1) / 11
    const row = (category: number, pct: number) => ({ category, pct, recommend_suppress: false });
    expect(expectedCategory([row(1, 50), row(3, 50)], 12)).toBeCloseTo(1 / 11, 12);
    expect(expectedCategory([], 12)).toBeNull();
  });

  it('averages job zone, education and experience, and five subdomains equally', () => {
    expect(educationExperience(3, 0.5, null)).toBe(0.5); // (2/4 + 0.5) / 2
    const parts = complementarityParts(5, 1, 1, {
      complex_judgment: 0.6, leadership: 0.4, physical_presence: 0.2, manual_dexterity: 0, social_intelligence: 0.5, technology: 0.3,
    });
    expect(parts).toEqual({ education_experience: 1, responsibility: 0.5, physical: 0.1, interpersonal: 0.5, technology: 0.3 });
    expect(theta(parts)).toBeCloseTo((1 + 0.5 + 0.1 + 0.5 + 0.3) / 5, 12);
  });

  it('scales exposure by 1 - kappa (theta - theta_min), within 0..1', () => {
    expect(complementarityMultiplier(0.5, 0.3, 1)).toBeCloseTo(0.8, 12);
    expect(complementarityMultiplier(0.3, 0.3, 1)).toBe(1);
    expect(complementarityMultiplier(2, 0, 1)).toBe(0);
  });
});

describe('displacement layers and scale', () => {
  const tasks: TaskInputs[] = [
    { human: 1, gpt4: 1, human_e2: false, gpt4_e2: false, usage: 0, aei: null, t: 1, category_factor: 1, weight: 1, type_weight: 1 },
    { human: 0, gpt4: 0, human_e2: false, gpt4_e2: false, usage: 0, aei: null, t: 0, category_factor: 0.5, weight: 3, type_weight: 1 },
  ];

  it('computes exposure (time x capability) and substitution-weighted exposure by hand', () => {
    // fractions 0.25 / 0.75; capabilities 1 / 0; propensity T4 = 1: X = 0.25 * 1 * 1 * 1
    expect(occupationLayers(tasks, BASE, p, 0)).toEqual({ exposure: 0.25, substitution_exposure: 0.25, coverage: 1, labelled_tasks: 2 });
    // Task Type weights: 0.5 / 0.5
    expect(occupationLayers(tasks, { ...BASE, weights: 'type' }, p, 0).exposure).toBe(0.5);
    // Tilt 1 toward exposed work: mean capability 0.25; 1 * 1.75 and 3 * 0.75 -> 1.75 / 4
    expect(occupationLayers(tasks, { ...BASE, weights: 'tilt_up' }, p, 1).exposure).toBeCloseTo(0.4375, 12);
  });

  it('bounds unlabelled tasks in the coverage variants', () => {
    const withGap: TaskInputs[] = [...tasks, { human: null, gpt4: null, human_e2: false, gpt4_e2: false, usage: 0, aei: null, t: null, category_factor: 1, weight: 4, type_weight: 1 }];
    // weighted mean label of the labelled tasks (1 * 1 + 0 * 3) / 4 = 0.25; fractions 1/8, 3/8, 4/8
    expect(occupationLayers(withGap, BASE, p, 0).exposure).toBeCloseTo(0.125 + 0.5 * 0.25, 12);
    expect(occupationLayers(withGap, { ...BASE, unlabelled: 1 }, p, 0).exposure).toBeCloseTo(0.125 + 0.5, 12);
    expect(occupationLayers(withGap, { ...BASE, unlabelled: 0 }, p, 0).exposure).toBeCloseTo(0.125, 12);
  });

  it('shrinks toward the prior with k pseudo-tasks, so no evidence-poor occupation sits at 0', () => {
    // 20 labelled E0 tasks, prior 0.13, k = 2: 2 * 0.13 / 22
    expect(shrunkDisplacement(0, 1, 20, 0.13, 2)).toBeCloseTo(0.26 / 22, 12);
    expect(shrunkDisplacement(0.5, 0.8, 2, 0.1, 2)).toBeCloseTo((2 * 0.4 + 0.2) / 4, 12);
  });

  it('puts D = 0.1 and 0.25 at the tier cut points 25 and 50, and reaches 100 only at D = 1', () => {
    expect(scaleScore(0, 0.5)).toBe(0);
    expect(scaleScore(0.1, 0.5)).toBe(25); // 100 * 0.1 * 1.5 / 0.6
    expect(scaleScore(0.25, 0.5)).toBe(50); // 37.5 / 0.75
    expect(scaleScore(0.99, 0.5)).toBe(99.7);
    expect(scaleScore(1, 0.5)).toBe(100);
  });

  it('lists every leave-one-source-out variant and moves each parameter both ways', () => {
    const names = evidenceVariants(p).map((v) => v.name);
    for (const n of ['without_aei_usage', 'without_aei_collaboration', 'without_gpt4_automation_levels', 'human_labels_only', 'gpt4_labels_only', 'task_type_time_weights']) {
      expect(names).toContain(n);
    }
    expect(evidenceVariants(p).find((v) => v.name === 'kappa_high')!.kappa).toBeCloseTo(p.complementarity.kappa.value * (1 + p.interval.parameter_spread.value), 12);
  });
});

describe('confidence from the interval', () => {
  it('measures width on the arcsine-square-root scale', () => {
    // asin(0.7) - asin(sqrt(0.4)) = 0.77540 - 0.68472
    expect(intervalWidth(40, 49)).toBeCloseTo(0.0907, 4);
    expect(intervalWidth(0, 0)).toBe(0);
  });

  it('derives the word from the width alone (cut points 0.27 and 0.33)', () => {
    // asin(sqrt(0.6)) - asin(sqrt(0.4)) = 0.88608 - 0.68472 = 0.2014
    expect(confidenceFromWidth(intervalWidth(40, 60), p)).toBe('high');
    // asin(sqrt(0.6)) - asin(sqrt(0.3)) = 0.88608 - 0.57964 = 0.3064
    expect(confidenceFromWidth(intervalWidth(30, 60), p)).toBe('medium');
    // asin(sqrt(0.65)) - asin(sqrt(0.2)) = 0.93774 - 0.46365 = 0.4741
    expect(confidenceFromWidth(intervalWidth(20, 65), p)).toBe('low');
    // The same width at a low score gives the same word: 2 to 3.3 is 0.0400 wide
    expect(confidenceFromWidth(intervalWidth(2, 3.3), p)).toBe('high');
  });
});

describe('displacement years from adoption evidence', () => {
  const e = { usage_index: 1, level_signal: true, t_latest: 2026 };
  it('spans the published fast/slow rates and the level halved and doubled', () => {
    // a = 0.08 -> 0.16 for the earliest year, 0.04 for the latest; target 0.5 (logit 0)
    // low = 2026 + 1.6582 / (ln 81 / 8 = 0.54931) = 2029.0; high = 2026 + 3.1781 / (ln 81 / 30 = 0.146481) = 2047.7
    expect(adoptionYears(e, 50, p)).toEqual({ low: 2029, high: 2048, basis: 'aei_level', negligible: false });
  });

  it('starts from the floor when the level carries no signal, and leaves negligible exposure undated', () => {
    // a = 0.02 -> 0.04 and 0.01: low = 2026 + 3.1781 / 0.54931 = 2031.8; high = 2026 + 4.5951 / 0.146481 = 2057.4
    expect(adoptionYears({ ...e, level_signal: false }, 50, p)).toEqual({ low: 2032, high: 2057, basis: 'published_range', negligible: false });
    expect(adoptionYears(e, 3, p)).toMatchObject({ low: 2029, high: 2100, negligible: true });
  });

  it('never gives a one-year window, even for a level at the target', () => {
    // a = 0.8 -> kept at 0.95 * 0.5 / 2 = 0.2375: 0.475 for the earliest year, 0.11875 for the latest:
    // low = 2026 + 0.1001 / 0.54931 = 2026.2 -> first_year 2027; high = 2026 + 2.0043 / 0.146481 = 2039.7
    expect(adoptionYears({ ...e, usage_index: 10 }, 50, p)).toEqual({ low: 2027, high: 2040, basis: 'aei_level', negligible: false });
    for (const usage_index of [0, 0.01, 0.5, 1, 2, 5, 20]) {
      for (const score of [0, 10, 60]) {
        const y = adoptionYears({ ...e, usage_index }, score, p);
        expect(y.high).toBeGreaterThan(y.low);
      }
    }
  });
});

describe('similarity', () => {
  it('is the cosine of z-scored profiles', () => {
    // A (1,0), B (0,1), C (1,1): z-vectors A (0.447, -0.894), B (-0.894, 0.447), C (0.707, 0.707)
    const sets = [unitZ(new Map([['A', new Map([['x', 1]])], ['B', new Map([['y', 1]])], ['C', new Map([['x', 1], ['y', 1]])]]), true)];
    expect(similarity({ sets }, 'A', 'B')).toBeCloseTo(-0.8, 12);
    expect(similarity({ sets }, 'A', 'C')).toBeCloseTo(-0.3162, 4);
    expect(similarity({ sets }, 'A', 'Z')).toBeNull();
  });
});

describe('transitions (Nesta rules) and skill gaps', () => {
  // Same major group (10-), in demand, same entry education: only the rule each line names differs.
  const ref = (soc: string, score: number, tier: ScoredRef['risk_tier'], jz: number, wage: number | null, more: Partial<ScoredRef> = {}): ScoredRef => ({
    soc_code: soc, title: soc, slug: soc, final_score: score, risk_tier: tier, job_zone: jz, median_annual_wage: wage,
    alternatives: [score, score - 2, score + 3], entry_education: "Bachelor's degree", related_experience: 'None', on_the_job_training: 'None',
    employment: 50000, projected_change_pct: 3, projected_openings_annual: 4000, ...more,
  });
  const origin = ref('10-0000.00', 60, 'high', 3, 50000);
  const cands = [
    ref('10-1100.00', 40, 'medium', 3, 48000), // lower tier, desirable, highly viable
    ref('10-1200.00', 45, 'medium', 2, 30000), // pays 60%: not desirable
    ref('10-1300.00', 58, 'high', 3, 60000), // only 2 points lower: not safer
    ref('10-1400.00', 30, 'low', 5, 90000), // job zone 2 away
    ref('10-1500.00', 20, 'low', 4, 50000), // similarity 0.25: below viable, outside the field
    ref('10-1600.00', 50, 'high', 3, 70000), // desirable, same tier
  ];
  const sims: Record<string, number> = { '10-1100.00': 0.5, '10-1200.00': 0.6, '10-1300.00': 0.9, '10-1400.00': 0.9, '10-1500.00': 0.25, '10-1600.00': 0.35 };

  it('keeps the first k in order, as a full sort would list them', () => {
    const byValue = (a: number, b: number) => a - b;
    expect(firstK([5, 3, 9, 1, 7, 2], 3, byValue)).toEqual([1, 2, 3]);
    expect(firstK([5, 3], 4, byValue)).toEqual([3, 5]);
    expect(firstK([5, 3], 0, byValue)).toEqual([]);
    expect(firstK([], 2, byValue)).toEqual([]);
  });

  it('is safer at min(5 points, 20% of the score) lower', () => {
    expect(isSafer(60, 55, p)).toBe(true);
    expect(isSafer(60, 56, p)).toBe(false);
    expect(isSafer(10, 8, p)).toBe(true); // margin 2
    expect(isSafer(10, 8.5, p)).toBe(false);
  });

  it('orders lower-tier desirable, then desirable, then the rest; nothing below viable similarity', () => {
    const opts = transitionOptions(origin, [origin, ...cands], (picked) => picked.map((i) => sims[[origin, ...cands][i]!.soc_code] ?? null), p);
    expect(opts.map((o) => o.soc_code)).toEqual(['10-1100.00', '10-1600.00', '10-1200.00']);
    expect(opts[0]).toMatchObject({ similarity: 0.5, wage_ratio: 0.96, job_zone: 3, safer_by: { low: 20, high: 20 }, related_tier: null, education_step: 0 });
    expect(opts[0]!.reason).toBe(
      "Highly similar skills, knowledge and activities (0.50); entry: Bachelor's degree (same level); keeps 96% of pay; BLS 2024-34 +3.0%, 4,000 openings a year, 50,000 jobs; lower exposure tier (medium vs high), 20-20 points lower under 95% of model alternatives.",
    );
    expect(opts[2]!.reason).toMatch(/pays 60% of current pay/);
    // 10-1500 (similarity 0.25) is the only lower-tier option left for this high-tier origin, and
    // still not added: a partly similar occupation is not a move a counsellor signs.
    expect(opts.filter((o) => o.risk_tier !== 'high' && (o.wage_ratio ?? 0) >= 0.75)).toHaveLength(1);
  });

  it('pairs the alternatives: safer_by is the least and largest difference, and an option must be lower under every one', () => {
    expect(saferBy({ final_score: 60, alternatives: [60, 50, 70] }, { final_score: 40, alternatives: [40, 49, 45] })).toEqual({ low: 1, high: 25 });
    // 10 points lower in the base model, but higher under one alternative: not offered.
    const crossing = ref('10-1700.00', 50, 'high', 3, 50000, { alternatives: [50, 59, 53] });
    const near = ref('10-1700.00', 50, 'high', 3, 50000, { alternatives: [50, 57.9, 52] });
    const run = (c: ScoredRef) => transitionOptions(origin, [c], () => [0.5], p);
    expect(run(crossing)).toEqual([]);
    // origin [60, 58, 63]: construction differences 0.1 and 11; at q = 0.05 (interpolated between
    // them) 0.1 + 0.05 * 10.9 = 0.645 and 0.1 + 0.95 * 10.9 = 10.455, widened to the base's 10.
    expect(run(near)[0]!.safer_by).toEqual({ low: 0.6, high: 10.5 });
  });

  it('with the interval quantile, safer_by is the paired differences\' central range, and lowerOverRange agrees with it', () => {
    // Base difference 5; construction differences 1..40 (a = 100 + i, b = 99 + i - i): sorted 1..40.
    const a = { final_score: 50, alternatives: [50, ...Array.from({ length: 40 }, (_, i) => 60 + 2 * i)] };
    const b = { final_score: 45, alternatives: [45, ...Array.from({ length: 40 }, (_, i) => 59 + i)] };
    // h = 39 * 0.025 = 0.975: 1 + 0.975 * 1 = 1.975; upper 38.025 + 1 = 39.025
    expect(saferBy(a, b, 0.025)).toEqual({ low: 2, high: 39 });
    expect(saferBy(a, b)).toEqual({ low: 1, high: 40 });
    // Brute force against the counting shortcut, on seeded random pairs near the boundary.
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    let agreed = 0;
    for (let n = 0; n < 300; n++) {
      const xs = Array.from({ length: 41 }, () => 50 + Math.round(rand() * 100) / 10);
      const ys = xs.map((x) => Math.round((x - 1 + rand() * 1.2) * 10) / 10);
      const diffs = xs.slice(1).map((x, i) => x - ys[i + 1]!).sort((u, v) => u - v);
      const h = (diffs.length - 1) * 0.025;
      const qv = diffs[Math.floor(h)]! + (h - Math.floor(h)) * (diffs[Math.ceil(h)]! - diffs[Math.floor(h)]!);
      const expected = Math.round(10 * Math.min(xs[0]! - ys[0]!, qv)) / 10 > 0;
      expect(lowerOverRange({ final_score: xs[0]!, alternatives: xs }, { final_score: ys[0]!, alternatives: ys }, 0.025)).toBe(expected);
      agreed++;
    }
    expect(agreed).toBe(300);
  });

  it('keeps entry requirements, licences, demand and field', () => {
    const run = (c: ScoredRef, o: ScoredRef = origin, related = new Map<string, string>()) => transitionOptions(o, [c], () => [0.5], p, related).map((x) => x.soc_code);
    const ok = ref('10-1100.00', 40, 'medium', 3, 48000);
    expect(run(ok)).toEqual(['10-1100.00']);
    expect(run({ ...ok, entry_education: "Master's degree" })).toEqual(['10-1100.00']); // one level up
    expect(run({ ...ok, entry_education: 'Doctoral or professional degree' })).toEqual([]); // two up, and a doctorate
    const masters = { ...origin, entry_education: "Master's degree" };
    expect(run({ ...ok, entry_education: 'Doctoral or professional degree' }, masters)).toEqual([]); // a doctorate only from one
    expect(run({ ...ok, projected_change_pct: -0.5 })).toEqual([]);
    expect(run({ ...ok, projected_change_pct: null })).toEqual([]);
    expect(run({ ...ok, employment: 9000 })).toEqual([]);
    // Another major group: only when O*NET lists it as related.
    const other = { ...ok, soc_code: '20-1100.00' };
    expect(run(other)).toEqual([]);
    const listed = transitionOptions(origin, [other], () => [0.1], p, new Map([['20-1100.00', 'Primary-Long']]));
    expect(listed.map((x) => [x.soc_code, x.related_tier])).toEqual([['20-1100.00', 'Primary-Long']]);
    // Licensed families: a dentist only from dentistry; nurse practitioners from registered nurses.
    const doc = { entry_education: 'Doctoral or professional degree' };
    const surgeon = ref('29-1241.00', 20, 'low', 5, 400000, doc);
    const dentist = ref('29-1021.00', 20, 'low', 5, 200000, doc);
    expect(run(dentist, { ...ref('29-1241.00', 40, 'medium', 5, 400000, doc) }, new Map([['29-1021.00', 'Primary-Short']]))).toEqual([]);
    expect(run(dentist, ref('29-1022.00', 40, 'medium', 5, 300000, doc))).toEqual(['29-1021.00']);
    expect(licenceAllows('29-1141.00', '29-1171.00', p)).toBe(true);
    expect(licenceAllows('29-1122.00', '29-1171.00', p)).toBe(false);
    expect(licenceAllows('23-2011.00', '23-1011.00', p)).toBe(false);
    expect(run(surgeon, ref('11-9021.00', 40, 'medium', 4, 100000), new Map([['29-1241.00', 'Primary-Short']]))).toEqual([]);
  });

  it('says why fewer than two options are listed: its field, and what each rule removed of it', () => {
    const counts = { others: 10, related: 0, similar: 0, not_safer: 0, job_zone: 0, education_or_licence: 0, demand: 0, pay: 0, low_similarity: 0, same_tier: 0, cut_by_technology: 0, growing_origin: 0, ladder: 0, step_down: 0, same_pool: 0 };
    expect(transitionNote(2, { ...counts, related: 2 }, p)).toBeNull();
    expect(transitionNote(0, { ...counts, related: 4, similar: 6, not_safer: 6, education_or_licence: 1, demand: 3 }, p)).toBe(
      'No transition option: 10 of the 10 other scored occupations are in its field (4 O*NET related, 6 of its major group with similarity >= 0.3); of these, 6 do not score lower under 95% of model alternatives; 1 needs more than one education level up or a licence of another profession; 3 are projected to decline or have too few jobs.',
    );
    expect(transitionNote(1, { ...counts, related: 3, not_safer: 2 }, p)).toBe(
      'Only 1 transition option: 3 of the 10 other scored occupations are in its field (3 O*NET related, 0 of its major group with similarity >= 0.3); of the other 2, 2 do not score lower under 95% of model alternatives.',
    );
    expect(transitionNote(0, counts, p)).toBe(
      'No transition option: none of the 10 other scored occupations is in its field (no O*NET related occupation is scored, and none of its major group has similarity >= 0.3).',
    );
  });

  it('lists no option paying less than 60% of the current median wage (min_wage_ratio); 60% itself, and unpublished pay, pass', () => {
    expect(p.skill_gaps.min_wage_ratio.value).toBe(0.6);
    // The origin earns 50,000: 30,000 is 60%, 29,500 is 59%.
    const at = ref('10-2100.00', 40, 'medium', 3, 30000);
    const below = ref('10-2200.00', 40, 'medium', 3, 29500);
    const unknown = ref('10-2300.00', 40, 'medium', 3, null);
    const { options, removed } = transitionChoice(origin, [at, below, unknown], () => [0.5, 0.5, 0.5], p);
    expect(options.map((o) => o.soc_code).sort()).toEqual(['10-2100.00', '10-2300.00']);
    expect(removed.pay).toBe(1);
    expect(transitionNote(0, { others: 3, related: 0, similar: 3, not_safer: 2, job_zone: 0, education_or_licence: 0, demand: 0, pay: 1, low_similarity: 0, same_tier: 0, cut_by_technology: 0, growing_origin: 0, ladder: 0, step_down: 0, same_pool: 0 }, p)).toBe(
      'No transition option: 3 of the 3 other scored occupations are in its field (0 O*NET related, 3 of its major group with similarity >= 0.3); of these, 2 do not score lower under 95% of model alternatives; 1 pays less than 60% of this occupation\'s pay.',
    );
  });

  it('counts the field first, then what each rule removed of it, as the note reports', () => {
    const sim = (c: Record<string, number>) => (picked: readonly number[]) => picked.map((i) => c[[origin, ...cands][i]!.soc_code] ?? null);
    const { options, removed } = transitionChoice(origin, [origin, ...cands], sim(sims), p);
    // In the field (same major group, similarity >= 0.3): 10-1100, 10-1200, 10-1300, 10-1400, 10-1600;
    // 10-1300 is not safer, 10-1400 is two job zones away.
    expect(options).toHaveLength(3);
    expect(removed).toEqual({ others: 6, related: 0, similar: 5, not_safer: 1, job_zone: 1, education_or_licence: 0, demand: 0, pay: 0, low_similarity: 0, same_tier: 0, cut_by_technology: 0, growing_origin: 0, ladder: 0, step_down: 0, same_pool: 0 });
  });

  it('offers an O*NET specialty (not .00) only when O*NET lists it as related, and says its jobs are its SOC occupation\'s', () => {
    const specialty = ref('10-1100.03', 40, 'medium', 3, 48000);
    const run = (related: Map<string, string>) => transitionOptions(origin, [specialty], () => [0.6], p, related);
    expect(isSpecialty('10-1100.03')).toBe(true);
    expect(isSpecialty('10-1100.00')).toBe(false);
    expect(run(new Map())).toEqual([]); // similar, same major group: not enough for a specialty
    const listed = run(new Map([['10-1100.03', 'Supplemental']]));
    expect(listed.map((o) => o.soc_code)).toEqual(['10-1100.03']);
    expect(listed[0]!.reason).toContain('50,000 jobs in its SOC occupation (not counted separately)');
  });

  it('takes skill gaps from the chosen options and fills a short list with knowledge', () => {
    const r = (id: string, name: string, importance: number, level: number): ElementRating => ({
      soc_code: 'x', element_id: id, element_name: name, importance, level, not_relevant: false, recommend_suppress: false,
    });
    const own = { skills: new Map([['2.B.1.a', r('2.B.1.a', 'Social Perceptiveness', 3, 2)]]), knowledge: new Map([['2.C.1.a', r('2.C.1.a', 'Administration', 2, 1)]]) };
    const target = {
      skills: new Map([['2.B.1.a', r('2.B.1.a', 'Social Perceptiveness', 4, 2.1)]]), // gap 0.1 < 0.25
      knowledge: new Map([['2.C.1.a', r('2.C.1.a', 'Administration', 3.5, 4)]]), // gap 3
    };
    const anchors = anchorIndex([
      { element_id: '2.C.1.a', value: 4, description: 'Four' },
      { element_id: '2.C.1.a', value: 2, description: 'Two' },
    ]);
    expect(skillGaps(own, [{ soc_code: '43-6014.00', title: 'Secretaries', ...target }], p, { skills: '29.3', knowledge: '29.3' }, anchors)).toEqual([
      {
        element_id: '2.C.1.a', name: 'Administration', current_level: 1, target_level: 4, gap: 3, importance: 3.5,
        scale: 'O*NET level 0-7 (LV), importance 1-5 (IM)', kind: 'knowledge', targets: 1, toward: ['43-6014.00'], needed_by: ['Secretaries'],
        current_anchor: 'Two', target_anchor: 'Four', onet_release: '29.3',
      },
    ]);
  });

  it('names a knowledge area only where the option rates it important (>= 3), and names each option that does', () => {
    const r = (id: string, name: string, importance: number, level: number): ElementRating => ({
      soc_code: 'x', element_id: id, element_name: name, importance, level, not_relevant: false, recommend_suppress: false,
    });
    const own = { skills: new Map<string, ElementRating>(), knowledge: new Map([['2.C.4.g', r('2.C.4.g', 'Geography', 1.6, 0.2)]]) };
    const geo = (importance: number, level: number) => ({ skills: new Map<string, ElementRating>(), knowledge: new Map([['2.C.4.g', r('2.C.4.g', 'Geography', importance, level)]]) });
    const none = anchorIndex([]);
    // Rated 2.9 by the one option: not important there, so no gap, however high its level.
    expect(skillGaps(own, [{ soc_code: '43-4181.00', title: 'Reservation Agents', ...geo(2.9, 4.1) }], p, { skills: '29.3', knowledge: '29.3' }, none)).toEqual([]);
    // Two options, one rating it important: the level is that one's, and only it is named (no anchors given: no words).
    const [gap] = skillGaps(
      own,
      [
        { soc_code: '43-4181.00', title: 'Reservation Agents', ...geo(3.4, 4.1) },
        { soc_code: '43-4081.00', title: 'Hotel Desk Clerks', ...geo(2, 6) },
      ],
      p,
      { skills: '29.3', knowledge: '29.3' },
      none,
    );
    expect(gap).toMatchObject({ target_level: 4.1, toward: ['43-4181.00'], needed_by: ['Reservation Agents'], current_anchor: null, target_anchor: null });
  });

  it('quotes the anchor nearest a level, the lower on a tie, and none for a level more than 1.5 points below the first', () => {
    const idx = anchorIndex([
      { element_id: 'e', value: 6, description: 'Six' },
      { element_id: 'e', value: 2, description: 'Two' },
      { element_id: 'e', value: 4, description: 'Four' },
    ]);
    expect([0.4, 0.5, 2.9, 3, 3.1, 5.5, 7].map((l) => nearestAnchor(idx, 'e', l))).toEqual([null, 'Two', 'Two', 'Two', 'Four', 'Six', 'Six']);
    expect(nearestAnchor(idx, 'other', 4)).toBeNull();
    // Anchors four points apart (O*NET's Medicine and Dentistry: 1, 5, 7): the middle still has words.
    const wide = anchorIndex([{ element_id: 'w', value: 1, description: 'One' }, { element_id: 'w', value: 5, description: 'Five' }]);
    expect([0, 3, 3.1].map((l) => nearestAnchor(wide, 'w', l))).toEqual(['One', 'One', 'Five']);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { assess, optionApplies } from '../../../build/model/assess.ts';
import { factorsTable, tierTable } from '../../../build/model/index.ts';
import type { FactorsTable, TierTable } from '../../../build/model/record-schemas.ts';
import { realSeeds } from './seeds.ts';

let factors: FactorsTable;
let tiers: TierTable;
/** Exposures 1..100: the years_experience rule's quantile 0.6 falls at 60. */
const EXPOSURES = Array.from({ length: 100 }, (_, i) => i + 1);
beforeAll(async () => {
  const s = await realSeeds();
  factors = factorsTable(s, EXPOSURES);
  tiers = tierTable(s);
});

const occ = (base_score: number, exposure_score = 80) => ({ soc_code: '15-1252.00', title: 'Software Developers', base_score, exposure_score, score_low: Math.max(0, base_score - 5), score_high: Math.min(100, base_score + 5) });

/** Most raising minus most lowering choices, in points, as a client previews them from /factors. */
const combinedSwing = (f: FactorsTable): number => {
  let up = 0;
  let down = 0;
  for (const opts of Object.values(f)) {
    up += Math.max(0, ...opts.map((o) => o.adjustment));
    down += Math.min(0, ...opts.map((o) => o.adjustment));
  }
  return up - down;
};

describe('assess with the seeded factors', () => {
  it('keeps the combined swing of the factors within 10 points', () => {
    expect(combinedSwing(factors)).toBeLessThanOrEqual(10);
    // The three factor names of the interface stay, with every option listed.
    for (const f of ['ai_proficiency', 'years_experience', 'client_relationship_depth']) expect(factors[f]!.length).toBeGreaterThanOrEqual(2);
  });

  it('gives AI use no adjustment (Humlum and Vestergaard 2025: no effect above about 1%)', () => {
    for (const o of factors.ai_proficiency!) expect(o.adjustment).toBe(0);
  });

  it('lists the experience rule on each option: the exposure at the seeded quantile of the occupations', () => {
    for (const o of factors.years_experience!) expect(o.min_exposure).toBe(60);
    for (const o of factors.ai_proficiency!) expect(o.min_exposure).toBeUndefined();
  });

  it('applies the experience adjustment only at or above its exposure threshold', () => {
    const early = factors.years_experience!.find((o) => o.value === '0_2')!;
    expect(early.adjustment).toBeGreaterThan(0);
    expect(optionApplies(early, 59.9)).toBe(false);
    expect(optionApplies(early, 60)).toBe(true);
    const above = assess(occ(40, 75), { years_experience: '0_2' }, factors, tiers);
    const below = assess(occ(40, 30), { years_experience: '0_2' }, factors, tiers);
    if (!above.ok || !below.ok) throw new Error('expected ok');
    expect(above.result.adjustments).toEqual({ years_experience: early.adjustment });
    expect(below.result.adjustments).toEqual({ years_experience: 0 });
    expect(below.result.personalized_score).toBe(40);
  });

  it('keeps personalized = base + total and total = sum(adjustments), the interval moved with it', () => {
    const r = assess(occ(58.8), { ai_proficiency: 'advanced', years_experience: '0_2', task_routineness: 'mostly_routine' }, factors, tiers);
    if (!r.ok) throw new Error('expected ok');
    const sum = Object.values(r.result.adjustments).reduce((a, b) => a + b, 0);
    expect(Math.round(sum * 10)).toBe(Math.round(r.result.total_adjustment * 10));
    expect(r.result.personalized_score).toBe(Math.round((r.result.base_score + r.result.total_adjustment) * 10) / 10);
    expect(r.result.personalized_low).toBe(Math.round((53.8 + r.result.total_adjustment) * 10) / 10);
    expect(r.result.personalized_high).toBe(Math.round((63.8 + r.result.total_adjustment) * 10) / 10);
    expect(r.result.exposure_score).toBe(80);
  });

  it('clamps at 100 and reports only the adjustment actually applied', () => {
    const r = assess(occ(98.5), { years_experience: '0_2' }, factors, tiers);
    if (!r.ok) throw new Error('expected ok');
    expect(r.result).toMatchObject({ personalized_score: 100, total_adjustment: 1.5, adjustments: { years_experience: 1.5 }, risk_tier: 'high', personalized_high: 100 });
  });

  it('rejects unknown factors and options with the allowed values', () => {
    const r = assess(occ(50), { zodiac: 'leo', ai_proficiency: 'guru' }, factors, tiers);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.kind).sort()).toEqual(['unknown_factor', 'unknown_option']);
  });

  it('takes inherited names for unknown factors, and lists unknown options before unknown names', () => {
    const personal = new Map([['__proto__', 'x'], ['constructor', 'y'], ['ai_proficiency', 'guru'], ['toString', 'z'], ['years_experience', '0_2']]);
    const r = assess(occ(50), personal, factors, tiers);
    if (r.ok) throw new Error('expected issues');
    expect(r.issues.map((i) => [i.kind, 'factor' in i ? i.factor : null])).toEqual([
      ['unknown_option', 'ai_proficiency'],
      ['unknown_factor', '__proto__'],
      ['unknown_factor', 'constructor'],
      ['unknown_factor', 'toString'],
    ]);
    const ok = assess(occ(50), new Map([['years_experience', '0_2']]), factors, tiers);
    expect(ok.ok && ok.result.adjustments).toEqual({ years_experience: 3 });
  });

  it('offers the three named factors plus at least two more, each adjustment at most one decimal', () => {
    for (const f of ['ai_proficiency', 'years_experience', 'client_relationship_depth']) expect(factors[f]).toBeDefined();
    expect(Object.keys(factors).length).toBeGreaterThanOrEqual(5);
    for (const opts of Object.values(factors)) for (const o of opts) expect(Math.round(o.adjustment * 10)).toBeCloseTo(o.adjustment * 10, 9);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { assess } from '../../../build/model/assess.ts';
import { factorsTable, tierTable } from '../../../build/model/index.ts';
import type { FactorsTable, TierTable } from '../../../build/model/record-schemas.ts';
import { realSeeds } from './seeds.ts';

let factors: FactorsTable;
let tiers: TierTable;
beforeAll(async () => {
  const s = await realSeeds();
  factors = factorsTable(s);
  tiers = tierTable(s);
});

const occ = (base_score: number) => ({ soc_code: '15-1252.00', title: 'Software Developers', base_score });

describe('assess with the seeded factors', () => {
  it('keeps personalized = base + total and total = sum(adjustments)', () => {
    // ai_proficiency advanced -6, years 0_2 +4, task_routineness mostly_routine +5 -> +3
    const r = assess(occ(58.8), { ai_proficiency: 'advanced', years_experience: '0_2', task_routineness: 'mostly_routine' }, factors, tiers);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.result.adjustments).toEqual({ ai_proficiency: -6, task_routineness: 5, years_experience: 4 });
    expect(r.result.total_adjustment).toBe(3);
    expect(r.result.personalized_score).toBe(61.8);
    expect(r.result.personalized_score).toBe(Math.round((r.result.base_score + r.result.total_adjustment) * 10) / 10);
  });

  it('clamps at 0 and reports only the adjustment actually applied', () => {
    // base 4: ai_proficiency -6 -> clamps to 0 (applied -4); client deep_trust -5 -> 0 (applied 0)
    const r = assess(occ(4), { ai_proficiency: 'advanced', client_relationship_depth: 'deep_trust' }, factors, tiers);
    if (!r.ok) throw new Error('expected ok');
    expect(r.result.adjustments).toEqual({ ai_proficiency: -4, client_relationship_depth: 0 });
    expect(r.result.personalized_score).toBe(0);
    expect(r.result.total_adjustment).toBe(-4);
    expect(r.result.risk_tier).toBe('low');
  });

  it('clamps at 100', () => {
    const r = assess(occ(98), { task_routineness: 'mostly_routine' }, factors, tiers);
    if (!r.ok) throw new Error('expected ok');
    expect(r.result).toMatchObject({ personalized_score: 100, total_adjustment: 2, adjustments: { task_routineness: 2 }, risk_tier: 'high' });
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
    expect(r.issues.map((i) => [i.kind, i.factor])).toEqual([
      ['unknown_option', 'ai_proficiency'],
      ['unknown_factor', '__proto__'],
      ['unknown_factor', 'constructor'],
      ['unknown_factor', 'toString'],
    ]);
    const ok = assess(occ(50), new Map([['ai_proficiency', 'advanced']]), factors, tiers);
    expect(ok.ok && ok.result.adjustments).toEqual({ ai_proficiency: -6 });
  });

  it('offers the three named factors plus at least two more, each adjustment at most one decimal', () => {
    for (const f of ['ai_proficiency', 'years_experience', 'client_relationship_depth']) expect(factors[f]).toBeDefined();
    expect(Object.keys(factors).length).toBeGreaterThanOrEqual(5);
    for (const opts of Object.values(factors)) for (const o of opts) expect(Math.round(o.adjustment * 10)).toBeCloseTo(o.adjustment * 10, 9);
  });
});

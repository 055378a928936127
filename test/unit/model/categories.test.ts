import { beforeAll, describe, expect, it } from 'vitest';
import { gwaOfDwa, keywordCategory, majorityCategory, voteCategory } from '../../../build/model/categories.ts';
import type { TaskCategoriesSeed } from '../../../build/model/params.ts';
import { realSeeds } from './seeds.ts';

let s: TaskCategoriesSeed;
beforeAll(async () => {
  s = (await realSeeds()).task_categories;
});

describe('task categories', () => {
  it('maps every one of the 41 GWAs', () => {
    expect(Object.keys(s.gwas)).toHaveLength(41);
  });

  it('takes the GWA of a DWA id', () => {
    expect(gwaOfDwa('4.A.2.a.4.I09.D03')).toBe('4.A.2.a.4');
  });

  it('votes by count when importances are equal', () => {
    // Processing Information + Documenting (routine cognitive) vs Analyzing Data (analytical)
    expect(voteCategory(['4.A.2.a.2', '4.A.3.b.6', '4.A.2.a.4'], () => 3, s)).toBe('routine_cognitive');
  });

  it('weights each vote by the occupation importance of its GWA', () => {
    const imp = (g: string) => (g === '4.A.2.a.4' ? 5 : 2); // 5 > 2 + 2
    expect(voteCategory(['4.A.2.a.2', '4.A.3.b.6', '4.A.2.a.4'], imp, s)).toBe('non_routine_analytical');
  });

  it('breaks a tie by tie_break_order (non-routine before routine)', () => {
    // one routine cognitive vs one non-routine manual vote, equal weight
    expect(voteCategory(['4.A.2.a.2', '4.A.3.b.4'], () => 3, s)).toBe('non_routine_manual');
    expect(voteCategory(['4.A.3.b.4', '4.A.2.a.2'], () => 3, s)).toBe('non_routine_manual');
    expect(majorityCategory([{ category: 'routine_cognitive', weight: 0.5 }, { category: 'non_routine_analytical', weight: 0.5 }], s)).toBe(
      'non_routine_analytical',
    );
  });

  it('returns null for unknown GWAs', () => {
    expect(voteCategory(['9.Z.9.z.9'], () => 3, s)).toBeNull();
  });

  it('falls back to keywords: the leading verb first, then any word by rule order', () => {
    expect(keywordCategory('Record patient information in charts.', s)).toBe('routine_cognitive');
    expect(keywordCategory('Repair engines.', s)).toBe('non_routine_manual');
    expect(keywordCategory('Teaching new hires the procedures.', s)).toBe('non_routine_interpersonal');
    // Leading "Help" matches nothing; "assembled" (routine manual) comes before "reports" matters
    expect(keywordCategory('Help with assembled parts.', s)).toBe('routine_manual');
    expect(keywordCategory('Zzz qqq.', s)).toBeNull();
  });
});

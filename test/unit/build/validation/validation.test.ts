import { describe, expect, it } from 'vitest';
import { ranks, spearman } from '../../../../build/model/num.ts';
import { aiDirection, aiOnlyOffsetsRise, aiStatementsBySoc, table112Breakdown, toSoc2018 } from '../../../../build/validation/refs.ts';
import { bootstrap, rankAuc } from '../../../../build/validation/stats.ts';
import { matchToCurrent } from '../../../../build/validation/oews-history.ts';
import { replaceSection } from '../../../../build/validation/methodology.ts';
import { growthByGroup } from '../../../../build/validation/outcomes.ts';

describe('validation statistics', () => {
  it('computes Spearman rho from ranks', () => {
    // ranks of y: 1 2 4 3; sum d^2 = 2; 1 - 6 * 2 / (4 * 15) = 0.8
    expect(spearman([1, 2, 3, 4], [10, 20, 40, 30])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('gives tied values their average rank', () => {
    expect(ranks([5, 1, 5, 3])).toEqual([3.5, 1, 3.5, 2]);
    // Pearson of ranks (1.5 1.5 3 4) and (1 2 3 4): 4.5 / sqrt(4.5 * 5)
    expect(spearman([1, 1, 2, 3], [1, 2, 3, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it('is undefined without variation or with too few pairs', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1, 2], [1, 2])).toBeNull();
  });

  it('moves SOC 2010 values to SOC 2018: splits copy, merges average', () => {
    const m = toSoc2018(
      new Map([['11-1111', 1], ['11-1112', 3], ['22-2222', 5]]),
      [
        { soc2010: '11-1111', soc2018: '11-1110' },
        { soc2010: '11-1112', soc2018: '11-1110' },
        { soc2010: '22-2222', soc2018: '22-2221' },
        { soc2010: '22-2222', soc2018: '22-2222' },
        { soc2010: '33-3333', soc2018: '33-3333' },
      ],
    );
    expect([...m].sort()).toEqual([['11-1110', 2], ['22-2221', 5], ['22-2222', 5]]);
  });
});

describe('validation references and statistics (model 2)', () => {
  it('reads the direction of BLS Table 1.12 statements that name AI', () => {
    expect(aiDirection('Productivity change - share decreases as artificial intelligence (AI) tools are adopted.')).toBe('reduces');
    expect(aiDirection('Demand change - share increases as firms invest in AI.')).toBe('raises');
    expect(aiDirection('Demand change - share increases as firms invest in cloud computing.')).toBeNull();
    // AIR is not AI; both directions for one code leave it out
    expect(aiDirection('share decreases as AIR traffic falls')).toBeNull();
    const m = aiStatementsBySoc([
      { soc: '11-1111', statement: 'share decreases as AI automates it' },
      { soc: '22-2222', statement: 'share decreases as AI automates it' },
      { soc: '22-2222', statement: 'share increases as AI creates work' },
    ]);
    expect([...m]).toEqual([['11-1111', 'reduces']]);
  });

  it('counts Table 1.12 occupations once, and shows what the sensitivity rules change', () => {
    const rows = [
      // one occupation, two industries: one code, two rows
      { soc: '43-9041', statement: 'Productivity change - share decreases as firms use software, enhanced with AI technology.' },
      { soc: '43-9041', statement: 'Productivity change - share decreases as firms use software, enhanced with AI technology.' },
      { soc: '15-1252', statement: 'Demand change - share increases as research on artificial intelligence (AI) drives demand.' },
      // rises; AI only offsets the rise
      { soc: '29-2072', statement: 'Demand change - share increases as coding grows. This demand will be partially offset by the use of artificial intelligence (AI)-based tools.' },
      // AI in other words only
      { soc: '43-9022', statement: 'Capital/labor substitution - share decreases as typing is replaced through use of machine learning (ML) technologies.' },
      { soc: '29-9092', statement: 'Demand change - share increases as genetics grows. This demand will be partially offset by the growing use of chatbots.' },
      { soc: '11-1011', statement: 'Demand change - share increases as firms grow.' },
    ];
    expect(aiOnlyOffsetsRise(rows[3]!.statement)).toBe(true);
    expect(aiOnlyOffsetsRise(rows[2]!.statement)).toBe(false);
    expect(table112Breakdown(rows)).toEqual({
      rows: 7,
      rows_naming_ai: { reduces: 2, raises: 2 },
      codes: { reduces: 1, raises: 2, both: 0 },
      codes_with_several_rows: 1,
      extra_rows: 1,
      offset_codes: ['29-2072'],
      other_word_codes: [{ soc: '29-9092', direction: 'raises' }, { soc: '43-9022', direction: 'reduces' }],
    });
    expect([...aiStatementsBySoc(rows)].sort()).toEqual([['15-1252', 'raises'], ['29-2072', 'raises'], ['43-9041', 'reduces']]);
    expect([...aiStatementsBySoc(rows, { withoutOffsets: true })].sort()).toEqual([['15-1252', 'raises'], ['43-9041', 'reduces']]);
    expect([...aiStatementsBySoc(rows, { otherWords: true })].sort()).toEqual([['15-1252', 'raises'], ['29-2072', 'raises'], ['29-9092', 'raises'], ['43-9022', 'reduces'], ['43-9041', 'reduces']]);
  });

  it('computes rank AUC with ties counting half', () => {
    // pairs: 3>1, 3=3 (0.5), 4>1, 4>3 -> 3.5 / 4
    expect(rankAuc([3, 4], [1, 3])).toBe(0.875);
    expect(rankAuc([], [1])).toBeNull();
  });

  it('gives reproducible percentile bootstrap intervals around the statistic', () => {
    const mean = ([g]: ReadonlyArray<readonly number[]>) => g!.reduce((a, b) => a + b, 0) / g!.length;
    const a = bootstrap([[1, 2, 3, 4, 5]], mean, 500, 7);
    expect(a.value).toBe(3);
    expect(bootstrap([[1, 2, 3, 4, 5]], mean, 500, 7)).toEqual(a);
    expect(a.low!).toBeGreaterThanOrEqual(1);
    expect(a.low!).toBeLessThan(3);
    expect(a.high!).toBeGreaterThan(3);
    expect(a.high!).toBeLessThanOrEqual(5);
  });

  it('matches transitional OEWS codes to current codes within the SOC broad group', () => {
    const old = new Map([['11-1011', 10], ['15-1256', 100], ['99-9999', 1]]);
    const cur = new Map([['11-1011', 12], ['15-1252', 90], ['15-1253', 20], ['47-1011', 5]]);
    const m = matchToCurrent(old, cur);
    expect(m.groups).toEqual([{ current: ['11-1011'], old: ['11-1011'] }, { current: ['15-1252', '15-1253'], old: ['15-1256'] }]);
    expect(m).toMatchObject({ direct: 1, aggregated: 1, unmatched_old: 1, unmatched_current: 1 });
  });

  it('annualizes log growth before and after the middle year per matched group', () => {
    const years = [
      { year: '2019', employment: new Map([['11-1011', 100]]) },
      { year: '2022', employment: new Map([['11-1011', 100 * Math.E ** 0.3]]) },
      { year: '2025', employment: new Map([['11-1011', 100 * Math.E ** 0.6]]) },
    ];
    const g = growthByGroup(years, '2019', '2022', '2025')!;
    expect(g.groups[0]!.before).toBeCloseTo(0.1, 12);
    expect(g.groups[0]!.after).toBeCloseTo(0.1, 12);
  });

  it('rewrites only the text between the generated markers', () => {
    const doc = 'a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb';
    expect(replaceSection(doc, 'x', 'new')).toBe('a\n<!-- generated:x -->\nnew\n<!-- /generated:x -->\nb');
    expect(() => replaceSection(doc, 'y', 'new')).toThrow(/no <!-- generated:y -->/);
  });
});

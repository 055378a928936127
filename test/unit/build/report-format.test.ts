import { describe, expect, it, test } from 'vitest';
import { formatJoinReport, formatRejectedRows, formatUnscored, rejectedRows } from '../../../build/report-format.ts';

test('join report: scalars under totals, one wrapped section per nested object', () => {
  const text = formatJoinReport({
    occupations_served: 923,
    labor: { oews_direct: 891, oews_unmatched: 2, releases: ['2025-02-10', '2026-03-24'] },
  });
  const lines = text.split('\n');
  expect(lines[0]).toBe('  totals: occupations_served 923');
  expect(lines[1]).toBe('  labor: oews_direct 891, oews_unmatched 2, releases 2025-02-10 2026-03-24');
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
});

test('join report: an object inside a section shows its fields, never "[object Object]"', () => {
  const text = formatJoinReport({
    evidence: { tasks_with_usage: 5508, usage_level_signal: { releases: ['2025-02-10', '2026-03-24'], tasks: 4012, spearman: 0.613 }, usage_change_signal: { releases: [], tasks: 0, spearman: null } },
  });
  expect(text).not.toContain('[object Object]');
  expect(text.replace(/\n\s+/g, ' ')).toBe(
    '  evidence: tasks_with_usage 5,508, usage_level_signal (releases 2025-02-10 2026-03-24; tasks 4,012; spearman 0.613), usage_change_signal (releases ; tasks 0; spearman null)',
  );
});

test('unscored: every occupation named, grouped by reason, semicolon-separated', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({
    soc_code: `11-90${String(i).padStart(2, '0')}.00`,
    title: `Managers, All Other ${i}`,
    reason: 'No task statements',
  }));
  const text = formatUnscored([...many, { soc_code: '55-3016.00', title: 'Infantry', reason: 'Another reason' }]);
  expect(text.split('\n')[0]).toBe('  Another reason (1): 55-3016.00 Infantry');
  expect(text).toContain('  No task statements (30):');
  for (const u of many) expect(text).toContain(`${u.soc_code} ${u.title}`);
  expect(text).toContain('Managers, All Other 0; 11-9001.00');
  for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
});

describe('rejectedRows', () => {
  const served = [{ soc_code: '15-1252.00', title: 'Software Developers' }];
  const unscored = [{ soc_code: '15-1253.00', title: 'Software Quality Assurance Analysts and Testers', reason: 'No O*NET Job Zone.' }];
  it('names each occupation without a page that rejected rows name (a SOC code: its O*NET occupations), why, and the rows; codes it cannot read apart', () => {
    const r = rejectedRows(
      [
        { file: 'Job Zones.txt', line: 9, reason: 'Job Zone: is not an integer', code: '15-1253.00', title: 'Software Quality Assurance Analysts and Testers' },
        { file: 'national.csv', line: 4, reason: 'TOT_EMP: is not a number', code: '15-1253' },
        { file: 'national.csv', line: 5, reason: 'TOT_EMP: is not a number', code: '15-1252' },
        { file: 'Occupation Data.txt', line: 3, reason: 'Title: is blank', code: '43-4051.00' },
        { file: 'Occupation Data.txt', line: 7, reason: 'O*NET-SOC Code: is not a code', code: '43-40X1.00', title: 'Customer Service Representatives' },
        { file: 'DWA Reference.txt', line: 2, reason: 'DWA ID: is blank' },
      ],
      served,
      unscored,
    );
    expect(formatRejectedRows(r).split('\n')).toEqual([
      'Rejected source rows: 6 (the build went on without them; --strict fails on any)',
      'Occupations without a page because rows naming them were rejected (2):',
      '  15-1253.00 Software Quality Assurance Analysts and Testers: No O*NET Job Zone.',
      '    Job Zones.txt:9: Job Zone: is not an integer',
      '    national.csv:4: TOT_EMP: is not a number',
      '  43-4051.00 (title not read): not among the occupations the model read',
      '    Occupation Data.txt:3: Title: is blank',
      'Rejected rows whose occupation code cannot be read, so the occupation they name is unknown (1):',
      '    Occupation Data.txt:7: O*NET-SOC Code: is not a code (code "43-40X1.00", title "Customer Service Representatives")',
    ]);
  });

  it('says so when every occupation kept its page, and nothing without rejected rows', () => {
    expect(formatRejectedRows(rejectedRows([{ file: 'a.txt', line: 2, reason: 'x', code: '15-1252.00' }], served, unscored))).toBe(
      'Rejected source rows: 1 (the build went on without them; --strict fails on any)\n  no occupation lost its page over them',
    );
    expect(formatRejectedRows(rejectedRows([], served, unscored))).toBe('');
  });
});

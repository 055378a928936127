import { expect, test } from 'vitest';
import { formatJoinReport, formatUnscored } from '../../../build/report-format.ts';

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

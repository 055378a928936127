import { describe, expect, it } from 'vitest';
import type { SourceReport } from '../../../../build/sources/report.ts';
import { checkRejectThreshold, formatSourceReport } from '../../../../build/sources/report.ts';

const report: SourceReport = {
  files: [
    { file: 'Task Statements.txt', path: 'onet/Task Statements.txt', rows: 1000, kept: 994, rejected: 6, repeats: 0, notes: ['12 tasks with blank Task Type'] },
    { file: 'Job Zones.txt', path: 'onet/Job Zones.txt', rows: 1000, kept: 995, rejected: 5, repeats: 0, notes: [] },
    { file: 'empty.csv', path: 'x/empty.csv', rows: 0, kept: 0, rejected: 0, repeats: 0, notes: [] },
  ],
  problems: Array.from({ length: 11 }, (_, i) => ({
    file: i < 6 ? 'onet/Task Statements.txt' : 'onet/Job Zones.txt',
    line: i + 2,
    reason: `reason ${i}`,
  })),
  missing_optional: ['Task Ratings.txt', 'votes.csv'],
  choices: [],
};

describe('checkRejectThreshold', () => {
  it('returns only files whose reject share exceeds the limit (0.5% by default)', () => {
    expect(checkRejectThreshold(report).map((f) => f.file)).toEqual(['Task Statements.txt']);
    expect(checkRejectThreshold(report, 0.004).map((f) => f.file)).toEqual(['Task Statements.txt', 'Job Zones.txt']);
  });
});

describe('formatSourceReport', () => {
  it('lists files with counts, missing optional files, the first problems and how many more', () => {
    const text = formatSourceReport(report, 3);
    expect(text).toMatch(/onet\/Task Statements\.txt\s+1000\s+994\s+6/);
    expect(text).toContain('12 tasks with blank Task Type');
    expect(text).toContain('optional files not found: Task Ratings.txt; votes.csv');
    expect(text).toContain('onet/Task Statements.txt:2: reason 0');
    expect(text).toContain('onet/Task Statements.txt:4: reason 2');
    expect(text).not.toContain('reason 3');
    expect(text).toContain('... and 8 more');
    expect(text).toContain('3 files, 2000 rows, 11 rejected');
  });
});

import { describe, expect, it } from 'vitest';
import { judgeEntry, planIsSafe, planZipExtraction } from '../../../../build/fetch/zip-plan.ts';

describe('judgeEntry (zip-slip guard)', () => {
  it.each([
    ['../evil.txt', 'parent-directory (..) segment'],
    ['db_29_3_text/../../evil.txt', 'parent-directory (..) segment'],
    ['..\\evil.txt', 'parent-directory (..) segment'],
    ['/etc/passwd', 'absolute path'],
    ['\\\\server\\share\\x', 'absolute path'],
    ['C:\\Windows\\x.txt', 'drive-letter path'],
    ['a\0b', 'NUL byte in name'],
  ])('refuses %j', (name, reason) => {
    expect(judgeEntry(name)).toEqual({ kind: 'refused', reason });
  });

  it('keeps official folder and file names, dropping empty and "." segments', () => {
    expect(judgeEntry('db_29_3_text/Occupation Data.txt')).toEqual({ kind: 'file', path: 'db_29_3_text/Occupation Data.txt' });
    expect(judgeEntry('./oesm24in4//nat3d_M2024_dl.xlsx')).toEqual({ kind: 'file', path: 'oesm24in4/nat3d_M2024_dl.xlsx' });
    expect(judgeEntry('name..with..dots.txt')).toEqual({ kind: 'file', path: 'name..with..dots.txt' });
  });

  it('treats folder entries as folders', () => {
    expect(judgeEntry('db_29_3_text/')).toEqual({ kind: 'dir' });
  });
});

describe('planZipExtraction', () => {
  it('plans every file, sorted, and finds expected names in any folder, case-insensitively', () => {
    const plan = planZipExtraction(
      ['oesm24in4/', 'oesm24in4/nat3d_M2024_dl.xlsx', 'oesm24in4/NATSECTOR_M2024_dl.xlsx'],
      ['natsector_M2024_dl.xlsx', 'nat3d_M2024_dl.xlsx'],
    );
    expect(plan.files.map((f) => f.path)).toEqual(['oesm24in4/NATSECTOR_M2024_dl.xlsx', 'oesm24in4/nat3d_M2024_dl.xlsx']);
    expect(plan.missing).toEqual([]);
    expect(planIsSafe(plan)).toBe(true);
  });

  it('rejects the whole archive when one entry escapes', () => {
    const plan = planZipExtraction(['x/Occupation Data.txt', '../evil.txt'], ['Occupation Data.txt']);
    expect(plan.refused).toEqual([{ entry: '../evil.txt', reason: 'parent-directory (..) segment' }]);
    expect(planIsSafe(plan)).toBe(false);
  });

  it('reports expected official files the archive lacks', () => {
    const plan = planZipExtraction(['x/Job Zones.txt'], ['Occupation Data.txt', 'Job Zones.txt']);
    expect(plan.missing).toEqual(['Occupation Data.txt']);
    expect(planIsSafe(plan)).toBe(false);
  });

  it('refuses two entries that land on one path', () => {
    const plan = planZipExtraction(['a/b.txt', 'a//b.txt'], []);
    expect(plan.files).toHaveLength(1);
    expect(plan.refused[0]?.entry).toBe('a//b.txt');
  });
});

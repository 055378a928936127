// Optional official files absent from the mirror (Task Ratings, Abilities, Work Activities) and
// AEI files whose release cannot be told, added to a copy of the mini tree.
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelInputs } from '../../../../build/model/inputs.ts';
import type { SourceReport } from '../../../../build/sources/report.ts';
import { loadSources } from '../../../../build/sources/index.ts';
import { copyMini } from './helpers/paths.ts';

const tsv = (rows: string[][]) => `${rows.map((r) => r.join('\t')).join('\n')}\n`;
let mini: ReturnType<typeof copyMini>;
let bundle: ModelInputs;
let report: SourceReport;

beforeAll(async () => {
  mini = copyMini();
  const onet = path.join(mini.dir, 'downloads/db_29_3_text');
  writeFileSync(
    path.join(onet, 'Task Ratings.txt'),
    tsv([
      ['O*NET-SOC Code', 'Title', 'Task ID', 'Task', 'Scale ID', 'Category', 'Data Value', 'N', 'Standard Error', 'Lower CI Bound', 'Upper CI Bound', 'Recommend Suppress', 'Date', 'Domain Source'],
      ['15-1252.00', 'Software Developers', '16363', 'Modify existing software.', 'FT', '5', '21.37', '25', '7.9', '8.6', '44.1', 'N', '08/2023', 'Incumbent'],
      ['15-1252.00', 'Software Developers', '16363', 'Modify existing software.', 'IM', 'n/a', '4.35', '25', '0.15', '4.05', '4.65', 'N', '08/2023', 'Incumbent'],
      ['15-1252.00', 'Software Developers', '16363', 'Modify existing software.', 'XX', 'n/a', '1.00', '25', '0.15', '4.05', '4.65', 'N', '08/2023', 'Incumbent'],
    ]),
  );
  writeFileSync(
    path.join(onet, 'Abilities.txt'),
    tsv([
      ['O*NET-SOC Code', 'Title', 'Element ID', 'Element Name', 'Scale ID', 'Scale Name', 'Data Value', 'N', 'Standard Error', 'Lower CI Bound', 'Upper CI Bound', 'Recommend Suppress', 'Not Relevant', 'Date', 'Domain Source'],
      ['15-1252.00', 'Software Developers', '1.A.1.b.4', 'Deductive Reasoning', 'IM', 'Importance', '4.00', '8', '0.1', '3.8', '4.2', 'N', 'n/a', '08/2023', 'Analyst'],
      ['15-1252.00', 'Software Developers', '1.A.1.b.4', 'Deductive Reasoning', 'LV', 'Level', '4.75', '8', '0.2', '4.4', '5.1', 'N', 'N', '08/2023', 'Analyst'],
    ]),
  );
  // The mirror's derived table sits next to the official file and must lose to it.
  writeFileSync(
    path.join(mini.dir, 'ONET30.0_Abilities_IM_LV.derived.tsv'),
    tsv([['O*NET-SOC Code', 'Element ID', 'Element Name', 'IM', 'LV'], ['15-1252.00', '1.A.1.b.4', 'Deductive Reasoning', '1.00', '1.00']]),
  );
  writeFileSync(
    path.join(mini.dir, 'ONET30.0_Work_Activities_IM_LV.derived.tsv'),
    tsv([['O*NET-SOC Code', 'Element ID', 'Element Name', 'IM', 'LV'], ['15-1252.00', '4.A.3.b.1', 'Working with Computers', '4.88', '6.02']]),
  );
  // An extract without a date in its name or folder cannot be placed in time.
  writeFileSync(path.join(mini.dir, 'aei/derived_task_pct_claude_ai.csv'), 'task_name,pct\nsome task.,1.5\n');
  unlinkSync(path.join(onet, 'Read Me.txt'));
  ({ bundle, report } = await loadSources(mini.dir));
});

afterAll(() => mini.cleanup());

describe('optional official files', () => {
  it('reads Task Ratings with FT categories and n/a for IM, rejecting an unknown scale', () => {
    expect(bundle.task_ratings).toEqual([
      { soc_code: '15-1252.00', task_id: 16363, scale_id: 'FT', category: 5, value: 21.37, recommend_suppress: false },
      { soc_code: '15-1252.00', task_id: 16363, scale_id: 'IM', category: null, value: 4.35, recommend_suppress: false },
    ]);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ file: 'downloads/db_29_3_text/Task Ratings.txt', line: 4, reason: expect.stringContaining('scale_id') }),
    );
    expect(report.missing_optional).not.toContain('Task Ratings.txt');
  });

  it('uses the official Abilities file over the derived one, and the derived Work Activities', () => {
    expect(bundle.abilities).toEqual([
      expect.objectContaining({ element_id: '1.A.1.b.4', importance: 4, level: 4.75, not_relevant: false }),
    ]);
    expect(bundle.work_activities).toEqual([
      {
        soc_code: '15-1252.00',
        element_id: '4.A.3.b.1',
        element_name: 'Working with Computers',
        importance: 4.88,
        level: 6.02,
        not_relevant: false,
        recommend_suppress: false,
      },
    ]);
  });

  it('reports an undated AEI file as not used and an unknown O*NET version', () => {
    expect(report.files).toContainEqual(
      expect.objectContaining({ path: 'aei/derived_task_pct_claude_ai.csv', rows: 0, notes: [expect.stringContaining('release date unknown')] }),
    );
    expect(bundle.aei_usage.every((u) => u.release === '2025-02-10')).toBe(true);
    expect(bundle.onet_version).toBe('unknown');
    expect(report.missing_optional).toContain('Read Me.txt (O*NET release notice)');
  });
});

// loadSources on the hand-written mini tree (test/fixtures/sources/mini): official formats, files
// spread over nested folders the way extracted downloads leave them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModelInputs } from '../../../../build/model/inputs.ts';
import type { SourceReport } from '../../../../build/sources/report.ts';
import { checkRejectThreshold, loadSources } from '../../../../build/sources/index.ts';
import { miniFixture } from './helpers/paths.ts';

let bundle: ModelInputs;
let report: SourceReport;

beforeAll(async () => {
  ({ bundle, report } = await loadSources(miniFixture));
});

const fileReport = (suffix: string) => report.files.find((f) => f.path.endsWith(suffix))!;

describe('O*NET files', () => {
  it('finds files in nested subfolders and reads the release from Read Me.txt', () => {
    expect(fileReport('Task Statements.txt').path).toBe('downloads/db_29_3_text/Task Statements.txt');
    expect(fileReport('full_labelset.tsv').path).toBe('research/gpts-are-gpts/data/full_labelset.tsv');
    expect(bundle.onet_version).toBe('29.3');
  });

  it('rejects the broken task row with its line number and keeps the rest', () => {
    expect(bundle.tasks.map((t) => t.task_id)).toEqual([16363, 16987, 5255, 9999]);
    expect(fileReport('Task Statements.txt')).toMatchObject({ rows: 5, kept: 4, rejected: 1 });
    const problem = report.problems.find((p) => p.file.endsWith('Task Statements.txt'));
    expect(problem?.line).toBe(5);
    expect(problem?.reason).toContain('Task ID');
    expect(problem?.reason).toContain('52x6');
  });

  it('keeps a blank Task Type as null and unescapes quoted task text', () => {
    expect(bundle.tasks.find((t) => t.task_id === 5255)).toMatchObject({ task_type: null, incumbents_responding: null });
    expect(bundle.tasks.find((t) => t.task_id === 9999)?.task).toBe('Record "vital signs" of patients.');
    expect(fileReport('Task Statements.txt').notes).toContain('1 tasks with blank Task Type (kept as null)');
  });

  it('merges the IM and LV rows of Skills and Knowledge into one rating each', () => {
    expect(bundle.skills).toEqual([
      {
        soc_code: '15-1252.00',
        element_id: '2.B.3.e',
        element_name: 'Programming',
        importance: 4.5,
        level: 5.88,
        not_relevant: false,
        recommend_suppress: false,
      },
      {
        soc_code: '43-4051.00',
        element_id: '2.B.3.e',
        element_name: 'Programming',
        importance: 1,
        level: 0,
        not_relevant: true,
        recommend_suppress: false,
      },
    ]);
    expect(bundle.knowledge[0]).toMatchObject({ importance: 4.2, level: 5.1, recommend_suppress: true });
  });

  it('puts alternate titles before reported ones, blank short titles as null', () => {
    expect(bundle.titles.map((t) => [t.title, t.short_title, t.source])).toEqual([
      ['Application Developer', null, 'alternate'],
      ['Software Development Engineer', 'SDE', 'alternate'],
      ['Software Engineer', null, 'reported'],
      ['Call Center Agent', null, 'reported'],
    ]);
  });
});

describe('exposure files', () => {
  it('reads Eloundou labels with float task IDs and blank task types', () => {
    expect(bundle.exposure_labels).toEqual([
      { soc_code: '15-1252.00', task_id: 16363, task: 'Modify existing software to correct errors or improve its performance.', human: 'E1', gpt4: 'E1', gpt4_alt_rubric: 'E1', gpt4_automation: 'T3' },
      { soc_code: '43-4051.00', task_id: 5255, task: 'Keep records of customer interactions or transactions.', human: 'E2', gpt4: 'E1', gpt4_alt_rubric: 'E2', gpt4_automation: 'T2' },
    ]);
  });

  it('skips the AEI "none" row and labels release and platform', () => {
    expect(bundle.aei_usage.map((u) => [u.release, u.platform, u.pct])).toEqual([
      ['2025-02-10', 'claude_ai', 1.25],
      ['2025-02-10', 'claude_ai', 0.02],
    ]);
    expect(bundle.aei_collaboration).toEqual([
      {
        release: '2026-01-15',
        platform: 'api',
        task_key: 'modify existing software to correct errors or improve its performance.',
        directive: 0.6,
        feedback_loop: 0.2,
        task_iteration: 0.1,
        validation: 0,
        learning: 0,
        unclassified: 0.1,
      },
    ]);
    expect(bundle.aei_task_statements.map((s) => s.task_id)).toEqual([16363, 5255]);
    expect(bundle.msft_applicability).toHaveLength(2);
  });

  it('reads the Working with AI user-goal and AI-action shares per IWA (official iwa_metrics.csv columns)', () => {
    expect(bundle.wwai_iwa).toEqual([
      { iwa_id: '4.A.2.a.1.I01', share_user: 0.3, share_ai: 0.1 },
      { iwa_id: '4.A.4.a.3.I03', share_user: 0.1, share_ai: 0.3 },
      { iwa_id: '4.A.3.a.2.I26', share_user: 0.00001, share_ai: 0 },
    ]);
    expect(fileReport('iwa_metrics.csv')).toMatchObject({ rows: 3, kept: 3, rejected: 0 });
  });
});

describe('BLS and NAICS files', () => {
  it('makes OEWS wage markers explicit and rejects a non-numeric employment', () => {
    expect(bundle.oews_national.map((n) => n.period)).toEqual(['May 2024']);
    const rows = bundle.oews_national[0]!.rows;
    const byCode = Object.fromEntries(rows.map((r) => [r.occ_code, r]));
    expect(byCode['11-1011']!.a_median).toEqual({ value: null, flag: 'top_coded' });
    expect(byCode['25-2021']).toMatchObject({ annual_only: true, h_median: { value: null, flag: 'not_available' } });
    expect(byCode['27-2011']).toMatchObject({ tot_emp: null, hourly_only: true, a_mean: { value: null, flag: 'not_available' } });
    expect(byCode['15-1252']!.a_median).toEqual({ value: 132270, flag: null });
    expect(byCode['15-125X']).toBeUndefined();
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'bls/oesm24nat/national_M2024_dl.csv', line: 7 }));
  });

  it('keeps total and detailed industry rows with their NAICS level', () => {
    expect(bundle.oews_industry.map((r) => [r.naics, r.naics_level, r.own_code, r.occ_code, r.tot_emp])).toEqual([
      ['51', 2, '5', '00-0000', 2980000],
      ['51', 2, '5', '15-1252', 420000],
      ['61', 2, '235', '00-0000', 13000000],
      ['61', 2, '235', '25-2021', null],
      ['513000', 3, '5', '00-0000', 1100000],
      ['513000', 3, '5', '15-1252', 250000],
    ]);
    expect(fileReport('natsector_M2024_dl.csv')).toMatchObject({ rows: 5, kept: 4, rejected: 0 });
  });

  it('reads NAICS levels (31-33 is a sector) and EP projections', () => {
    expect(bundle.naics.map((n) => [n.code, n.level])).toEqual([
      ['31-33', 2],
      ['51', 2],
      ['513', 3],
      ['5132', 4],
      ['513210', 6],
    ]);
    const chief = bundle.projections.find((p) => p.soc === '11-1011')!;
    expect(chief).toMatchObject({ employment_2024: 210.1, employment_2034: 214.6, change_pct: 2.1, openings_annual: 15.5 });
    expect(chief.median_wage_2024).toEqual({ value: 239200, flag: 'top_coded' });
  });
});

describe('votes and the report', () => {
  it('reads votes.csv and rejects a negative count', () => {
    expect(bundle.votes).toEqual([{ soc_code: '15-1252.00', agree: 12, too_high: 3, too_low: 1 }]);
    expect(report.problems).toContainEqual(expect.objectContaining({ file: 'votes.csv', line: 3 }));
  });

  it('lists the optional files that are absent and leaves their bundle parts empty', () => {
    expect(report.missing_optional).toEqual(
      expect.arrayContaining(['Task Ratings.txt', expect.stringMatching(/^Abilities/), expect.stringMatching(/^nat4d/)]),
    );
    expect(bundle.task_ratings).toBeNull();
    expect(bundle.abilities).toEqual([]);
  });

  it('flags the files whose reject share is over the limit', () => {
    const over = checkRejectThreshold(report).map((f) => f.path);
    expect(over).toEqual(['downloads/db_29_3_text/Task Statements.txt', 'bls/oesm24nat/national_M2024_dl.csv', 'votes.csv']);
  });
});

import { describe, expect, it } from 'vitest';
import { aeiFileInfo, NAMES } from '../../../../build/sources/catalog.ts';
import { findAll, pickOne } from '../../../../build/sources/discover.ts';
import { naicsLevel } from '../../../../build/sources/oews.ts';
import { selectFiles } from '../../../../build/sources/select.ts';

describe('file choice', () => {
  it('prefers O*NET text over xlsx and reports the passed-over copy', () => {
    const files = ['a/db_29_3_excel/Skills.xlsx', 'b/db_29_3_text/Skills.txt'];
    expect(pickOne(files, NAMES.skills)).toEqual({
      found: expect.objectContaining({ path: 'b/db_29_3_text/Skills.txt' }),
      others: ['a/db_29_3_excel/Skills.xlsx'],
    });
  });

  it('accepts the official NAICS name with spaces before the mirror rename and the CSV', () => {
    const files = ['naics/naics_2022_codes_2-6digit.csv', 'naics/2-6_digit_2022_Codes.xlsx', 'dl/2-6 digit_2022_Codes.xlsx'];
    expect(findAll(files, NAMES.naics).map((f) => f.path)).toEqual([
      'dl/2-6 digit_2022_Codes.xlsx',
      'naics/2-6_digit_2022_Codes.xlsx',
      'naics/naics_2022_codes_2-6digit.csv',
    ]);
  });

  it('falls back to the derived O*NET 30.0 table only when no official Abilities file exists', () => {
    expect(pickOne(['onet/derived/ONET30.0_Abilities_IM_LV.derived.tsv'], NAMES.abilities)?.found.rank).toBe(2);
    expect(pickOne(['x/Abilities.txt', 'onet/derived/ONET30.0_Abilities_IM_LV.derived.tsv'], NAMES.abilities)?.found.path).toBe(
      'x/Abilities.txt',
    );
  });
});

describe('AEI file names', () => {
  it('takes the release from the mirror prefix, a release_ folder, or the official default', () => {
    expect(aeiFileInfo('exposure/aei_2025_03_27_task_pct_v2.csv')).toEqual({ kind: 'usage', release: '2025-03-27', platform: 'claude_ai' });
    expect(aeiFileInfo('hf/release_2025_02_10/onet_task_mappings.csv')?.release).toBe('2025-02-10');
    expect(aeiFileInfo('onet_task_mappings.csv')?.release).toBe('2025-02-10');
    expect(aeiFileInfo('automation_vs_augmentation_by_task.csv')).toEqual({
      kind: 'collaboration',
      release: '2025-03-27',
      platform: 'claude_ai',
    });
    expect(aeiFileInfo('x/aei_2026_03_24_derived_task_pct_1p_api.csv')).toEqual({ kind: 'usage', release: '2026-03-24', platform: 'api' });
    expect(aeiFileInfo('x/aei_2025_02_10_automation_vs_augmentation.csv')).toBeNull();
  });
});

describe('naicsLevel', () => {
  it('uses I_GROUP first, since a 6-digit code may end in 0', () => {
    expect(naicsLevel('541110', '6-digit', 'nat5d_6d')).toBe(6);
    expect(naicsLevel('237130', '5-digit', 'nat5d_6d')).toBe(5);
    expect(naicsLevel('31', 'sector', 'natsector')).toBe(2);
  });

  it('falls back to significant digits without I_GROUP', () => {
    expect(naicsLevel('113000', '', 'nat3d')).toBe(3);
    expect(naicsLevel('511100', '', 'nat4d')).toBe(4);
    expect(naicsLevel('221111', '', 'nat5d_6d')).toBe(6);
  });
});

describe('selectFiles', () => {
  // A fresh download as build/fetch lays it out: data/raw/<source id>/<official name>.
  const download = [
    'aei-2025-02-10/onet_task_mappings.csv',
    'aei-2025-03-27/task_pct_v2.csv',
    'aei-2025-03-27/automation_vs_augmentation_by_task.csv',
    'census-naics-2022/2-6 digit_2022_Codes.xlsx',
    'eloundou-2023/full_labelset.tsv',
    'oews-industry-2024/oesm24in4/natsector_M2024_dl.xlsx',
    'oews-industry-2024/oesm24in4/nat3d_M2024_dl.xlsx',
    'oews-national-2024/oesm24nat/national_M2024_dl.xlsx',
    'oews-national-2025/oesm25nat/national_M2025_dl.xlsx',
    ...['Occupation Data', 'Job Zones', 'Task Statements', 'Tasks to DWAs', 'DWA Reference', 'Skills', 'Knowledge', 'Alternate Titles', 'Sample of Reported Titles', 'Related Occupations'].map(
      (n) => `onet-db-text/db_29_3_text/${n}.txt`,
    ),
  ].sort();

  it('finds every required source of a fresh download and lists what is absent', () => {
    const s = selectFiles(download);
    expect(s.missingRequired).toEqual([]);
    expect(s.national.map((n) => [n.year, n.found.path])).toEqual([
      ['2025', 'oews-national-2025/oesm25nat/national_M2025_dl.xlsx'],
      ['2024', 'oews-national-2024/oesm24nat/national_M2024_dl.xlsx'],
    ]);
    expect([...s.industry.keys()]).toEqual(['natsector', 'nat3d']);
    expect(s.aei.map((a) => `${a.kind} ${a.release} ${a.platform}`)).toEqual([
      'usage 2025-02-10 claude_ai',
      'collaboration 2025-03-27 claude_ai',
      'usage 2025-03-27 claude_ai',
    ]);
    expect(s.missingOptional).toEqual(
      expect.arrayContaining(['Task Ratings.txt', 'votes.csv', expect.stringMatching(/^nat4d/), expect.stringMatching(/^nat5d_6d/)]),
    );
  });

  it('names every required source that is missing', () => {
    const s = selectFiles(download.filter((f) => !/Skills|natsector|national_M/.test(f)));
    expect(s.missingRequired).toEqual([
      'Skills.txt/.xlsx',
      'national_M<year>_dl.xlsx (OEWS national)',
      'natsector_M<year>_dl.xlsx (OEWS industry)',
    ]);
  });
});

describe('one O*NET release', () => {
  const REQUIRED = ['Occupation Data', 'Job Zones', 'Task Statements', 'Tasks to DWAs', 'DWA Reference', 'Skills', 'Knowledge', 'Alternate Titles', 'Sample of Reported Titles', 'Related Occupations'];
  const release = (folder: string, ext: string, names = REQUIRED) => names.map((n) => `onet/${folder}/${n}.${ext}`);

  it('reads the calibration release (29.3) when complete, and reports a newer one as not used', () => {
    const files = [...release('db_29_3_text', 'txt'), ...release('db_30_1_excel', 'xlsx'), 'onet/db_30_1_excel/Read Me.txt', 'onet/db_29_3_text/Read Me.txt'].sort();
    const s = selectFiles(files);
    expect(s.onet).toEqual({ release: '29.3', others: ['30.1'], note: null });
    expect(s.picked.skills?.found.path).toBe('onet/db_29_3_text/Skills.txt');
    expect(s.picked.skills?.others).toEqual(['onet/db_30_1_excel/Skills.xlsx (O*NET 30.1)']);
    expect(s.picked.readMe?.found.path).toBe('onet/db_29_3_text/Read Me.txt');
    expect(s.choices[0]).toBe('O*NET: release 29.3; also found, not used: O*NET 30.1');
  });

  it('a release split over its text and Excel folders counts as one release', () => {
    const text = release('db_29_3_text', 'txt', REQUIRED.filter((n) => n !== 'Skills'));
    const files = [...text, 'onet/db_29_3_excel/Skills.xlsx', ...release('db_30_1_excel', 'xlsx')].sort();
    const s = selectFiles(files);
    expect(s.onet.release).toBe('29.3');
    expect(s.picked.skills?.found.path).toBe('onet/db_29_3_excel/Skills.xlsx');
  });

  it('without a complete 29.3 the newest complete release is read, and the report says so', () => {
    const files = [...release('db_29_3_text', 'txt', ['Occupation Data']), ...release('db_30_1_excel', 'xlsx')].sort();
    const s = selectFiles(files);
    expect(s.onet.release).toBe('30.1');
    expect(s.onet.note).toBe('the model is calibrated on O*NET 29.3, which is not complete here; using 30.1');
    expect(s.picked.occupations?.found.path).toBe('onet/db_30_1_excel/Occupation Data.xlsx');
    // Only the non-O*NET sources (not in this list) are missing.
    expect(s.missingRequired.join('; ')).not.toMatch(/Occupation|Skills|Task|Knowledge|Titles|Related|Zones|DWA/);
  });

  it('files outside any release folder are taken as they are', () => {
    const s = selectFiles(REQUIRED.map((n) => `flat/${n}.txt`));
    expect(s.onet.release).toBeNull();
    expect(s.picked.tasks?.found.path).toBe('flat/Task Statements.txt');
  });
});

describe('newest release of a year-bearing name', () => {
  it('prefers the newer Employment Projections and NAICS files over older ones beside them', () => {
    expect(findAll(['ep/ep_occupation_2023-33.xlsx', 'ep/ep_occupation_2024-34.xlsx'], NAMES.projections)[0]?.path).toBe('ep/ep_occupation_2024-34.xlsx');
    expect(findAll(['n/2-6 digit_2017_Codes.xlsx', 'n/2-6 digit_2022_Codes.xlsx'], NAMES.naics)[0]?.path).toBe('n/2-6 digit_2022_Codes.xlsx');
  });
});

describe('model 2 sources', () => {
  const base = [
    ...['Occupation Data', 'Job Zones', 'Task Statements', 'Tasks to DWAs', 'DWA Reference', 'Skills', 'Knowledge', 'Alternate Titles', 'Sample of Reported Titles', 'Related Occupations'].map(
      (n) => `onet/db_29_3_text/${n}.txt`,
    ),
    'onet/db_29_3_excel/Education, Training, and Experience.xlsx',
    'onet/db_30_1_excel/Skills.xlsx',
    'onet/db_30_1_excel/Education, Training, and Experience.xlsx',
    'onet/db_28_1_excel/Skills.xlsx',
    'onet/derived/msft_working_with_ai_soc_iwa_weights.csv',
  ].sort();

  it('reads Education from the chosen release and Skills fill from the newest newer one, named in the choices', () => {
    const s = selectFiles(base);
    expect(s.onet.release).toBe('29.3');
    expect(s.picked.education!.found.path).toBe('onet/db_29_3_excel/Education, Training, and Experience.xlsx');
    expect(s.picked.skills!.found.path).toBe('onet/db_29_3_text/Skills.txt');
    expect(s.skillsFill).toMatchObject({ release: '30.1', found: { path: 'onet/db_30_1_excel/Skills.xlsx' } });
    expect(s.picked.iwaWeights!.found.path).toBe('onet/derived/msft_working_with_ai_soc_iwa_weights.csv');
    expect(s.choices).toContain('O*NET Skills fill: release 30.1 (onet/db_30_1_excel/Skills.xlsx), only for occupations release 29.3 does not rate');
  });

  it('has no Skills fill without a newer release, and says so', () => {
    const s = selectFiles(base.filter((f) => !f.includes('30_1')));
    expect(s.skillsFill).toBeNull();
    expect(s.missingOptional).toContain('Skills.txt/.xlsx of an O*NET release newer than 29.3 (fills unrated occupations)');
  });
});

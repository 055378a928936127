// ILO 2025 scores as a validation reference: the ISCO-08 -> SOC 2010 -> SOC 2018 rule on a
// hand-written crosswalk, and the loader on files written at test time (an xlsx like the ILO
// file, an .xls like the BLS crosswalk, both with title rows above the header).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AEI_NAMES, NAMES, OEWS_INDUSTRY, OEWS_NATIONAL } from '../../../../build/sources/catalog.ts';
import { findAll } from '../../../../build/sources/discover.ts';
import { iloToSoc2018 } from '../../../../build/validation/ilo.ts';
import { emptyIlo, type IloRefs } from '../../../../build/validation/refs.ts';
import { loadIlo } from '../../../../build/validation/load.ts';
import { formatIlo } from '../../../../build/validation/outcomes.ts';
import { writeXlsBytes } from '../sources/helpers/make-xls.ts';
import { writeXlsx } from '../../../support/make-xlsx.ts';

const refs = (scores: Record<string, number>, links: Array<[string, string]>): IloRefs => ({
  ...emptyIlo(''),
  unavailable: null,
  scores: new Map(Object.entries(scores)),
  links: links.map(([isco, soc2010]) => ({ isco, soc2010 })),
});

describe('ILO 2025 scores on SOC 2018 codes', () => {
  it('averages the ISCO-08 codes of a SOC 2010 code without weights, then SOC 2010 parents', () => {
    const m = iloToSoc2018(
      refs({ '4132': 0.7, '4131': 0.6, '2512': 0.4, '2513': 0.2, '9112': 0.1 }, [
        ['4132', '43-9021'], // one ISCO code
        ['4131', '43-9022'],
        ['4132', '43-9022'], // two ISCO codes: (0.6 + 0.7) / 2
        ['2512', '15-1132'],
        ['2513', '15-1132'], // (0.4 + 0.2) / 2 = 0.3
        ['2512', '15-1133'], // 0.4
        ['0110', '55-1011'], // ISCO code without an ILO score: no link
      ]),
      [
        { soc2010: '43-9021', soc2018: '43-9021' },
        { soc2010: '43-9022', soc2018: '43-9022' },
        { soc2010: '15-1132', soc2018: '15-1252' },
        { soc2010: '15-1133', soc2018: '15-1252' }, // merge: (0.3 + 0.4) / 2
        { soc2010: '55-1011', soc2018: '55-1011' },
      ],
    );
    expect([...m.values].sort()).toEqual([['15-1252', 0.35], ['43-9021', 0.7], ['43-9022', 0.65]].map(([k, v]) => [k, expect.closeTo(v as number, 12)]));
    // Only 43-9021 traces back to a single ISCO-08 code.
    expect([...m.single.keys()]).toEqual(['43-9021']);
    expect(m.counts).toEqual({ isco_scored: 5, minor_group_links: 0, isco_linked: 4, isco_unlinked: 1, soc2010_reached: 4, soc2018_reached: 3, soc2018_single_isco: 1 });
  });

  it('reads a link to a 3-digit minor group as its scored unit groups', () => {
    const m = iloToSoc2018(refs({ '2111': 0.2, '2113': 0.4, '2121': 0.9 }, [['211', '19-2099']]), [{ soc2010: '19-2099', soc2018: '19-2099' }]);
    expect(m.values.get('19-2099')).toBeCloseTo(0.3, 12);
    expect(m.single.size).toBe(0);
    expect(m.counts.minor_group_links).toBe(1);
  });

  it('says why when no comparison is possible', () => {
    expect(formatIlo({ unavailable: 'not found: isco_soc_crosswalk.xls', counts: null, our_codes: 10, matched: 0, unmatched: [], max_within_code_spread: 0, rows_skipped: 0 })).toMatch(
      /not possible: not found: isco_soc_crosswalk\.xls/,
    );
  });
});

describe('the build never reads the ILO scores', () => {
  it('has no source name pattern that matches them; the BLS crosswalk is a source (it carries the scores to ISCO-08)', () => {
    const patterns = [...Object.values(NAMES).flat(), OEWS_NATIONAL, OEWS_INDUSTRY, ...AEI_NAMES.map((a) => a.pattern)];
    expect(findAll(['validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx'], patterns)).toEqual([]);
    // The check can fail: the crosswalk beside it is found.
    expect(findAll(['bls/isco_soc_crosswalk.xls'], patterns).map((f) => f.path)).toEqual(['bls/isco_soc_crosswalk.xls']);
  });
});

describe('loadIlo', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'odr-ilo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const HEAD = ['label4d', 'ISCO_08', 'Title', 'taskID', 'score_2025', 'mean_score_2025'];
  const writeFiles = () => {
    mkdirSync(path.join(dir, 'validation'), { recursive: true });
    mkdirSync(path.join(dir, 'bls'), { recursive: true });
    writeXlsx(path.join(dir, 'validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx'), [
      {
        name: 'Sheet1',
        rows: [
          HEAD,
          ['4132 - Data entry clerks', '4132', 'Data entry clerks', 1, 0.8, 0.7],
          ['4132 - Data entry clerks', '4132', 'Data entry clerks', 2, 0.6, 0.7],
          ['0110 - Officers', '0110', 'Commissioned armed forces officers', 1, 0.1, 0.1],
          ['bad', 'n/a', 'no code', 1, 0.5, 0.5],
        ],
      },
    ]);
    const title = [['Bureau of Labor Statistics'], [null], ['ISCO-08 Code', 'ISCO-08 Title EN', 'part', '2010 SOC Code', '2010 SOC Title']];
    writeFileSync(
      path.join(dir, 'bls/isco_soc_crosswalk.xls'),
      writeXlsBytes([
        { name: 'ISCO-08 to 2010 SOC', rows: [...title, ['0110', 'Officers', '*', '55-1011', 'Air Crew Officers'], ['4132', 'Data entry clerks', null, '43-9021', 'Data Entry Keyers'], ['211', 'Physical scientists', null, '19-2099', 'Physical Scientists, All Other']] },
        { name: '2010 SOC to ISCO-08', rows: [['2010 SOC Code', '2010 SOC Title', 'part', 'ISCO-08 Code'], ['43-9021', 'Data Entry Keyers', null, '4132']] },
      ]),
    );
  };

  it('reads scores per ISCO-08 code and the ISCO -> SOC sheet, counting what it skips', async () => {
    writeFiles();
    const all = ['validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx', 'bls/isco_soc_crosswalk.xls'];
    const ilo = await loadIlo(dir, all);
    expect(ilo.unavailable).toBeNull();
    expect([...ilo.scores].sort()).toEqual([['0110', 0.1], ['4132', 0.7]]);
    expect(ilo.links).toEqual([{ isco: '0110', soc2010: '55-1011' }, { isco: '4132', soc2010: '43-9021' }, { isco: '211', soc2010: '19-2099' }]);
    expect(ilo.rows_skipped).toBe(1);
    expect(ilo.max_within_code_spread).toBe(0);
    expect(ilo.files).toEqual(all);
  });

  it('reports a missing or unreadable file instead of comparing', async () => {
    writeFiles();
    expect((await loadIlo(dir, ['validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx'])).unavailable).toBe('not found: isco_soc_crosswalk.xls');
    writeFileSync(path.join(dir, 'bls/isco_soc_crosswalk.xls'), 'ISCO-08 Code,2010 SOC Code\n4132,43-9021\n'.repeat(30));
    const bad = await loadIlo(dir, ['validation/Final_Scores_ISCO08_Gmyrek_et_al_2025.xlsx', 'bls/isco_soc_crosswalk.xls']);
    expect(bad.unavailable).toMatch(/isco_soc_crosswalk\.xls: not an OLE2 compound file/);
    expect(bad.scores.size).toBe(0);
  });
});

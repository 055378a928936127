// The ISCO-08 crosswalk loaders (build/sources/isco.ts): the BLS .xls layout (title lines above
// the header, two sheets, the "part" marker, 3-digit rows), written at test time by the independent
// .xls writer, and the SOC 2010 -> 2018 crosswalk. Bad rows are rejected with their line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ISCO_SOC_COLUMNS, ISCO_SOC_SHEET, parseIscoLinks, parseSocCrosswalk } from '../../../../build/sources/isco.ts';
import { readTable } from '../../../../build/sources/read-table.ts';
import { FileLog } from '../../../../build/sources/rows.ts';
import { parseDelimited } from '../../../../build/sources/table.ts';
import { writeXlsBytes } from './helpers/make-xls.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'isco-src-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = ['ISCO-08 Code', 'ISCO-08 Title EN', 'part', '2010 SOC Code', '2010 SOC Title', 'Comment 8/17/11'];
const xls = writeXlsBytes([
  // The reverse sheet comes first in this test: the loader must pick its sheet by name.
  { name: '2010 SOC to ISCO-08', rows: [['2010 SOC Code', '2010 SOC Title', 'part', 'ISCO-08 Code', 'ISCO-08 Title EN'], ['15-1132', 'Software Developers, Applications', null, '2512', 'Software developers']] },
  {
    name: ISCO_SOC_SHEET,
    rows: [
      ['Bureau of Labor Statistics', null, null, null, null, null],
      [null, null, null, null, null, null],
      HEADER,
      ['2512', 'Software developers', null, '15-1132', 'Software Developers, Applications', null],
      ['0110', 'Commissioned armed forces officers', '*', '55-1011', 'Air Crew Officers', null],
      ['211', 'Physical and earth science professionals', null, '19-2099', 'Physical Scientists, All Other', 'matches to 3-digit ISCO'],
      ['25X2', 'Broken code', null, '15-1132', 'x', null],
      ['2512', 'Software developers', 'maybe', '15-1133', 'x', null],
    ],
  },
]);
const file = path.join(dir, 'ISCO_SOC_Crosswalk.xls');
writeFileSync(file, xls);

describe('parseIscoLinks', () => {
  it('reads the ISCO-08 -> SOC sheet of the official .xls, part markers, comments and 3-digit rows', async () => {
    const log = new FileLog('ISCO_SOC_Crosswalk.xls', 'bls/ISCO_SOC_Crosswalk.xls');
    const links = parseIscoLinks(await readTable(file, 'bls/ISCO_SOC_Crosswalk.xls', [ISCO_SOC_COLUMNS.isco, ISCO_SOC_COLUMNS.soc], ISCO_SOC_SHEET), log);
    expect(links).toEqual([
      { isco_code: '2512', isco_title: 'Software developers', soc2010: '15-1132', part: false, comment: null },
      { isco_code: '0110', isco_title: 'Commissioned armed forces officers', soc2010: '55-1011', part: true, comment: null },
      { isco_code: '211', isco_title: 'Physical and earth science professionals', soc2010: '19-2099', part: false, comment: 'matches to 3-digit ISCO' },
    ]);
    expect(log.rejected).toBe(2);
    expect(log.problems.map((p) => p.reason).join('\n')).toMatch(/not an ISCO-08 code[\s\S]*part marker/);
  });

  it('a file without the official columns stops the load, naming them', () => {
    const log = new FileLog('ISCO_SOC_Crosswalk.xls', 'bls/ISCO_SOC_Crosswalk.xls');
    expect(() => parseIscoLinks(parseDelimited('ISCO,SOC\n2512,15-1132\n', ','), log)).toThrow(/"ISCO-08 Code"/);
  });
});

describe('parseSocCrosswalk', () => {
  it('reads 2010 -> 2018 pairs, splits and merges alike, and rejects a malformed code', () => {
    const log = new FileLog('soc_2010_to_2018_crosswalk.csv', 'bls/soc_2010_to_2018_crosswalk.csv');
    const text = '2010 SOC Code,2010 SOC Title,2018 SOC Code,2018 SOC Title\n15-1132,A,15-1252,B\n15-1132,A,15-1253,C\n15-113,bad,15-1254,D\n';
    expect(parseSocCrosswalk(parseDelimited(text, ','), log)).toEqual([
      { soc2010: '15-1132', soc2018: '15-1252' },
      { soc2010: '15-1132', soc2018: '15-1253' },
    ]);
    expect(log.rejected).toBe(1);
  });
});

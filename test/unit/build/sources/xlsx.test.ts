// The xlsx path: tiny workbooks written at test time (test/support/make-xlsx.ts) into a copy of the
// mini fixture tree, next to the CSV / text forms they must win over.
import { unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelInputs } from '../../../../build/model/inputs.ts';
import type { SourceReport } from '../../../../build/sources/report.ts';
import { loadSources, SourceError } from '../../../../build/sources/index.ts';
import { readTable } from '../../../../build/sources/read-table.ts';
import readXlsxFile from 'read-excel-file/node';
import { cellToString } from '../../../../build/sources/table.ts';
import { readXlsx, type Workbook } from '../../../../build/sources/xlsx-read.ts';
import { writeWorkbookParts, writeXlsx, type XlsxCell } from '../../../support/make-xlsx.ts';
import { copyMini } from './helpers/paths.ts';

const NATIONAL_HEADER = ['AREA', 'AREA_TITLE', 'NAICS', 'OWN_CODE', 'OCC_CODE', 'OCC_TITLE', 'O_GROUP', 'TOT_EMP', 'H_MEAN', 'A_MEAN', 'H_MEDIAN', 'A_MEDIAN', 'ANNUAL', 'HOURLY'];
const SKILLS_HEADER = ['O*NET-SOC Code', 'Title', 'Element ID', 'Element Name', 'Scale ID', 'Scale Name', 'Data Value', 'N', 'Standard Error', 'Lower CI Bound', 'Upper CI Bound', 'Recommend Suppress', 'Not Relevant', 'Date', 'Domain Source'];

let mini: ReturnType<typeof copyMini>;
let bundle: ModelInputs;
let report: SourceReport;

beforeAll(async () => {
  mini = copyMini();
  const national = (rows: XlsxCell[][]) => [{ name: 'national_dl', rows: [NATIONAL_HEADER, ...rows] }, { name: 'Field Descriptions', rows: [['Field', 'Field Description']] }];
  // Same year as the CSV already in the tree, different numbers: the xlsx must be the one read.
  writeXlsx(path.join(mini.dir, 'bls/oesm24nat/national_M2024_dl.xlsx'), national([
    ['99', 'U.S.', '000000', '1235', '15-1252', 'Software Developers', 'detailed', 1111, 70, 145000, 65, 133000, null, null],
  ]));
  writeXlsx(path.join(mini.dir, 'fresh/oesm25nat/national_M2025_dl.xlsx'), national([
    ['99', 'U.S.', '000000', '1235', '11-1011', 'Chief Executives', 'detailed', 211230, 126.39, 262930, '#', '#', null, null],
    ['99', 'U.S.', '000000', '1235', '27-2011', 'Actors', 'detailed', '**', 27.73, '*', 25.1, '*', null, 'TRUE'],
  ]));
  // Skills only as xlsx (as in the mirror); numbers arrive as numbers and must survive as such.
  unlinkSync(path.join(mini.dir, 'downloads/db_29_3_text/Skills.txt'));
  writeXlsx(path.join(mini.dir, 'downloads/db_29_3_excel/Skills.xlsx'), [
    {
      name: 'Skills',
      rows: [
        SKILLS_HEADER,
        ['15-1252.00', 'Software Developers', '2.A.1.a', 'Reading Comprehension', 'IM', 'Importance', 4.12, 8, 0.125, 3.88, 4.37, 'N', null, '08/2023', 'Analyst'],
        ['15-1252.00', 'Software Developers', '2.A.1.a', 'Reading Comprehension', 'LV', 'Level', 4.62, 8, 0.183, 4.2664, 4.9836, 'N', 'N', '08/2023', 'Analyst'],
        ['15-1252.00', 'Software Developers', '2.A.1.b', 'Active Listening', 'IM', 'Importance', 'high', 8, 0.1, 3, 4, 'N', null, '08/2023', 'Analyst'],
      ],
    },
  ]);
  // EP workbook: several sheets, a title row above the header, footnotes below the data.
  writeXlsx(path.join(mini.dir, 'bls/ep/occupation.xlsx'), [
    { name: 'Index', rows: [['Table 1.1'], ['Table 1.2'], ['Table 1.12']] },
    {
      name: 'Table 1.2',
      rows: [
        ['Table 1.2 Occupational projections, 2024–2034 (Employment in thousands)'],
        ['2024 National Employment Matrix title', '2024 National Employment Matrix code', 'Occupation type', 'Employment, 2024', 'Employment, 2034', 'Employment change, percent, 2024–34', 'Occupational openings, 2024–34 annual average', 'Median annual wage, dollars, 2024[1]'],
        ['Software developers', '15-1252', 'Line item', 1654.3, 1907.6, 15.3, 115.2, 133080],
        ['Actors', '27-2011', 'Line item', 71.9, 73.4, 2.1, 9.4, '—'],
        ['Footnotes:'],
        ['[1] Data are from the Occupational Employment and Wage Statistics program.'],
      ],
    },
    {
      // As BLS ships it: codes as text, a title row above the header, a source line below the data.
      name: 'Table 1.12',
      rows: [
        ['Table 1.12 Factors affecting occupational utilization, projected 2024–34', null, null, null, null],
        ['2024 National Employment Matrix occupation title', '2024 National Employment Matrix occupation code', '2024 National Employment Matrix industry title', '2024 National Employment Matrix industry code', 'Factors affecting occupational utilization'],
        ['Software developers', '15-1252', 'Total, all industries', 'TE1000', 'Productivity change - share decreases as code-generation tools let fewer software developers produce the same software.'],
        ['Actors', '27-2011', 'Motion picture and video industries', '512100', 'Demand change - share increases as streaming services commission more original series.'],
        ['Source: Employment Projections program, U.S. Bureau of Labor Statistics', null, null, null, null],
      ],
    },
  ]);
  ({ bundle, report } = await loadSources(mini.dir));
});

afterAll(() => mini.cleanup());

describe('xlsx sources', () => {
  it('prefers the official xlsx over the CSV conversion and orders periods newest first', () => {
    expect(bundle.oews_national.map((n) => n.period)).toEqual(['May 2025', 'May 2024']);
    expect(bundle.oews_national[1]!.rows).toEqual([expect.objectContaining({ occ_code: '15-1252', tot_emp: 1111 })]);
    const used = report.files.find((f) => f.path === 'bls/oesm24nat/national_M2024_dl.xlsx');
    expect(used?.notes).toContain('also found, not used: bls/oesm24nat/national_M2024_dl.csv');
  });

  it('reads BLS markers from xlsx text cells', () => {
    const [chief, actors] = bundle.oews_national[0]!.rows;
    expect(chief).toMatchObject({ a_median: { value: null, flag: 'top_coded' }, h_median: { value: null, flag: 'top_coded' } });
    expect(actors).toMatchObject({ tot_emp: null, a_mean: { value: null, flag: 'not_available' }, hourly_only: true });
  });

  it('merges xlsx Skills rows and rejects a text value with its sheet row', () => {
    expect(bundle.skills).toEqual([
      {
        soc_code: '15-1252.00',
        element_id: '2.A.1.a',
        element_name: 'Reading Comprehension',
        importance: 4.12,
        level: 4.62,
        not_relevant: false,
        recommend_suppress: false,
      },
    ]);
    expect(report.problems).toContainEqual({
      file: 'downloads/db_29_3_excel/Skills.xlsx',
      line: 4,
      reason: 'Data Value: is not a number (got "high")',
      code: '15-1252.00',
      title: 'Software Developers',
    });
  });

  it('reads EP Table 1.2 below its title row and skips the footnotes', () => {
    expect(bundle.projections).toEqual([
      {
        soc: '15-1252',
        title: 'Software developers',
        occupation_type: 'Line item',
        employment_2024: 1654.3,
        employment_2034: 1907.6,
        change_pct: 15.3,
        openings_annual: 115.2,
        median_wage_2024: { value: 133080, flag: null },
        entry_education: null,
        related_experience: null,
        on_the_job_training: null,
      },
      {
        soc: '27-2011',
        title: 'Actors',
        occupation_type: 'Line item',
        employment_2024: 71.9,
        employment_2034: 73.4,
        change_pct: 2.1,
        openings_annual: 9.4,
        median_wage_2024: { value: null, flag: 'not_available' },
        entry_education: null,
        related_experience: null,
        on_the_job_training: null,
      },
    ]);
    expect(report.files.find((f) => f.path === 'bls/ep/occupation.xlsx')?.notes).toContain('3 title/footnote rows skipped');
  });

  it('reads EP Table 1.12 from its sheet of the same workbook, below its title row and above its source line', () => {
    expect(bundle.ep_factors).toEqual([
      {
        soc: '15-1252',
        title: 'Software developers',
        industry_title: 'Total, all industries',
        industry_code: 'TE1000',
        statement: 'Productivity change - share decreases as code-generation tools let fewer software developers produce the same software.',
        direction: 'decreases',
      },
      {
        soc: '27-2011',
        title: 'Actors',
        industry_title: 'Motion picture and video industries',
        industry_code: '512100',
        statement: 'Demand change - share increases as streaming services commission more original series.',
        direction: 'increases',
      },
    ]);
  });

  it('numbers xlsx rows as sheet rows', async () => {
    const table = await readTable(path.join(mini.dir, 'bls/ep/occupation.xlsx'), 'occupation.xlsx', ['Occupation type'], 'Table 1.2');
    expect([...table.rows].map((r) => r.line)).toEqual([3, 4]);
  });
});

describe('xlsx reader', () => {
  // read-excel-file is the reference: on every workbook here our reader must give the same cells.
  const same = async (file: string) => {
    const ours = await readXlsx(file);
    const ref = (await readXlsxFile(file)) as unknown as Workbook;
    expect(ours.map((s) => s.sheet)).toEqual(ref.map((s) => s.sheet));
    ours.forEach((s, i) => expect(s.data.map((r) => r.map(cellToString)), s.sheet).toEqual(ref[i]!.data.map((r) => r.map(cellToString))));
    return ours;
  };

  it('reads the fixture workbooks exactly as read-excel-file does', async () => {
    const book = await same(path.join(mini.dir, 'bls/ep/occupation.xlsx'));
    expect(book.map((s) => s.sheet)).toEqual(['Index', 'Table 1.2', 'Table 1.12']);
    await same(path.join(mini.dir, 'bls/oesm24nat/national_M2024_dl.xlsx'));
  });

  it('reads shared and rich strings, entities, booleans, gaps, blanks and date-formatted numbers', async () => {
    const file = path.join(mini.dir, 'odd.xlsx');
    writeWorkbookParts(file, {
      sharedStrings: '<sst><si><t xml:space="preserve">  padded &amp; &lt;odd&gt; </t></si><si><r><t>rich</t></r><r><rPr><b/></rPr><t> text</t></r></si><si><t>   </t></si></sst>',
      styles: '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>',
      sheet:
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row>' +
        '<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" s="1"><v>45000</v></c><c r="C3" s="2"><v>45001.5</v></c><c r="D3" t="s"><v>2</v></c></row>' +
        '<row r="4"><c r="B4"><v>4.2664</v></c><c r="C4" t="str"><v>formula &quot;result&quot;</v></c></row><row r="5"/></sheetData>',
    });
    const [sheet] = await same(file);
    expect(sheet!.data.map((r) => r.map(cellToString))).toEqual([
      ['padded & <odd>', '', 'rich text'],
      ['', '', ''],
      ['TRUE', '2023-03-15', '2023-03-16'],
      ['', '4.2664', 'formula "result"'],
    ]);
  });

  it('reports a worksheet damaged past its header as an unreadable file, though rows are read as they are parsed', async () => {
    const file = path.join(mini.dir, 'damaged.xlsx');
    writeWorkbookParts(file, {
      sharedStrings: '<sst><si><t>code</t></si><si><t>name</t></si></sst>',
      styles: '<styleSheet><cellXfs count="1"><xf numFmtId="0"/></cellXfs></styleSheet>',
      sheet: '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></sheetData>',
    });
    const table = await readTable(file, 'x/damaged.xlsx', ['code']);
    expect(table.header).toEqual(['code', 'name']);
    let error: unknown;
    try {
      for (const _row of table.rows);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/^x\/damaged\.xlsx: not a readable xlsx workbook \(unterminated <row>/);
  });
});

// OEWS national files in every official header layout, and which years the build reads: the
// model's years only, so an older (or broken) year beside them can never fail the build.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSources } from '../../../../build/sources/index.ts';
import { parseOewsNational } from '../../../../build/sources/oews.ts';
import { readTable } from '../../../../build/sources/read-table.ts';
import { FileLog } from '../../../../build/sources/rows.ts';
import { selectFiles } from '../../../../build/sources/select.ts';
import { writeXlsx, type XlsxCell } from '../../../support/make-xlsx.ts';
import { copyMini, repoRoot } from './helpers/paths.ts';

const layouts = path.join(repoRoot, 'test/fixtures/sources/oews-layouts');

async function parseFile(abs: string, name: string) {
  const log = new FileLog(name, name);
  const rows = parseOewsNational(await readTable(abs, name, []), log);
  return { rows, log };
}

describe('OEWS national header layouts', () => {
  it('May 2019: lower-case headers and transitional SOC codes', async () => {
    const { rows, log } = await parseFile(path.join(layouts, 'national_M2019_dl.csv'), 'national_M2019_dl.csv');
    expect(log.rejected).toBe(0);
    expect(rows.map((r) => [r.occ_code, r.o_group, r.tot_emp])).toEqual([
      ['00-0000', 'total', 1000000],
      ['15-1256', 'detailed', 4000],
      ['11-1011', 'detailed', 2000],
      ['27-2011', 'detailed', 300],
    ]);
    expect(rows[1]).toMatchObject({ a_median: { value: 104000, flag: null }, h_median: { value: 50, flag: null } });
    expect(rows[2]).toMatchObject({ a_median: { value: null, flag: 'top_coded' } });
    expect(rows[3]).toMatchObject({ a_mean: { value: null, flag: 'not_available' }, hourly_only: true });
  });

  it('May 2021 on: upper-case headers with PRIM_STATE and PCT_RPT', async () => {
    const { rows, log } = await parseFile(path.join(layouts, 'national_M2021_dl.csv'), 'national_M2021_dl.csv');
    expect(log.rejected).toBe(0);
    expect(rows.map((r) => [r.occ_code, r.tot_emp])).toEqual([
      ['00-0000', 1100000],
      ['15-1252', 4400],
      ['27-2011', null],
    ]);
  });

  it('May 2012-2018: the group column named OCC_GROUP', async () => {
    const { rows, log } = await parseFile(path.join(layouts, 'national_M2018_dl.csv'), 'national_M2018_dl.csv');
    expect(log.rejected).toBe(0);
    expect(rows.map((r) => [r.occ_code, r.o_group, r.a_median.value])).toEqual([
      ['00-0000', 'total', 38688],
      ['15-1132', 'detailed', 101920],
    ]);
  });

  it('the May 2019 layout as a workbook reads like its CSV', async () => {
    const csv = readFileSync(path.join(layouts, 'national_M2019_dl.csv'), 'utf8');
    const records = parse(csv, { relax_column_count: true }) as string[][];
    const cells: XlsxCell[][] = records.map((r) => r.map((c) => (c === '' ? null : /^-?\d+(\.\d+)?$/.test(c) && !/^0\d/.test(c) ? Number(c) : c)));
    const { dir, cleanup } = copyMini();
    try {
      const file = path.join(dir, 'national_M2019_dl.xlsx');
      writeXlsx(file, [{ name: 'national_M2019_dl', rows: cells }, { name: 'Field Descriptions', rows: [['Field', 'Field Description']] }]);
      const fromXlsx = await parseFile(file, 'national_M2019_dl.xlsx');
      const fromCsv = await parseFile(path.join(layouts, 'national_M2019_dl.csv'), 'national_M2019_dl.csv');
      expect(fromXlsx.log.rejected).toBe(0);
      expect(fromXlsx.rows).toEqual(fromCsv.rows);
    } finally {
      cleanup();
    }
  });
});

describe('OEWS years the build reads', () => {
  const national = (y: string) => [`bls/national_M${y}_dl.xlsx`, `bls/national_M${y}_dl.csv`];
  const files = [...['2019', '2021', '2022', '2023', '2024', '2025'].flatMap(national)].sort();

  it('the newest two years are the model years; older ones are history, never read', () => {
    const s = selectFiles(files);
    expect(s.national.map((n) => [n.year, n.found.path])).toEqual([
      ['2025', 'bls/national_M2025_dl.xlsx'],
      ['2024', 'bls/national_M2024_dl.xlsx'],
    ]);
    expect(s.nationalHistory.map((n) => n.year)).toEqual(['2023', '2022', '2021', '2019']);
    expect(s.choices).toContainEqual(
      'OEWS national: May 2025 (wages, employment), May 2024 (fills values May 2025 suppresses); ' +
        'also May 2023, May 2022, May 2021, May 2019 (employment by year beside the score, never in it; OEWS history for npm run validate)',
    );
  });

  const mini = copyMini();
  afterAll(() => mini.cleanup());

  it('a broken older year beside the model years does not fail the build, and is reported', async () => {
    // A May 2025 file (so May 2024 and 2025 are the model years) and an unreadable May 2019 one.
    mkdirSync(path.join(mini.dir, 'bls/oesm25nat'), { recursive: true });
    copyFileSync(path.join(layouts, 'national_M2021_dl.csv'), path.join(mini.dir, 'bls/oesm25nat/national_M2025_dl.csv'));
    mkdirSync(path.join(mini.dir, 'bls/oesm19nat'), { recursive: true });
    writeFileSync(path.join(mini.dir, 'bls/oesm19nat/national_M2019_dl.csv'), 'not,an,oews,file\n1,2,3,4\n');
    writeFileSync(path.join(mini.dir, 'bls/oesm19nat/national_M2019_dl.xlsx'), 'not a zip');
    const { bundle, report } = await loadSources(mini.dir);
    expect(bundle.oews_national.map((n) => n.period)).toEqual(['May 2025', 'May 2024']);
    expect(report.files.map((f) => f.path)).not.toContain('bls/oesm19nat/national_M2019_dl.xlsx');
    expect(report.choices.join('\n')).toContain('also May 2019 (employment by year beside the score');
    expect(report.choices.join('\n')).toContain('OEWS national May 2019 (bls/oesm19nat/national_M2019_dl.xlsx) not readable, left out of the employment evidence');
    expect(bundle.oews_history).toEqual([]);
  });
});

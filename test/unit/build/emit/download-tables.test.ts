// The one description of each table: the CSVs take their columns from it, and a field the rows
// hold that it does not describe fails the build.
import { describe, expect, it } from 'vitest';
import { checkedColumns } from '../../../../build/emit/downloads.ts';
import { DATABASE_TABLES, INDUSTRIES, OCCUPATIONS, TABLES, columnsFor } from '../../../../build/emit/download-tables.ts';
import { dataPackage, packageLicenses } from '../../../../build/emit/datapackage.ts';

describe('download tables', () => {
  it('the CSV columns are the described ones, in their order; an undescribed field is an error', () => {
    const row = { naics_code: '11', title: 'Agriculture', level: 2, employment: 1, weighted_risk_score: null, occupations_naics_level: 2, occupations_naics_codes: '11', occupation_count: 3 };
    expect(checkedColumns(INDUSTRIES, 'percentile', [row])).toEqual(INDUSTRIES.columns.map((c) => c.name));
    expect(() => checkedColumns(INDUSTRIES, 'percentile', [{ ...row, surprise: 1 }])).toThrow(/surprise not described/);
  });

  it('shape-only columns appear in their shape only', () => {
    const names = (shape: 'percentile' | 'timeline') => columnsFor(OCCUPATIONS, shape).map((c) => c.name);
    expect(names('percentile')).toContain('risk_percentile');
    expect(names('percentile')).not.toContain('displacement_year_low');
    expect(names('timeline')).toEqual(expect.arrayContaining(['displacement_year_low', 'displacement_year_high']));
  });

  it('keys name described columns and described tables', () => {
    const names = new Set(DATABASE_TABLES.map((t) => t.name));
    for (const t of DATABASE_TABLES) {
      const cols = new Set(t.columns.map((c) => c.name));
      for (const k of t.primaryKey) expect(cols.has(k), `${t.name}.${k}`).toBe(true);
      for (const fk of t.foreignKeys ?? []) {
        expect(names.has(fk.reference.resource)).toBe(true);
        for (const f of fk.fields) expect(cols.has(f)).toBe(true);
      }
    }
    for (const t of TABLES) expect(t.file).toMatch(/\.csv$/);
  });

  it('licenses: each source license named once, two where a source names two', () => {
    expect(packageLicenses('CC BY 4.0 (O*NET); compilation CC BY-SA 4.0').map((l) => l.name)).toEqual(['CC-BY-4.0', 'CC-BY-SA-4.0']);
    expect(packageLicenses('Public domain (U.S. federal government work)').map((l) => l.name)).toEqual(['other-pd']);
    const meta = { data_version: 'd', model_version: '2.0.0', build_id: '0123456789abcdef', counts: { occupations: 1 }, attribution: ['a'], sources: [{ license: 'MIT (x)', title: 't', publisher: 'p', homepage: 'h', attribution: 'a' }, { license: 'MIT (y)', title: 't', publisher: 'p', homepage: 'h', attribution: 'a' }] };
    const pkg = dataPackage(meta as never, 'percentile', []);
    expect(pkg.licenses).toEqual([{ name: 'MIT', path: 'https://opensource.org/licenses/MIT', title: 'MIT License' }]);
  });
});

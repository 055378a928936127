import { beforeAll, describe, expect, it } from 'vitest';
import { computeLabor, resolveOewsCode } from '../../../build/model/labor.ts';
import type { ModelParamsSeed } from '../../../build/model/params.ts';
import { fixtureBundle } from '../../fixtures/model/bundle.ts';
import { realSeeds } from './seeds.ts';

let p: ModelParamsSeed;
beforeAll(async () => {
  p = (await realSeeds()).params;
});

describe('OEWS code resolution', () => {
  const rows = [
    { occ_code: '21-1018', o_group: 'detailed' as const },
    { occ_code: '21-1019', o_group: 'detailed' as const },
    { occ_code: '15-125X', o_group: 'detailed' as const },
    { occ_code: '13-1020', o_group: 'detailed' as const },
  ];
  const onet = new Set(['21-1011', '21-1014', '21-1019', '15-1252', '13-1021']);
  it('matches a published detailed code directly', () => {
    expect(resolveOewsCode('21-1019', rows, onet)).toEqual({ code: '21-1019', via: 'direct' });
  });
  it('finds the OEWS aggregate in the same broad group that no O*NET occupation uses', () => {
    expect(resolveOewsCode('21-1011', rows, onet)).toEqual({ code: '21-1018', via: 'aggregate' });
    expect(resolveOewsCode('13-1021', rows, onet)).toEqual({ code: '13-1020', via: 'aggregate' });
  });
  it('matches X wildcard aggregates', () => {
    expect(resolveOewsCode('15-1252', rows, onet)).toEqual({ code: '15-125X', via: 'aggregate' });
  });
  it('returns null when nothing covers the code', () => {
    expect(resolveOewsCode('45-3031', rows, onet)).toBeNull();
  });
});

describe('wages', () => {
  it('shows the published ceiling for a top-coded median, with status top_coded', () => {
    const b = fixtureBundle();
    const l = computeLabor(['11-1111.00', '11-1111.01', '22-2222.00'], b.oews_national, b.projections, p);
    const clerk = l.data.get('11-1111.00')!;
    expect(clerk.median_annual_wage).toBe(239200);
    expect(clerk.median_annual_wage_status).toBe('top_coded');
    expect(clerk.median_hourly_wage).toBe(115);
    expect(clerk.oews_code).toBe('11-1110');
    expect(clerk.employment).toBe(1000);
  });

  it('falls back to hourly x 2080 when only the hourly median is published', () => {
    const b = fixtureBundle();
    const l = computeLabor(['22-2222.00'], b.oews_national, b.projections, p);
    const fixer = l.data.get('22-2222.00')!;
    expect(fixer.median_annual_wage).toBe(20 * 2080);
    expect(fixer.median_annual_wage_status).toBe('from_hourly');
    expect(fixer.projected_employment_change_pct).toBe(-3.2);
    expect(fixer.projected_openings_annual).toBe(300); // 0.3 thousand
  });

  it('uses the projections table wage, else reports unavailable', () => {
    const b = fixtureBundle();
    const proj = [{ ...b.projections[0]!, soc: '99-9999' }];
    const l = computeLabor(['99-9999.00', '98-9999.00'], b.oews_national, proj, p);
    expect(l.data.get('99-9999.00')).toMatchObject({ median_annual_wage: 41000, median_annual_wage_status: 'projections_table' });
    expect(l.data.get('98-9999.00')).toMatchObject({ median_annual_wage: null, median_annual_wage_status: 'unavailable' });
    expect(l.report.wage_unavailable).toBe(1);
    expect(l.report.oews_unmatched).toBe(2);
  });
});

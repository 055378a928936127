import { describe, expect, it } from 'vitest';
import { MODEL_VERSION } from '../../../build/model/version.ts';
import { responseSchemas } from '../../../build/contract/response-schemas.ts';
import * as present from '../../../build/contract/present.ts';
import { fixtureModel } from '../../fixtures/serving/model.ts';
import { versioned } from '../../../build/model/version.ts';

const { model } = fixtureModel();
const occ = model.occupations[0]!;

describe('present per shape', () => {
  it('percentile carries risk_percentile and no years', () => {
    const d = present.occupationDetail(occ, 'percentile');
    expect(d.risk_score).toHaveProperty('risk_percentile', occ.risk_score.risk_percentile);
    expect(d.risk_score).not.toHaveProperty('displacement_year_low');
    expect(responseSchemas('percentile').occupationDetail.parse(versioned(d))).toBeTruthy();
    expect(() => responseSchemas('timeline').occupationDetail.parse(versioned(d))).toThrow();
  });
  it('timeline carries the years and no percentile', () => {
    const r = present.occupationRisk(occ, 'timeline');
    expect(r.risk_score).toMatchObject({ displacement_year_low: 2030, displacement_year_high: 2035 });
    expect(r.risk_score).not.toHaveProperty('risk_percentile');
    expect(responseSchemas('timeline').occupationRisk.parse(versioned(r))).toBeTruthy();
  });
  it('a list page joined from serialized items is byte-identical to serializing the page', () => {
    const items = model.occupations.map(present.listItem);
    for (const [from, to, count, limit, offset] of [[0, items.length, items.length, 50, 0], [1, 2, 7, 1, 1], [0, 0, 0, 20, 40]] as const) {
      const page = items.slice(from, to);
      expect(present.listPageJson(page.map((i) => JSON.stringify(i)), count, limit, offset)).toBe(JSON.stringify(present.listPage(page, count, limit, offset)));
    }
    const some = items.slice(0, 2);
    const notScored = [{ soc_code: '55-3016.00', title: 'Infantry', reason: 'No task statements in O*NET 29.3.' }];
    // No match (both notes, empty or not), and matches beside the unscored occupations q names.
    for (const [data, notes] of [[[], { suggestions: some, not_scored: notScored }], [[], { suggestions: [], not_scored: [] }], [some, { not_scored: notScored }]] as const) {
      const json = { ...(notes.suggestions ? { suggestions: notes.suggestions.map((i) => JSON.stringify(i)) } : {}), not_scored: notes.not_scored.map((i) => JSON.stringify(i)) };
      const page = present.listPage([...data], data.length, 50, 0, { ...notes, suggestions: notes.suggestions && [...notes.suggestions], not_scored: [...notes.not_scored] });
      expect(present.listPageJson(data.map((i) => JSON.stringify(i)), data.length, 50, 0, json)).toBe(JSON.stringify(page));
      expect(responseSchemas('percentile').occupationList.parse(page)).toBeTruthy();
    }
    expect(Object.keys(present.listPage(some, 2, 50, 0, { not_scored: notScored }))).toEqual(['data', 'count', 'limit', 'offset', 'not_scored', 'model_version']);
  });
  it('a list page ends with the model version, and the record cuts do not carry it (downloads reuse them)', () => {
    expect(Object.keys(present.listPage([], 0, 50, 0)).at(-1)).toBe('model_version');
    expect(present.listPage([], 0, 50, 0).model_version).toBe(MODEL_VERSION);
    expect(present.occupationDetail(occ, 'percentile')).not.toHaveProperty('model_version');
    expect(() => responseSchemas('percentile').occupationDetail.parse(present.occupationDetail(occ, 'percentile'))).toThrow();
  });
  it('list items carry exactly the list fields', () => {
    expect(Object.keys(present.listItem(occ))).toEqual(['id', 'soc_code', 'title', 'slug', 'job_zone', 'description', 'final_score', 'risk_tier', 'major_group']);
  });
  it('tasks and industries validate', () => {
    expect(responseSchemas('percentile').occupationTasks.parse(versioned(present.occupationTasks(occ))).tasks[0]).toMatchObject({ task_category: 'non_routine_analytical', time_fraction: 1 });
    const list = present.industryList(model.industries.map(present.industryListItem), 3);
    expect(list).toEqual({ data: [{ id: 541, naics_code: '541', title: 'Professional Services', level: 3 }], count: 1 });
    const bySoc = present.occupationsBySoc(model.occupations);
    const detail = responseSchemas('percentile').industryDetail.parse(versioned(present.industryDetail(model.industries[0]!, bySoc)));
    expect(detail.occupations).toHaveLength(3);
    // Each listed occupation is joined with its own record: the fixture's Registered Nurses, 21.3, low.
    expect(detail.occupations.find((o) => o.soc_code === '29-1141.00')).toEqual({ soc_code: '29-1141.00', title: 'Registered Nurses', slug: 'registered-nurses', employment: 100, share: 1 / 3, final_score: 21.3, risk_tier: 'low' });
    // A code the model does not serve is a build error, not an entry with holes.
    const stray = { ...model.industries[0]!, occupations: [{ soc_code: '99-9999.00', employment: 1, share: 1 }] };
    expect(() => present.industryDetail(stray, bySoc)).toThrow(/31-33 lists 99-9999.00, which is not a served occupation/);
  });
  it('votes are the record counts', () => {
    expect(present.occupationVotes(occ)).toEqual({ total: 3, agree: 2, too_high: 1, too_low: 0, agree_pct: 66.7, too_high_pct: 33.3, too_low_pct: 0 });
  });
});

describe('appendVersion', () => {
  it('gives the bytes of serializing the versioned object, empty objects included', async () => {
    const { appendVersion, versioned } = await import('../../../build/model/version.ts');
    for (const v of [{}, { a: 1 }, { data: [{ x: '}' }], count: 0 }]) expect(appendVersion(JSON.stringify(v))).toBe(JSON.stringify(versioned(v)));
  });
});

import { describe, expect, it } from 'vitest';
import { IndustryDetail, IndustryList } from '../../build/contract/response-schemas.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('industries (%s)', (shape) => {
  it('the list covers levels 2, 3 and 4 and ?level= filters exactly', async () => {
    const all = IndustryList.parse(await sites[shape].json('/api/v1/industries'));
    expect(all.count).toBe(all.data.length);
    let sum = 0;
    for (const level of [2, 3, 4]) {
      const part = IndustryList.parse(await sites[shape].json(`/api/v1/industries?level=${level}`));
      expect(part.data.length).toBeGreaterThan(0);
      expect(part.data.every((i) => i.level === level)).toBe(true);
      expect(part.data).toEqual(all.data.filter((i) => i.level === level));
      sum += part.count;
    }
    expect(sum).toBe(all.count);
  });
  it.each(['level=1', 'level=5', 'level=x', 'level=', 'level=2&level=3', 'lvl=2'])('?%s is a 400 problem', async (qs) => {
    const r = await sites[shape].get(`/api/v1/industries?${qs}`);
    expect(r.status).toBe(400);
    expect((await r.json()).errors.length).toBeGreaterThan(0);
  });
  it('each listed industry has a detail with occupations', async () => {
    const all = IndustryList.parse(await sites[shape].json('/api/v1/industries'));
    for (const i of [all.data[0]!, all.data.at(-1)!]) {
      const d = IndustryDetail.parse(await sites[shape].json(`/api/v1/industries/${i.naics_code}`));
      expect(d).toMatchObject({ naics_code: i.naics_code, title: i.title });
      expect(Array.isArray(d.occupations)).toBe(true);
    }
    expect((await sites[shape].get('/api/v1/industries/999999')).status).toBe(404);
  });
});

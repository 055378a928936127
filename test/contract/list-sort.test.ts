// GET /api/v1/occupations with sort, tier and major_group, over HTTP in both interface shapes (the
// local server with the function bundle; workerd in the cloudflare project): the items' score,
// tier and major group agree with each occupation's own risk response; sorted pages are ordered
// and hold every occupation once; filters keep exactly their tier or group; bad values are a 400
// naming the allowed ones.
import { describe, expect, it } from 'vitest';
import { OccupationList, type OccupationListItem } from '../../build/contract/response-schemas.ts';
import { SHAPES, useSites, type Site } from './setup.ts';

const sites = useSites();

async function all(site: Site, query: string): Promise<{ count: number; items: OccupationListItem[] }> {
  const first = OccupationList.parse(await site.json(`/api/v1/occupations?limit=200${query}`));
  const items = [...first.data];
  for (let offset = 200; offset < first.count; offset += 200) {
    const page = OccupationList.parse(await site.json(`/api/v1/occupations?limit=200&offset=${offset}${query}`));
    expect(page.count).toBe(first.count);
    items.push(...page.data);
  }
  expect(items).toHaveLength(first.count);
  return { count: first.count, items };
}

const codes = (items: OccupationListItem[]) => items.map((i) => i.soc_code);

describe.each(SHAPES)('occupation list: sort and filters (%s)', (shape) => {
  it('items carry final_score, risk_tier and major_group as the occupation itself says', async () => {
    const { items } = await all(sites[shape], '');
    for (const i of items) expect(i.major_group).toBe(i.soc_code.slice(0, 2));
    for (const i of [items[0]!, items[Math.floor(items.length / 2)]!, items.at(-1)!]) {
      const risk = await sites[shape].json(`/api/v1/occupations/${i.soc_code}/risk`);
      expect([i.final_score, i.risk_tier]).toEqual([risk.risk_score.final_score, risk.risk_score.risk_tier]);
    }
    const search = OccupationList.parse(await sites[shape].json('/api/v1/occupations?q=nurse'));
    expect(search.data.length).toBeGreaterThan(0);
    for (const i of search.data) expect(items).toContainEqual(i);
  });

  it('sort=score, -score, title give every occupation once, in order; the default stays SOC-code order', async () => {
    const { count, items: plain } = await all(sites[shape], '');
    expect(codes(plain)).toEqual([...codes(plain)].sort());
    for (const sort of ['score', '-score', 'title', 'employment']) {
      const { count: n, items } = await all(sites[shape], `&sort=${sort}`);
      expect(n).toBe(count);
      expect([...codes(items)].sort()).toEqual(codes(plain));
      for (let k = 1; k < items.length; k++) {
        const [a, b] = [items[k - 1]!, items[k]!];
        if (sort === 'score') expect(a.final_score).toBeLessThanOrEqual(b.final_score);
        if (sort === '-score') expect(a.final_score).toBeGreaterThanOrEqual(b.final_score);
        if (sort === 'title') expect(a.title.toLowerCase() <= b.title.toLowerCase()).toBe(true);
      }
    }
  });

  it('sort=employment puts the most workers first (each occupation\'s labor_data)', async () => {
    const page = OccupationList.parse(await sites[shape].json('/api/v1/occupations?sort=employment&limit=8'));
    const later = OccupationList.parse(await sites[shape].json('/api/v1/occupations?sort=employment&limit=4&offset=300'));
    const employment = async (i: OccupationListItem) => (await sites[shape].json(`/api/v1/occupations/${i.soc_code}`)).labor_data.employment as number | null;
    const top = await Promise.all(page.data.map(employment));
    for (let k = 1; k < top.length; k++) expect(top[k - 1]!).toBeGreaterThanOrEqual(top[k]!);
    for (const e of await Promise.all(later.data.map(employment))) expect(e ?? -1).toBeLessThanOrEqual(top.at(-1)!);
  });

  it('tier and major_group keep exactly their occupations; the tiers add up to the list', async () => {
    const { count, items } = await all(sites[shape], '');
    let sum = 0;
    for (const tier of ['low', 'medium', 'high']) {
      const got = await all(sites[shape], `&tier=${tier}`);
      expect(codes(got.items)).toEqual(codes(items.filter((i) => i.risk_tier === tier)));
      sum += got.count;
    }
    expect(sum).toBe(count);
    const nurses = await all(sites[shape], '&major_group=29&tier=medium&sort=-score');
    expect(nurses.count).toBeGreaterThan(0);
    expect(nurses.items.every((i) => i.major_group === '29' && i.risk_tier === 'medium')).toBe(true);
    expect(new Set(codes(nurses.items))).toEqual(new Set(codes(items.filter((i) => i.major_group === '29' && i.risk_tier === 'medium'))));
    const none = OccupationList.parse(await sites[shape].json('/api/v1/occupations?major_group=55'));
    expect(none.count).toBe(items.filter((i) => i.major_group === '55').length);
  });

  it('with q, sort reorders the matches and filters keep some of them', async () => {
    const ranked = await all(sites[shape], '&q=nurse');
    const sorted = await all(sites[shape], '&q=nurse&sort=-score');
    expect(new Set(codes(sorted.items))).toEqual(new Set(codes(ranked.items)));
    for (let k = 1; k < sorted.items.length; k++) expect(sorted.items[k - 1]!.final_score).toBeGreaterThanOrEqual(sorted.items[k]!.final_score);
    const high = await all(sites[shape], '&q=nurse&tier=low');
    expect(codes(high.items)).toEqual(codes(ranked.items.filter((i) => i.risk_tier === 'low')));
  });

  it.each([
    ['sort=popularity', 'query.sort', ['score', '-score', 'title', 'employment']],
    ['tier=extreme', 'query.tier', ['low', 'medium', 'high']],
    ['major_group=12', 'query.major_group', expect.arrayContaining(['11', '29', '53'])],
    ['sort=', 'query.sort', undefined],
  ])('%s is a 400 problem naming the allowed values', async (query, location, allowed) => {
    const r = await sites[shape].get(`/api/v1/occupations?${query}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const body = await r.json();
    const error = body.errors.find((e: { location: string }) => e.location === location);
    expect(error).toBeDefined();
    if (allowed) expect(error.allowed).toEqual(allowed);
  });
});

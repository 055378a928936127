// GET /occupations with q/limit/offset: the function, against the bundle mounted by the server.
import { describe, expect, it } from 'vitest';
import { OccupationList } from '../../build/contract/response-schemas.ts';
import { SHAPES, useSites } from './setup.ts';

const sites = useSites();

describe.each(SHAPES)('paging (%s)', (shape) => {
  it('walking all pages of 200 returns every occupation once, in list order, like any other slicing', async () => {
    const site = sites[shape];
    const first = OccupationList.parse(await site.json('/api/v1/occupations?limit=200'));
    const all = [...first.data];
    for (let offset = 200; offset < first.count; offset += 200) {
      const page = OccupationList.parse(await site.json(`/api/v1/occupations?limit=200&offset=${offset}`));
      expect(page.count).toBe(first.count);
      all.push(...page.data);
    }
    expect(all.length).toBe(first.count);
    expect(new Set(all.map((o) => o.soc_code)).size).toBe(all.length);
    expect([...all.map((o) => o.soc_code)].sort()).toEqual(all.map((o) => o.soc_code));
    for (const [limit, offset] of [[7, 0], [13, 190], [1, all.length - 1], [50, all.length - 10], [199, 3]] as const) {
      const page = OccupationList.parse(await site.json(`/api/v1/occupations?limit=${limit}&offset=${offset}`));
      expect(page.data).toEqual(all.slice(offset, offset + limit));
      expect({ limit: page.limit, offset: page.offset, count: page.count }).toEqual({ limit, offset, count: all.length });
    }
    const past = OccupationList.parse(await site.json(`/api/v1/occupations?offset=${all.length + 5}`));
    expect(past).toMatchObject({ data: [], count: all.length });
  });

  it('the function answers the no-query list with the same body as the static file', async () => {
    const site = sites[shape];
    const viaFunction = await (await site.get('/api/v1/occupations')).text();
    const viaQuery = await (await site.get('/api/v1/occupations?limit=50&offset=0')).text();
    const { readFileSync } = await import('node:fs');
    expect(viaFunction).toBe(readFileSync(`${site.dir}/api/v1/occupations/index.json`, 'utf8'));
    expect(viaQuery).toBe(viaFunction);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=2.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1.0', 'offset'],
    ['limit=5&limit=6', 'limit'],
    ['q=', 'q'],
    ['sort=popularity', 'sort'],
  ])('?%s is a 400 problem naming %s', async (qs, name) => {
    const r = await sites[shape].get(`/api/v1/occupations?${qs}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const body = await r.json();
    expect(body.errors.map((e: { location: string }) => e.location)).toContain(`query.${name}`);
  });
});

describe.each(SHAPES)('search (%s)', (shape) => {
  const top = async (q: string) => OccupationList.parse(await sites[shape].json(`/api/v1/occupations?q=${encodeURIComponent(q)}`));
  it.each([
    ['programmer', 'Computer Programmers'],
    ['RN', 'Registered Nurses'],
    ['cashier', 'Cashiers'],
  ])('"%s" finds %s first', async (q, title) => {
    const r = await top(q);
    expect(r.data[0]?.title).toBe(title);
    expect(r.count).toBeGreaterThanOrEqual(r.data.length);
  });
  it('is case-insensitive and counts all matches, not the page', async () => {
    const a = await top('NURSE');
    const b = await top('nurse');
    expect(a).toEqual(b);
    expect(a.count).toBeGreaterThan(1);
    const one = OccupationList.parse(await sites[shape].json('/api/v1/occupations?q=nurse&limit=1'));
    expect(one.data).toEqual(a.data.slice(0, 1));
    expect(one.count).toBe(a.count);
  });
  it('no match is an empty page with the closest titles as suggestions, not an error', async () => {
    const r = await top('zzqxj');
    expect(r).toMatchObject({ data: [], count: 0, limit: 50, offset: 0 });
    expect(r.suggestions!.length).toBeGreaterThan(0);
    expect(r.suggestions!.length).toBeLessThanOrEqual(5);
    expect(r.not_scored).toEqual([]);
    // A match is never answered with suggestions.
    expect(await top('nurse')).not.toHaveProperty('suggestions');
    expect(await top('nurse')).not.toHaveProperty('not_scored');
  });
  it('a query naming occupations the model does not score finds none, and says which and why', async () => {
    // O*NET has no task statements for the military occupations (55-xxxx): "infantry" is not a
    // typo of "infant" (Childcare Workers), nor "soldier" of "solder".
    for (const q of ['infantry', 'soldier', 'infantry officer']) {
      const r = await top(q);
      expect(r, q).toMatchObject({ data: [], count: 0 });
      expect(r.not_scored!.length, q).toBeGreaterThan(0);
      // Titles that merely look like the query are no answer to it.
      expect(r.suggestions, q).toEqual([]);
      for (const u of r.not_scored!) {
        expect(u.soc_code, q).toMatch(/^55-/);
        expect(u.reason, q).toMatch(/task statements/);
      }
    }
    expect((await top('infantry')).not_scored![0]).toMatchObject({ soc_code: '55-3016.00', title: 'Infantry' });
    expect((await top('infantry officer')).not_scored!.map((u) => u.soc_code)).toEqual(['55-1016.00']);
  });
  it('a query that served occupations match only by alternate titles, and unscored ones by their official titles, gets both', async () => {
    // O*NET lists "military" in alternate titles of served occupations (lawyers, pilots) and in the
    // official titles of unscored military occupations, and in no served occupation's official title.
    for (const q of ['military', 'air crew']) {
      const r = await top(q);
      expect(r.data.length, q).toBeGreaterThan(0);
      expect(r.not_scored!.length, q).toBeGreaterThan(0);
      // The military occupations first (others may follow by alternate titles: a "Military Science" professor).
      expect(r.not_scored![0]!.soc_code, q).toMatch(/^55-/);
      for (const u of r.not_scored!) expect(u.reason, q).toMatch(/task statements/);
      expect(r, q).not.toHaveProperty('suggestions');
      // Every page of the query says it, not only the first.
      const later = OccupationList.parse(await sites[shape].json(`/api/v1/occupations?q=${encodeURIComponent(q)}&limit=1&offset=1`));
      expect(later.not_scored, q).toEqual(r.not_scored);
    }
    expect((await top('air crew')).not_scored!.map((u) => u.title)).toContain('Air Crew Members');
    // "officer" is in official titles of served occupations too (Police and Sheriff's Patrol Officers).
    for (const q of ['officer', 'nurse', 'pilot']) expect(await top(q), q).not.toHaveProperty('not_scored');
  });
});

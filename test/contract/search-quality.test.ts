// Search on the real data: realistic queries (plain job words, plurals, misspellings,
// abbreviations, everyday words; test/support/search-queries.ts) must find the occupation a person
// means in the top 3 for at least 95% of them, and for every kind separately at least 85%.
import { describe, expect, it } from 'vitest';
import { OccupationList } from '../../build/contract/response-schemas.ts';
import { BRITISH_CASES, SEARCH_CASES } from '../support/search-queries.ts';
import { useSites } from './setup.ts';

const sites = useSites();

describe('search quality on the real data', () => {
  it('finds the expected occupation in the top 3 for >= 95% of realistic queries', async () => {
    const misses: string[] = [];
    const byKind = new Map<string, { pass: number; total: number }>();
    for (const c of SEARCH_CASES) {
      const r = OccupationList.parse(await sites.percentile.json(`/api/v1/occupations?q=${encodeURIComponent(c.q)}&limit=3`));
      const ok = r.data.some((d) => c.expect.includes(d.soc_code));
      const k = byKind.get(c.kind) ?? { pass: 0, total: 0 };
      byKind.set(c.kind, { pass: k.pass + (ok ? 1 : 0), total: k.total + 1 });
      if (!ok) misses.push(`${c.kind} "${c.q}" -> ${r.data.map((d) => d.title).join(' | ') || '(nothing)'}`);
    }
    const pass = SEARCH_CASES.length - misses.length;
    console.log(`search: ${pass}/${SEARCH_CASES.length} realistic queries with the expected occupation in the top 3${misses.length ? `; misses:\n  ${misses.join('\n  ')}` : ''}`);
    expect(pass / SEARCH_CASES.length, misses.join('\n')).toBeGreaterThanOrEqual(0.95);
    for (const [kind, k] of byKind) expect(k.pass / k.total, `${kind}: ${k.pass}/${k.total}`).toBeGreaterThanOrEqual(0.85);
  });

  it('finds the US occupation for British names of jobs, each in the top 3', async () => {
    const misses: string[] = [];
    for (const c of BRITISH_CASES) {
      const r = OccupationList.parse(await sites.percentile.json(`/api/v1/occupations?q=${encodeURIComponent(c.q)}&limit=3`));
      if (!r.data.some((d) => c.expect.includes(d.soc_code))) misses.push(`"${c.q}" -> ${r.data.map((d) => d.title).join(' | ') || '(nothing)'}`);
    }
    expect(misses).toEqual([]);
  });

  it.each([
    ['nurse', 'Registered Nurses'],
    ['teacher', 'Elementary School Teachers, Except Special Education'],
    ['nurses', 'Registered Nurses'],
    ['nurce', 'Registered Nurses'],
    ['RN', 'Registered Nurses'],
    ['CEO', 'Chief Executives'],
    ['manager', 'General and Operations Managers'],
    ['managers', 'General and Operations Managers'],
    ['cybersecurity', 'Information Security Analysts'],
    ['police', "Police and Sheriff's Patrol Officers"],
    ['delivery', 'Light Truck Drivers'],
  ])('"%s" ranks %s first (the occupation people usually mean)', async (q, title) => {
    const r = OccupationList.parse(await sites.percentile.json(`/api/v1/occupations?q=${encodeURIComponent(q)}&limit=5`));
    expect(r.data[0]?.title).toBe(title);
  });

  it('"teacher" puts K-12 teachers before any postsecondary teacher', async () => {
    const r = OccupationList.parse(await sites.percentile.json('/api/v1/occupations?q=teacher&limit=200'));
    const titles = r.data.map((d) => d.title);
    const firstPostsecondary = titles.findIndex((t) => t.includes('Postsecondary'));
    for (const k12 of ['Elementary School Teachers, Except Special Education', 'Secondary School Teachers, Except Special and Career/Technical Education', 'Middle School Teachers, Except Special and Career/Technical Education']) {
      expect(titles.indexOf(k12), k12).toBeGreaterThanOrEqual(0);
      expect(titles.indexOf(k12), k12).toBeLessThan(firstPostsecondary);
    }
  });

  it('a misspelled query counts and pages like any other', async () => {
    const all = OccupationList.parse(await sites.percentile.json('/api/v1/occupations?q=techer&limit=200'));
    expect(all.count).toBe(all.data.length);
    const page = OccupationList.parse(await sites.percentile.json('/api/v1/occupations?q=techer&limit=2&offset=1'));
    expect(page.count).toBe(all.count);
    expect(page.data).toEqual(all.data.slice(1, 3));
  });
});
